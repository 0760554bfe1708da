package flushlab.core;

import java.time.Instant;

/**
 * The one clock that emitter and client share. Inside one process every timestamp is {@code
 * System.nanoTime()} shifted by a single epoch anchor taken at class load, so emit and receive
 * times are comparable to the nanosecond and never jump with NTP. Across processes each side
 * anchors on {@link Instant#now()}, so cross-process one-way delays carry the anchoring error of
 * the two wall clocks (microseconds on one host), unless the child is given its parent's anchor
 * ({@link #anchorProperty()}): {@code System.nanoTime()} is the machine's CLOCK_MONOTONIC on Linux,
 * the same in every process and every network namespace, so a child that shares the anchor stamps
 * frames on exactly the parent's clock.
 */
public final class LabClock {
  /**
   * The system property a child process reads its parent's anchor from: "MONO,EPOCH" nanoseconds.
   */
  public static final String ANCHOR_PROPERTY = "flushlab.clock.anchor";

  /** How many monotonic/wall pairs the anchor is chosen from. */
  private static final int ANCHOR_READINGS = 200;

  private static final long ANCHOR_MONO;
  private static final long ANCHOR_EPOCH;

  static {
    String given = System.getProperty(ANCHOR_PROPERTY);
    long[] a = given == null ? null : parseAnchor(given);
    if (a != null) {
      ANCHOR_MONO = a[0];
      ANCHOR_EPOCH = a[1];
    } else {
      long[] best = anchorOnWallClock(ANCHOR_READINGS);
      ANCHOR_MONO = best[0];
      ANCHOR_EPOCH = best[1];
    }
  }

  /**
   * Pairs the monotonic clock with the wall clock (CLOCK_REALTIME) as tightly as this process can:
   * reads the wall clock between two monotonic readings, many times, and keeps the pair whose
   * bracket was narrowest, taking the bracket's midpoint. A single pair taken at class load carried
   * whatever the first (cold) wall-clock read cost, 10 to 110 us, into every cross-process one-way
   * delay; the narrowest bracket of many warm reads is typically under a microsecond.
   */
  static long[] anchorOnWallClock(int readings) {
    long bestWidth = Long.MAX_VALUE;
    long bestMono = 0;
    long bestEpoch = 0;
    for (int i = 0; i < readings; i++) {
      long before = System.nanoTime();
      Instant now = Instant.now();
      long after = System.nanoTime();
      long width = after - before;
      if (width < bestWidth) {
        bestWidth = width;
        bestMono = before + width / 2;
        bestEpoch = now.getEpochSecond() * 1_000_000_000L + now.getNano();
      }
    }
    return new long[] {bestMono, bestEpoch, bestWidth};
  }

  private static long[] parseAnchor(String s) {
    String[] f = s.split(",");
    try {
      return f.length == 2 ? new long[] {Long.parseLong(f[0]), Long.parseLong(f[1])} : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The JVM option that makes a child process share this process's clock anchor. */
  public static String anchorProperty() {
    return "-D" + ANCHOR_PROPERTY + "=" + ANCHOR_MONO + "," + ANCHOR_EPOCH;
  }

  private LabClock() {}

  /** Epoch nanoseconds now, monotonic within this process. */
  public static long epochNanos() {
    return ANCHOR_EPOCH + (System.nanoTime() - ANCHOR_MONO);
  }

  /**
   * This process's clock minus {@code System.nanoTime()}: two processes on one kernel (one boot)
   * share the monotonic clock, so the difference of their values is exactly how far apart their lab
   * clocks read, with no round trip in it.
   */
  public static long anchorDifference() {
    return ANCHOR_EPOCH - ANCHOR_MONO;
  }

  /** Converts a {@code System.nanoTime()} reading taken earlier into epoch nanoseconds. */
  public static long toEpochNanos(long monoNanos) {
    return ANCHOR_EPOCH + (monoNanos - ANCHOR_MONO);
  }
}
