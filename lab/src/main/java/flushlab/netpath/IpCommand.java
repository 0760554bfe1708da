package flushlab.netpath;

import flushlab.core.ProcFiles;
import flushlab.process.Executables;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/** Runs iproute2's {@code ip} and says plainly what it answered when it fails. */
final class IpCommand {
  private IpCommand() {}

  /** Why this machine cannot make a veth path, or null when it can. */
  static String unavailable() {
    if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
      return "the veth path needs Linux network namespaces (this is "
          + System.getProperty("os.name")
          + ")";
    }
    if (Executables.locate("ip") == null) {
      return "the veth path needs iproute2's 'ip' command (apt-get install iproute2)";
    }
    if (!isRoot()) {
      return "the veth path needs root: it creates network namespaces and a veth link (run as root, or use --path loopback)";
    }
    return null;
  }

  private static boolean isRoot() {
    try {
      return "0"
          .equals(
              ProcFiles.read(Path.of("/proc/self/status"))
                  .lines()
                  .filter(l -> l.startsWith("Uid:"))
                  .map(l -> l.split("\\s+")[2])
                  .findFirst()
                  .orElse(""));
    } catch (IOException e) {
      return false;
    }
  }

  /** Runs {@code ip ARGS}; throws with ip's own message when it exits non-zero. */
  static String run(String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Executables.locate("ip"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out;
    try {
      out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("'ip " + String.join(" ", args) + "' did not finish within 10 s");
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted during 'ip " + String.join(" ", args) + "'");
    }
    if (p.exitValue() != 0)
      throw new IOException("'ip " + String.join(" ", args) + "' failed: " + out);
    return out;
  }

  /**
   * Like {@link #run} for clean-up steps: a failure (the thing is already gone) is not an error.
   */
  static void quietly(String... args) {
    try {
      run(args);
    } catch (IOException e) {
      // already removed, or never made
    }
  }
}
