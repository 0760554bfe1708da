package flushlab.core;

import java.io.IOException;
import java.io.RandomAccessFile;

/**
 * How long the calling thread has waited, runnable, for a core: the second field of Linux's
 * {@code /proc/thread-self/schedstat} (nanoseconds, updated each time the thread is switched in).
 *
 * <p>It tells a loop kept off the CPU by the rest of the host (other processes, other threads)
 * from a loop busy with the lab's own code, which an event loop's late tick alone cannot: a busy
 * loop that other work preempts is late by the host, yet the sleeping watcher thread, which the
 * scheduler favours on wake-up, may not see it. Opened by the thread it measures, read in place
 * (no allocation); where the file does not exist it reads -1.
 */
final class RunQueueWait implements AutoCloseable {
  private final byte[] buf = new byte[96];
  private RandomAccessFile file;
  private boolean unavailable;

  /** The calling thread's total run-queue wait (ns), or -1 where the kernel does not say. The same thread must call it each time. */
  long nanos() {
    if (unavailable) return -1;
    try {
      if (file == null) file = new RandomAccessFile("/proc/thread-self/schedstat", "r");
      file.seek(0);
      int n = file.read(buf, 0, buf.length);
      return n <= 0 ? -1 : secondField(buf, n);
    } catch (IOException | SecurityException e) {
      unavailable = true;
      close();
      return -1;
    }
  }

  /** "run_ns wait_ns slices": the second number, or -1. */
  static long secondField(byte[] b, int n) {
    int i = 0;
    while (i < n && b[i] != ' ') i++;
    i++;
    long v = 0;
    int digits = 0;
    for (; i < n && b[i] >= '0' && b[i] <= '9'; i++, digits++) v = v * 10 + (b[i] - '0');
    return digits == 0 ? -1 : v;
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
