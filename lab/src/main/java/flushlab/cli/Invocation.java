package flushlab.cli;

import flushlab.client.HeaderSpec;
import flushlab.core.LabClock;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line that reproduces this one, for results meant for bug reports: {@code
 * ./run-scenario.sh FILE ARGS} when run-scenario.sh started it (it says so in FLUSHLAB_LAUNCHER),
 * otherwise {@code java OPTIONS -jar JAR ARGS} with the JVM's options and the arguments as given.
 */
final class Invocation {
  static final String LAUNCHER_ENV = "FLUSHLAB_LAUNCHER";

  private Invocation() {}

  static String describe(String[] args) {
    String launcher = System.getenv(LAUNCHER_ENV);
    List<String> words = new ArrayList<>();
    if (launcher != null && !launcher.isBlank() && args.length > 0 && args[0].equals("run")) {
      words.add(launcher);
      for (int i = 1; i < args.length; i++) words.add(args[i]);
    } else {
      words.add("java");
      words.addAll(jvmOptions());
      Path jar = jar();
      if (jar != null) {
        words.add("-jar");
        words.add(jar.toString());
      } else {
        words.add("-cp");
        words.add(System.getProperty("java.class.path"));
        words.add(Main.class.getName());
      }
      words.addAll(List.of(args));
    }
    redactHeaderValues(words);
    StringBuilder sb = new StringBuilder();
    for (String w : words) sb.append(sb.length() == 0 ? "" : " ").append(quote(w));
    return sb.toString();
  }

  /**
   * The options this JVM was started with (an @argfile such as lab/jvm.options arrives expanded):
   * they change what is measured (C1 only, the heap), so the recorded command carries them.
   */
  static List<String> jvmOptions() {
    List<String> out = new ArrayList<>();
    for (String o : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (o.startsWith("-D" + LabClock.ANCHOR_PROPERTY + "="))
        continue; // a child's clock anchor: not the user's
      out.add(o);
    }
    return out;
  }

  /**
   * A --header's value may hold a secret (the shell may have expanded one): only its name is kept.
   */
  static void redactHeaderValues(List<String> words) {
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      if (w.equals("--header") && i + 1 < words.size()) {
        words.set(i + 1, HeaderSpec.redactedText(words.get(i + 1)));
        i++;
      } else if (w.startsWith("--header=")) {
        words.set(i, "--header=" + HeaderSpec.redactedText(w.substring("--header=".length())));
      }
    }
  }

  /**
   * The jar this code runs from, relative to the working directory when it is below it; null
   * outside a jar.
   */
  private static Path jar() {
    try {
      Path p = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      if (!p.toString().endsWith(".jar")) return null;
      Path cwd = Path.of("").toAbsolutePath();
      return p.startsWith(cwd) ? cwd.relativize(p) : p;
    } catch (Exception e) {
      return null;
    }
  }

  /** Single quotes around a word a POSIX shell would split or expand. */
  static String quote(String w) {
    if (!w.isEmpty() && w.matches("[A-Za-z0-9_./:=,@%+-]+")) return w;
    return "'" + w.replace("'", "'\\''") + "'";
  }
}
