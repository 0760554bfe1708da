package flushlab.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RunWaitsTest {
  static final long MS = 1_000_000L;

  /**
   * s130: six loops on two cores, each tick waiting 1.8 ms, a tick every 1.67 ms, so waits summed
   * over the run as long as the run. A relay's release of 81 frames of 1 ms is not theirs: one
   * frame passes three loops, each one unbroken wait at most, 1 frame each.
   */
  @Test
  void wallToWallWaitsOfManyLoopsExplainNoLongRelease() {
    WaitLog log = new WaitLog();
    for (int t = 1; t <= 300; t++) log.add(t * 5 * MS / 3, 1_800_000L);
    RunWaits run = log.during(0, 500 * MS);
    assertThat(run.totalNanos()).isEqualTo(540 * MS);
    assertThat(run.framesBefore(300 * MS, 81, MS)).isEqualTo(3);
  }

  /**
   * A reader that waited 5 ms just before a read piles up two frames of 2 ms in it, whole intervals
   * only; its tick comes up to a tick's span after the read.
   */
  @Test
  void aWaitJustBeforeAReadPilesUpItsWholeIntervals() {
    WaitLog log = new WaitLog();
    log.add(108 * MS, 5 * MS);
    RunWaits run = log.during(0, 500 * MS);
    assertThat(run.framesBefore(100 * MS, 4, 2 * MS)).isEqualTo(2);
    assertThat(run.framesBefore(100 * MS, 2, 2 * MS)).as("no more than the read's extra").isOne();
    assertThat(run.framesBefore(100 * MS, 4, 6 * MS)).as("a wait under the interval").isZero();
    assertThat(run.framesBefore(100 * MS, 4, 0)).as("frames sent back to back").isZero();
    assertThat(run.framesBefore(100 * MS, 1, 2 * MS)).as("a read of one frame").isZero();
  }

  /** A wait well before a read's frames were sent piled none of them up. */
  @Test
  void aWaitBeforeTheReadsFramesWereSentIsNotTheirs() {
    WaitLog log = new WaitLog();
    log.add(20 * MS, 8 * MS);
    RunWaits run = log.during(0, 500 * MS);
    assertThat(run.framesBefore(200 * MS, 5, 2 * MS)).isZero();
    assertThat(run.framesBefore(25 * MS, 5, 2 * MS)).isEqualTo(4);
  }

  /** Of many ticks before one read, the three longest: one per loop the frames passed. */
  @Test
  void onlyTheThreeLongestWaitsBeforeAReadCount() {
    WaitLog log = new WaitLog();
    long[] waits = {2, 7, 3, 5, 4, 6};
    for (int i = 0; i < waits.length; i++) log.add((100 + i) * MS, waits[i] * MS);
    RunWaits run = log.during(0, 500 * MS);
    assertThat(run.framesBefore(105 * MS, 40, MS)).isEqualTo(7 + 6 + 5);
  }
}
