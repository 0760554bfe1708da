package flushlab.map;

import static flushlab.map.BesideACompressorTest.answer;
import static flushlab.map.BesideACompressorTest.compressedBeside;
import static flushlab.map.BesideACompressorTest.timed;
import static org.assertj.core.api.Assertions.assertThat;

import flushlab.relay.shaper.ShaperRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An encoder for clients that accept the coding and one-late for the others: the encoder in front
 * of one-late is tried first among the pairs, its model a chain the relay runs, the compressor
 * first (`compress=gzip,flush=none -> one-late` as a browser was left inconclusive with the other
 * order alone tried and refused: seed 20261251).
 */
class EncoderInFrontTest {
  @Test
  void anEncoderBesideOneLateGetsTheEncoderInFrontFirst() {
    FlushTrigger encoder = answer(TriggerKind.ENCODER);
    FlushTrigger oneLate = answer(TriggerKind.ONE_LATE);
    for (boolean plainFirst : new boolean[] {true, false}) {
      FlushTrigger both = compressedBeside(encoder, oneLate);
      TwoStageCandidate c = EncoderInFront.of(both, plainFirst, null);
      assertThat(c).isNotNull();
      assertThat(c.chain()).isEqualTo("compress=gzip,flush=none -> one-late");
      assertThat(ShaperModel.of(c.answer()).chain())
          .as("plain first: %s", plainFirst)
          .isEqualTo(c.chain());
      assertThat(ShaperRegistry.parseChain(c.chain())).hasSize(2);
      TwoStageCandidate other = new TwoStageCandidate("x", oneLate);
      assertThat(EncoderInFront.first(both, plainFirst, null, List.of(other)))
          .extracting(TwoStageCandidate::chain)
          .containsExactly(c.chain(), "x");
    }
  }

  @Test
  void noneBesideAnotherStageOrAnotherReading() {
    FlushTrigger encoder = answer(TriggerKind.ENCODER);
    FlushTrigger hold = timed(TriggerKind.TIMER, 150.3);
    assertThat(EncoderInFront.of(compressedBeside(encoder, hold), true, null))
        .as("beside a hold")
        .isNull();
    FlushTrigger unexplained = answer(TriggerKind.INCONCLUSIVE);
    assertThat(
            EncoderInFront.of(
                compressedBeside(unexplained, answer(TriggerKind.ONE_LATE)), true, null))
        .as("the accepting pass no encoder")
        .isNull();
    assertThat(EncoderInFront.of(hold, true, null)).as("no compression").isNull();
    assertThat(EncoderInFront.first(hold, true, null, List.of())).isEmpty();
  }
}
