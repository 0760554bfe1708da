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

  /** A run's ticks come out in time order, though loops log them a few microseconds apart. */
  @Test
  void aRunsTicksComeOutInTimeOrder() {
    WaitLog log = new WaitLog();
    log.add(10 * MS, 3 * MS);
    log.add(20 * MS + 5_000, 2 * MS);
    log.add(20 * MS, 9 * MS);
    log.add(30 * MS, 4 * MS);
    RunWaits run = log.during(10 * MS, 25 * MS);
    assertThat(run.totalNanos()).isEqualTo(11 * MS);
    // a read at 21 ms of 6 frames of 1 ms: the 9 ms and 2 ms ticks, the longest first
    assertThat(run.framesBefore(21 * MS, 6, MS)).isEqualTo(5);
    assertThat(run.framesBefore(21 * MS, 20, MS)).isEqualTo(11);
    // frames sent from 20.002 ms on: the tick logged second but at 20 ms is before them
    assertThat(run.framesBefore(29_002_000L, 10, MS)).isEqualTo(2);
  }
}
