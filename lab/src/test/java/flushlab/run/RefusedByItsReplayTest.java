package flushlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.map.CellMatch;
import flushlab.map.FlushTrigger;
import flushlab.map.ReplayVerdict;
import flushlab.map.TriggerKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Models of two stages follow a one-mechanism model its replay refused, never one whose replay this
 * host's stalls cut short: that is the host's answer, not the target's.
 */
class RefusedByItsReplayTest {
  private static final FlushTrigger CORK =
      new FlushTrigger(
          "haproxy", TriggerKind.CORK, 63612.0, null, 208.0, null, "cork", List.of(), List.of());

  @Test
  void aModelADifferingCellRefusedIsRefused() {
    FlushTrigger refused =
        CORK.withReplay(
            new ReplayVerdict(
                "cork",
                List.of(
                    new CellMatch("frame_size=60B interval=2ms frames=600", null),
                    new CellMatch(
                        "frame_size=4096B interval=2ms frames=600",
                        "first frame's wait 14.0 and 210.3 ms"))));
    assertThat(refused.kind()).isEqualTo(TriggerKind.INCONCLUSIVE);
    assertThat(MapSession.refusedByItsReplay(refused)).isTrue();
  }

  @Test
  void aReplayTheHostsStallsCutShortRefusedNothing() {
    FlushTrigger stalled =
        CORK.withReplayUnfinished(
            "this host stalled in both runs of the replay of frame_size=4096B interval=2ms"
                + " frames=600 (emitter late by 22.787 ms (tolerance 20.000 ms) at 0.80 s into the"
                + " stream); nothing is compared from it",
            "map again on a quieter host");
    assertThat(stalled.kind()).isEqualTo(TriggerKind.INCONCLUSIVE);
    assertThat(MapSession.refusedByItsReplay(stalled)).isFalse();
    assertThat(MapSession.refusedByItsReplay(CORK)).as("an answer not replayed").isFalse();
  }
}
