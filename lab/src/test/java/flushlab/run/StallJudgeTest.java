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
    assertThat(StallJudge.covering(List.of(s), 200 * MS + StallJudge.AFTER_STALL_NANOS)).isEqualTo(s);
    assertThat(StallJudge.covering(List.of(s), 200 * MS + StallJudge.AFTER_STALL_NANOS + 1)).isNull();
  }

  /**
   * Loops kept waiting for a core 243 ms in all over a run of frames every 2 ms (as three maps at
   * once on two cores did) can have piled up 121 extra frames in each stream, and no more; frames
   * sent back to back pile up whatever the host did.
   */
  @Test
  void aRunQueueWaitExplainsAtMostItsLengthOverTheIntervalInEachStream() {
    assertThat(StallJudge.contentionAllowance(243 * MS, 2 * MS, 1)).isEqualTo(121);
    assertThat(StallJudge.contentionAllowance(243 * MS, 2 * MS, 3)).isEqualTo(363);
    assertThat(StallJudge.contentionAllowance(1 * MS, 2 * MS, 1)).isZero();
    assertThat(StallJudge.contentionAllowance(243 * MS, 0, 1)).isZero();
  }
}
