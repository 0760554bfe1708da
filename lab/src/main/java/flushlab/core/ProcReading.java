package flushlab.core;

import java.io.IOException;
import java.io.RandomAccessFile;

/**
 * A /proc file that one thread reads again and again, in place: opened at its first read (so a
 * {@code /proc/thread-self} path names the thread that reads), read from its start into a fixed
 * buffer, no allocation after that. Once it cannot be opened or read (a kernel without it, a thread
 * that ended) it answers -1 from then on.
 */
final class ProcReading implements AutoCloseable {
  private final String path;
  private final byte[] buf;
  private RandomAccessFile file;
  private boolean unavailable;

  ProcReading(String path, int bytes) {
    this.path = path;
    this.buf = new byte[bytes];
  }

  /** How many bytes the file gave into {@link #buffer()}, or -1. */
  int read() {
    if (unavailable) return -1;
    try {
      if (file == null) file = new RandomAccessFile(path, "r");
      file.seek(0);
      return file.read(buf, 0, buf.length);
    } catch (IOException | SecurityException e) {
      unavailable = true;
      close();
      return -1;
    }
  }

  byte[] buffer() {
    return buf;
  }

  @Override
  public void close() {
    try {
      if (file != null) file.close();
    } catch (IOException ignored) {
      // a /proc file: nothing was written
    }
    file = null;
  }
}
