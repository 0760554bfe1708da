package flushlab.core;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The version and git commit this jar was built from, stamped into flushlab.properties at build
 * time.
 */
public final class Build {
  private Build() {}

  private static final Properties BUILD = load();

  private static Properties load() {
    Properties p = new Properties();
    try (InputStream in = Build.class.getResourceAsStream("/flushlab.properties")) {
      if (in != null) p.load(in);
    } catch (IOException ignored) {
      // reported as unknown
    }
    return p;
  }

  /** A build property, or "unknown" when the build could not fill it in (no git checkout). */
  private static String property(String key) {
    String v = BUILD.getProperty(key, "unknown");
    return v.startsWith("${") ? "unknown" : v;
  }

  public static String version() {
    return property("version");
  }

  /**
   * The git commit the running jar was built from, "-dirty" when the tree had changes then. Stamped
   * at build time (git-commit-id-maven-plugin), never asked of git at run time: the working
   * directory may be another repository, or none.
   */
  public static String commit() {
    String commit = property("commit");
    return "unknown".equals(commit)
        ? commit
        : commit + ("true".equals(property("dirty")) ? "-dirty" : "");
  }
}
