package flushlab.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WaitLogTest {
  static final long MS = 1_000_000L;

  /**
   * Each tick counts the wait since the tick before, so a span holds the ticks after its start, up
   * to its end.
   */
  @Test
  void aSpanAddsTheWaitsOfTheTicksInIt() {
    WaitLog log = new WaitLog();
    log.add(10 * MS, 3 * MS);
    log.add(20 * MS, 2 * MS);
    log.add(30 * MS, 4 * MS);
    assertThat(log.totalNanos(10 * MS, 30 * MS)).isEqualTo(6 * MS);
    assertThat(log.totalNanos(0, 30 * MS)).isEqualTo(9 * MS);
    assertThat(log.totalNanos(31 * MS, 40 * MS)).isZero();
  }

  /** A wait under 0.1 ms merges no paced frame: it is not kept. */
  @Test
  void tinyWaitsAreNotKept() {
    WaitLog log = new WaitLog();
    log.add(10 * MS, WaitLog.KEPT_FROM_NANOS - 1);
    log.add(20 * MS, WaitLog.KEPT_FROM_NANOS);
    assertThat(log.totalNanos(0, 30 * MS)).isEqualTo(WaitLog.KEPT_FROM_NANOS);
  }

  /**
   * A wait shorter than the interval reads each frame as it comes: 31 ms of waits under a
   * millisecond pile up no frame of 2 ms; a tick's 5 ms wait piles up at most two.
   */
  @Test
  void onlyWholeIntervalsOfATicksWaitPileFramesUp() {
    WaitLog log = new WaitLog();
    for (int t = 1; t <= 62; t++) log.add(t * 10 * MS, MS / 2);
    assertThat(log.totalNanos(0, 700 * MS)).isEqualTo(31 * MS);
    assertThat(log.framesPiledUp(0, 700 * MS, 2 * MS)).isZero();
    log.add(710 * MS, 5 * MS);
    assertThat(log.framesPiledUp(0, 710 * MS, 2 * MS)).isEqualTo(2);
    assertThat(log.framesPiledUp(0, 710 * MS, 0)).isZero();
  }
}
