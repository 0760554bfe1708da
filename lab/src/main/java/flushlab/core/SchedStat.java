package flushlab.core;

/**
 * How long the calling thread has run on a core, how long it has waited, runnable, for one, and how
 * many times it was switched in: the three fields of Linux's {@code /proc/thread-self/schedstat}
 * (nanoseconds, nanoseconds, a count; updated each time the thread is switched in or out).
 *
 * <p>The wait tells a loop kept off the CPU by the rest of the host (other processes, other
 * threads) from a loop busy with the lab's own code, which an event loop's late tick alone cannot:
 * a busy loop that other work preempts is late by the host, yet the sleeping watcher thread, which
 * the scheduler favours on wake-up, may not see it. The run time tells the lab's own code running
 * on the loop from the loop not running at all (blocked, or stopped with the JVM). The count tells
 * a loop that woke only for its meter's tick from one that had work. Opened by the thread it
 * measures, read in place (no allocation); where the file does not exist both read -1.
 */
final class SchedStat implements AutoCloseable {
  private final ProcReading file = new ProcReading("/proc/thread-self/schedstat", 96);
  private final long[] fields = new long[3];
  private long ranNanos = -1;
  private long waitedNanos = -1;
  private long switchedIn = -1;

  /**
   * Reads the calling thread's totals; false where the kernel does not say. The same thread must
   * call it each time.
   */
  boolean read() {
    ranNanos = -1;
    waitedNanos = -1;
    switchedIn = -1;
    int n = file.read();
    if (n <= 0 || !leadingFields(file.buffer(), n, fields)) return false;
    ranNanos = fields[0];
    waitedNanos = fields[1];
    switchedIn = fields[2];
    return true;
  }

  /** The thread's time on a core at the last {@link #read}, or -1. */
  long ranNanos() {
    return ranNanos;
  }

  /** The thread's time runnable in the run queue at the last {@link #read}, or -1. */
  long waitedNanos() {
    return waitedNanos;
  }

  /** How many times the thread was switched in, at the last {@link #read}, or -1. */
  long switchedIn() {
    return switchedIn;
  }

  /**
   * "run_ns wait_ns slices": the first {@code out.length} numbers into {@code out}; false when any
   * is missing.
   */
  static boolean leadingFields(byte[] b, int n, long[] out) {
    int i = 0;
    for (int f = 0; f < out.length; f++) {
      while (i < n && b[i] == ' ') i++;
      long v = 0;
      int digits = 0;
      for (; i < n && b[i] >= '0' && b[i] <= '9'; i++, digits++) v = v * 10 + (b[i] - '0');
      if (digits == 0) return false;
      out[f] = v;
    }
    return true;
  }

  @Override
  public void close() {
    file.close();
  }
}
