package flushlab.process;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the programs the lab runs (proxies, ip, setpriv) on PATH and in the sbin folders root's
 * PATH may lack.
 */
public final class Executables {
  private Executables() {}

  /** Where a binary lives on PATH (or the path itself), or null. */
  public static String locate(String binary) {
    if (binary.contains("/")) return Files.isExecutable(Path.of(binary)) ? binary : null;
    for (String dir :
        (System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin:/usr/local/sbin")
            .split(File.pathSeparator)) {
      Path p = Path.of(dir, binary);
      if (Files.isExecutable(p)) return p.toString();
    }
    return null;
  }
}
