package flushlab;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code flushlab} in a JVM of its own, for what a test cannot do in-process: a small heap, a
 * signal, a SIGKILL. Its output is collected line by line; tests wait for a line, never a time.
 */
public final class ForkedLab implements AutoCloseable {
  private final Process process;
  private final List<String> lines = new ArrayList<>();

  private ForkedLab(Process process) {
    this.process = process;
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                  synchronized (lines) {
                    lines.add(line);
                    lines.notifyAll();
                  }
                }
              } catch (IOException ignored) {
                // the process ended
              }
            },
            "forked-lab-output");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts {@code java <the lab's options> JVM_ARGS -cp <this test classpath> flushlab.cli.Main
   * ARGS} in {@code dir}, stderr merged.
   */
  public static ForkedLab start(Path dir, List<String> jvmArgs, String... args) throws IOException {
    return start(dir, Map.of(), jvmArgs, args);
  }

  /** The same, with these variables added to its environment. */
  public static ForkedLab start(
      Path dir, Map<String, String> env, List<String> jvmArgs, String... args) throws IOException {
    return startInside(List.of(), dir, env, jvmArgs, args);
  }

  /**
   * The same, run through {@code prefix} (e.g. {@code ip netns exec NS}, which execs the JVM in its
   * place, so a kill of this process is a kill of the JVM).
   */
  public static ForkedLab startInside(
      List<String> prefix, Path dir, Map<String, String> env, List<String> jvmArgs, String... args)
      throws IOException {
    List<String> cmd = new ArrayList<>(prefix);
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // as lab/jvm.options runs the lab (C1 only): ready in about half the time, and no C2 compile
    // takes a core from the classes running at once
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.addAll(jvmArgs);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add("flushlab.cli.Main");
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
    pb.environment().putAll(env);
    return new ForkedLab(pb.start());
  }

  /** Waits for an output line matching regex; returns its match. Fails with the output so far. */
  public Matcher awaitLine(String regex, long timeoutMillis) throws InterruptedException {
    Pattern p = Pattern.compile(regex);
    long deadline = System.currentTimeMillis() + timeoutMillis;
    int seen = 0;
    synchronized (lines) {
      while (true) {
        for (; seen < lines.size(); seen++) {
          Matcher m = p.matcher(lines.get(seen));
          if (m.find()) return m;
        }
        long left = deadline - System.currentTimeMillis();
        if (left <= 0 || (!process.isAlive() && seen == lines.size())) {
          throw new AssertionError(
              "no line matching /" + regex + "/; output:\n" + String.join("\n", lines));
        }
        lines.wait(Math.min(left, 200));
      }
    }
  }

  public String output() {
    synchronized (lines) {
      return String.join("\n", lines);
    }
  }

  public Process process() {
    return process;
  }

  @Override
  public void close() throws InterruptedException {
    process.destroyForcibly().waitFor();
  }
}
