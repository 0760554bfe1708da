package flushlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.core.StallLog;
import java.util.List;
import org.junit.jupiter.api.Test;

class StallJudgeTest {
  static final long MS = 1_000_000L;

  /**
   * The host's log as a cluster run under an injected 100 ms stall left it: the loop stall the host
   * caused (2 ms, ending at 202 ms) listed before the watcher's own (98.6 to 205.4 ms). A read at
   * 201 ms falls in both; the longer one is what piled its frames up.
   */
  @Test
  void aReadInOverlappingStallsBelongsToTheLongest() {
    StallLog.Stall loop = new StallLog.Stall(200 * MS, 202 * MS);
    StallLog.Stall watcher = new StallLog.Stall(98_600_000L, 205_400_000L);
    assertThat(StallJudge.covering(List.of(loop, watcher), 201 * MS)).isEqualTo(watcher);
    assertThat(StallJudge.covering(List.of(watcher, loop), 201 * MS)).isEqualTo(watcher);
  }

  @Test
  void aReadCountsAsAStallsOnlyUntilShortlyAfterItsEnd() {
    StallLog.Stall s = new StallLog.Stall(100 * MS, 200 * MS);
    assertThat(StallJudge.covering(List.of(s), 99 * MS)).isNull();
    assertThat(StallJudge.covering(List.of(s), 200 * MS + StallJudge.AFTER_STALL_NANOS))
        .isEqualTo(s);
    assertThat(StallJudge.covering(List.of(s), 200 * MS + StallJudge.AFTER_STALL_NANOS + 1))
        .isNull();
  }

  /**
   * What the loops' waits explain read by read adds up once; the path's busiest thread's wait, one
   * slice, once in each stream.
   */
  @Test
  void aRunQueueWaitExplainsItsReadsAndAPathThreadsOneReadAStream() {
    assertThat(StallJudge.contentionAllowance(12, 0, 3)).isEqualTo(12);
    assertThat(StallJudge.contentionAllowance(12, 4, 3)).isEqualTo(24);
    assertThat(StallJudge.contentionAllowance(0, 0, 3)).isZero();
  }

  /**
   * A proxy's busiest thread waited for a core: one unbroken slice at best, so whole intervals of
   * it pile up in a stream; a wait shorter than the interval piles up none.
   */
  @Test
  void aPathThreadsWaitPilesUpItsWholeIntervals() {
    assertThat(
            StallJudge.pathFrames(
                new StallJudge.PathWait("trafficserver's process", 85 * MS), 20 * MS))
        .isEqualTo(4);
    assertThat(
            StallJudge.pathFrames(
                new StallJudge.PathWait("trafficserver's process", 19 * MS), 20 * MS))
        .isZero();
    assertThat(StallJudge.pathFrames(StallJudge.PathWait.NONE, 2 * MS)).isZero();
    assertThat(StallJudge.pathFrames(new StallJudge.PathWait("x", 85 * MS), 0))
        .as("frames sent back to back")
        .isZero();
  }

  /**
   * s80: every loop held 100 to 160 ms by the lab's own code, and a 9 ms host stall at its end. A
   * read of 13 frames every 5 ms then: the host's 9 ms piles up 2 of its 12 extra frames, the
   * loops' hold the other 10, which are the lab's.
   */
  @Test
  void aLongerLoopStallOverAHostStallExplainsWhatTheHostsCannot() {
    StallLog.Stall host = new StallLog.Stall(150 * MS, 159 * MS);
    StallLog.Stall hold = new StallLog.Stall(100 * MS, 160 * MS);
    assertThat(StallJudge.share(host, hold, 5 * MS, 13)).isEqualTo(new StallJudge.Share(2, 10));
    assertThat(StallJudge.share(null, hold, 5 * MS, 13)).isEqualTo(new StallJudge.Share(0, 12));
  }

  /**
   * s290: a 2 ms host stall at a clock's first tick, which released two frames sent 172 ms apart:
   * no stall that short merges frames that far apart (the reader would have read the first long
   * before), so it explains none of the read, and the run is the path's. Where the stall and the
   * reader's wake-up span an interval it explains a frame, as before.
   */
  @Test
  void aStallShorterThanTheIntervalExplainsNoFramesSentThatFarApart() {
    StallLog.Stall brief = new StallLog.Stall(176 * MS, 178 * MS);
    assertThat(StallJudge.share(brief, null, 172 * MS, 2)).isEqualTo(new StallJudge.Share(0, 0));
    assertThat(StallJudge.share(brief, null, 7 * MS, 2)).isEqualTo(new StallJudge.Share(1, 0));
    assertThat(StallJudge.share(brief, null, 2 * MS, 5)).isEqualTo(new StallJudge.Share(2, 0));
  }

  /**
   * A loop stall the host caused is in the host's log whole: it leaves the loop nothing to explain.
   */
  @Test
  void aLoopStallTheHostCausedIsTheHostsAlone() {
    StallLog.Stall same = new StallLog.Stall(100 * MS, 160 * MS);
    assertThat(StallJudge.share(same, same, 5 * MS, 13)).isEqualTo(new StallJudge.Share(12, 0));
    assertThat(StallJudge.share(same, new StallLog.Stall(110 * MS, 140 * MS), 5 * MS, 13))
        .isEqualTo(new StallJudge.Share(12, 0));
  }

  /**
   * s274: a 70 ms host stall (109 to 178 ms) and a client loop stall of 65 ms from inside it (124
   * to 189 ms): the read after the loop's stall falls 11 ms past the host's end, out of its reach,
   * but the loop stall began while the host stood still, so it is the host's, whole. A loop stall
   * that began before the host stall (s80's hold) stays the lab's.
   */
  @Test
  void aLoopStallThatBeganInAHostStallIsTheHosts() {
    StallLog.Stall host = new StallLog.Stall(109 * MS, 178 * MS);
    StallLog.Stall loop = new StallLog.Stall(124 * MS, 189 * MS);
    long read = 189 * MS + MS;
    assertThat(StallJudge.covering(List.of(host), read)).isNull();
    assertThat(StallJudge.begunInAHostStall(List.of(host), loop)).isEqualTo(loop);
    StallLog.Stall hold = new StallLog.Stall(100 * MS, 160 * MS);
    assertThat(StallJudge.begunInAHostStall(List.of(new StallLog.Stall(150 * MS, 159 * MS)), hold))
        .isNull();
    assertThat(StallJudge.begunInAHostStall(List.of(), loop)).isNull();
    assertThat(StallJudge.begunInAHostStall(List.of(host), null)).isNull();
    // the lab's own 53 ms hold of a loop that began in a 7 ms host stall outlasts it by 46 ms: the
    // lab's (s286)
    StallLog.Stall brief = new StallLog.Stall(95 * MS, 102 * MS);
    assertThat(StallJudge.begunInAHostStall(List.of(brief), new StallLog.Stall(100 * MS, 153 * MS)))
        .isNull();
  }
}
