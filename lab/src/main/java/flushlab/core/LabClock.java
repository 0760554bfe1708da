package flushlab.core;

import java.time.Instant;

/**
 * The one clock that emitter and client share. Inside one process every timestamp is
 * {@code System.nanoTime()} shifted by a single epoch anchor taken at class load, so emit and
 * receive times are comparable to the nanosecond and never jump with NTP. Across processes each
 * side anchors on {@link Instant#now()}, so cross-process one-way delays carry the anchoring
 * error of the two wall clocks (microseconds on one host).
 */
public final class LabClock {
  private static final long ANCHOR_MONO = System.nanoTime();
  private static final long ANCHOR_EPOCH;

  static {
    Instant now = Instant.now();
    ANCHOR_EPOCH = now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }

  private LabClock() {}

  /** Epoch nanoseconds now, monotonic within this process. */
  public static long epochNanos() {
    return ANCHOR_EPOCH + (System.nanoTime() - ANCHOR_MONO);
  }

  /** Converts a {@code System.nanoTime()} reading taken earlier into epoch nanoseconds. */
  public static long toEpochNanos(long monoNanos) {
    return ANCHOR_EPOCH + (monoNanos - ANCHOR_MONO);
  }
}
