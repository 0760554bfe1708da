package flushlab.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/** What a result depends on besides the scenario: versions, machine, and the kernel's TCP settings. */
public final class Environment {
  private Environment() {}

  private static final Properties BUILD = load();

  private static Properties load() {
    Properties p = new Properties();
    try (InputStream in = Environment.class.getResourceAsStream("/flushlab.properties")) {
      if (in != null) p.load(in);
    } catch (IOException ignored) {
      // reported as unknown
    }
    return p;
  }

  /** A build property, or "unknown" when the build could not fill it in (no git checkout). */
  private static String build(String key) {
    String v = BUILD.getProperty(key, "unknown");
    return v.startsWith("${") ? "unknown" : v;
  }

  public static String version() {
    return build("version");
  }

  /**
   * The git commit the running jar was built from, "-dirty" when the tree had changes then.
   * Stamped at build time (git-commit-id-maven-plugin), never asked of git at run time: the
   * working directory may be another repository, or none.
   */
  public static String gitCommit() {
    String commit = build("commit");
    return commit.equals("unknown") ? commit : commit + ("true".equals(build("dirty")) ? "-dirty" : "");
  }

  /** A /proc or /sys value, whitespace collapsed. */
  static String readProcFile(Path file) {
    try {
      return flushlab.core.ProcFiles.read(file).trim().replaceAll("\\s+", " ");
    } catch (IOException e) {
      return "unreadable";
    }
  }

  public static Map<String, Object> capture(boolean nativeTransport) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("flushlab_version", version());
    m.put("git_commit", gitCommit());
    m.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
    m.put("kernel", System.getProperty("os.version"));
    m.put("cpus", Runtime.getRuntime().availableProcessors());
    m.put("native_transport", nativeTransport ? "epoll" : "nio");
    Map<String, String> tcp = new LinkedHashMap<>();
    for (String[] k : new String[][] {
        {"tcp_rmem", "/proc/sys/net/ipv4/tcp_rmem"}, {"tcp_wmem", "/proc/sys/net/ipv4/tcp_wmem"},
        {"rmem_max", "/proc/sys/net/core/rmem_max"}, {"wmem_max", "/proc/sys/net/core/wmem_max"},
        {"tcp_autocorking", "/proc/sys/net/ipv4/tcp_autocorking"}}) {
      tcp.put(k[0], readProcFile(Path.of(k[1])));
    }
    m.put("kernel_tcp", tcp);
    return m;
  }
}
