package flushlab.core;

import java.util.Arrays;

/**
 * A run's run-queue waits, tick by tick in time order (each tick counts its loop's wait since the
 * tick before, about {@link HiccupMeter#LOOP_TICK_NANOS} earlier), held against one read at a time.
 * A frame is delayed by one unbroken wait at most on each loop it passes (the emitter's, a relay's,
 * the reader's): a loop that waited twice ran between, and what piled up in the first wait left
 * then. So the frames a read can owe to waits are those of the few longest ticks just before it,
 * not the sum over every loop of the run (s130: 505 ms of waits summed over a 500 ms run of six
 * loops on two cores, read as 505 frames of 1 ms in each stream, excused a relay's releases of 80
 * frames).
 */
public final class RunWaits {
  /** The loops one frame passes in this process at most: the emitter's, a relay's, the reader's. */
  public static final int LOOPS_ON_A_PATH = 3;

  private final long[] at;
  private final long[] waited;

  private RunWaits(long[] at, long[] waited) {
    this.at = at;
    this.waited = waited;
  }

  /**
   * Ticks at {@code at} with their waits, put in time order here: loops log under one lock with a
   * time each took before it, so neighbours may be out of order by a few microseconds (an insertion
   * sort, which such an order costs one pass).
   */
  static RunWaits of(long[] at, long[] waited) {
    for (int i = 1; i < at.length; i++) {
      long a = at[i];
      long w = waited[i];
      int j = i - 1;
      for (; j >= 0 && at[j] - a > 0; j--) {
        at[j + 1] = at[j];
        waited[j + 1] = waited[j];
      }
      at[j + 1] = a;
      waited[j + 1] = w;
    }
    return new RunWaits(at, waited);
  }

  /** The run's waits of every tick together. */
  public long totalNanos() {
    long total = 0;
    for (long w : waited) total += w;
    return total;
  }

  /**
   * The most frames {@code intervalNanos} apart that the waits can have piled up into one read at
   * {@code readNanos} of {@code frames} frames: its frames were sent over the (frames - 1)
   * intervals before it, so the ticks that count are those whose span reaches into that time (up to
   * a tick after the read, which reports the reader's wait just before it); of them, the {@link
   * #LOOPS_ON_A_PATH} longest, each its whole intervals (a wait under the interval reads each frame
   * as it comes).
   */
  public int framesBefore(long readNanos, int frames, long intervalNanos) {
    if (intervalNanos <= 0 || frames <= 1) return 0;
    long from = readNanos - (frames - 1) * intervalNanos;
    long to = readNanos + 2 * HiccupMeter.LOOP_TICK_NANOS;
    int i = firstAfter(from);
    long[] longest = new long[LOOPS_ON_A_PATH];
    for (; i < at.length && at[i] - to <= 0; i++) {
      long w = waited[i];
      int j = LOOPS_ON_A_PATH - 1;
      if (w <= longest[j]) continue;
      while (j > 0 && longest[j - 1] < w) {
        longest[j] = longest[j - 1];
        j--;
      }
      longest[j] = w;
    }
    long piled = 0;
    for (long w : longest) piled += w / intervalNanos;
    return (int) Math.min(frames - 1, piled);
  }

  private int firstAfter(long nanos) {
    int i = Arrays.binarySearch(at, nanos);
    if (i < 0) return -i - 1;
    while (i < at.length && at[i] == nanos) i++;
    return i;
  }
}
