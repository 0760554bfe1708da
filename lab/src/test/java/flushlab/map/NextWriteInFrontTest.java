package flushlab.map;

import static flushlab.map.BesideACompressorTest.answer;
import static flushlab.map.BesideACompressorTest.compressedBeside;
import static flushlab.map.BesideACompressorTest.threshold;
import static flushlab.map.BesideACompressorTest.timed;
import static org.assertj.core.api.Assertions.assertThat;

import flushlab.relay.shaper.ShaperRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A compressor flushing each event when the next comes, in front of the hold or clock the plain
 * pass saw: tried where the accepting pass was unexplained, as the other order is, and its model a
 * chain the relay runs, the compressor first.
 */
class NextWriteInFrontTest {
  @Test
  void anUnexplainedAcceptingPassBesideAHoldOrAClockGetsTheCompressorInFront() {
    FlushTrigger unexplained = answer(TriggerKind.INCONCLUSIVE);
    for (FlushTrigger stage :
        List.of(timed(TriggerKind.TIMER, 150.3), timed(TriggerKind.PERIODIC_TIMER, 71.3))) {
      for (boolean plainFirst : new boolean[] {true, false}) {
        TwoStageCandidate c =
            NextWriteInFront.of(compressedBeside(unexplained, stage), plainFirst, null);
        String expected = "compress=gzip,flush=next -> " + ShaperModel.single(stage).chain();
        assertThat(c).as("beside %s", stage.kind()).isNotNull();
        assertThat(c.chain()).isEqualTo(expected);
        assertThat(ShaperModel.of(c.answer()).chain())
            .as("plain first: %s", plainFirst)
            .isEqualTo(expected);
        assertThat(ShaperRegistry.parseChain(c.chain())).hasSize(2);
      }
    }
  }

  @Test
  void noneBesideAThresholdOrWhereTheAcceptingPassWasExplained() {
    FlushTrigger unexplained = answer(TriggerKind.INCONCLUSIVE);
    FlushTrigger threshold = threshold(1419);
    assertThat(NextWriteInFront.of(compressedBeside(unexplained, threshold), true, null))
        .as("a threshold counts what the compressor wrote, not what the plain pass saw")
        .isNull();
    FlushTrigger hold = timed(TriggerKind.TIMER, 150.3);
    assertThat(NextWriteInFront.of(compressedBeside(hold, hold), true, null))
        .as("the accepting pass explained")
        .isNull();
    assertThat(NextWriteInFront.of(hold, true, null)).as("no compression").isNull();
  }
}
