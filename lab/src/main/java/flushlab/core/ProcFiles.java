package flushlab.core;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads /proc and /sys files. They report a size (0, or a page) unrelated to what they hold, and
 * {@code Files.readString} trusts it: it returned "4" for tcp_rmem's "4096 131072 33554432". So
 * they are read as a stream, to the end, under a cap.
 */
public final class ProcFiles {
  private ProcFiles() {}

  public static String read(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8);
    }
  }
}
