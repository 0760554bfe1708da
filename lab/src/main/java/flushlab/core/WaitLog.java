package flushlab.core;

import java.util.Arrays;

/**
 * How long each event loop of this process waited, runnable, for a core (its run-queue wait, read
 * from the kernel at each of its ticks), newest 16384 ticks kept: the host's other work taking the
 * CPU from the lab in amounts too short or too spread to be a stall (a 2-core host running three
 * lab JVMs kept a reading loop waiting 1-3 ms at a time, which merges 2 ms frames as a proxy would,
 * with no tick late enough to log). Written by the loops' ticks, read by whoever judges a run;
 * primitive arrays under one lock, so a tick allocates nothing.
 */
public final class WaitLog {
  private static final int KEPT = 16384;

  /**
   * Ticks that waited less than this are not kept: they cannot merge a frame of any interval the
   * lab paces.
   */
  static final long KEPT_FROM_NANOS = 100_000L;

  private final long[] at = new long[KEPT];
  private final long[] waited = new long[KEPT];
  private long written;

  /**
   * A tick at {@code atNanos} found its loop had waited {@code waitedNanos} for a core since the
   * tick before.
   */
  synchronized void add(long atNanos, long waitedNanos) {
    if (waitedNanos < KEPT_FROM_NANOS) return;
    int i = (int) (written++ % KEPT);
    at[i] = atNanos;
    waited[i] = waitedNanos;
  }

  /**
   * The run-queue wait of every loop together over (fromNanos, toNanos]: the ticks in it, each of
   * which counts the wait since the tick before (a tick just after the span is left out, so the
   * last few milliseconds of the span may be missed: it only ever counts less).
   */
  public synchronized long totalNanos(long fromNanos, long toNanos) {
    long total = 0;
    for (long k = written - 1; k >= Math.max(0, written - KEPT); k--) {
      int i = (int) (k % KEPT);
      if (at[i] - fromNanos <= 0) break;
      if (at[i] - toNanos <= 0) total += waited[i];
    }
    return total;
  }

  /**
   * The ticks over (fromNanos, toNanos] in time order, for holding reads against the waits just
   * before each ({@link RunWaits}).
   */
  public synchronized RunWaits during(long fromNanos, long toNanos) {
    int n = 0;
    long first = written;
    for (long k = written - 1; k >= Math.max(0, written - KEPT); k--) {
      int i = (int) (k % KEPT);
      if (at[i] - fromNanos <= 0) break;
      first = k;
    }
    long[] ats = new long[(int) (written - first)];
    long[] waits = new long[ats.length];
    for (long k = first; k < written; k++) {
      int i = (int) (k % KEPT);
      if (at[i] - toNanos > 0) continue;
      ats[n] = at[i];
      waits[n++] = waited[i];
    }
    return RunWaits.of(Arrays.copyOf(ats, n), Arrays.copyOf(waits, n));
  }
}
