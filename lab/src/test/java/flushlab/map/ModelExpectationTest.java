package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flushlab.relay.shaper.IdleTimeout;
import flushlab.relay.shaper.ShaperRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelExpectationTest {

  static FlushTrigger answer(TriggerKind kind, Double bytes, Double timerMs) {
    return new FlushTrigger(
        "x", kind, bytes, null, timerMs, null, kind.text() + " verdict", List.of(), List.of());
  }

  @Test
  void aKindIsMetByThatKindOnly() {
    ModelExpectation none = ModelExpectation.parse("none", 0.1);
    assertThat(none.difference(answer(TriggerKind.NONE, null, null))).isNull();
    assertThat(none.difference(answer(TriggerKind.CORK, 65536.0, 200.0)))
        .isEqualTo("the answer is cork, not none (cork verdict)");
    assertThat(
            ModelExpectation.parse("byte-threshold", 0.1)
                .difference(answer(TriggerKind.BYTE_THRESHOLD, 123.0, null)))
        .isNull();
  }

  @Test
  void aModelIsMetByTheSameStagesWithTheGivenNumbersWithinTheTolerance() {
    ModelExpectation fourK = ModelExpectation.parse("byte-threshold=4KiB", 0.1);
    assertThat(fourK.difference(answer(TriggerKind.BYTE_THRESHOLD, 4079.0, null))).isNull();
    assertThat(fourK.difference(answer(TriggerKind.BYTE_THRESHOLD, 3000.0, null)))
        .isEqualTo(
            "the answer's model is byte-threshold=3000B: bytes=3000B, expected 4096B within 10 %");
    assertThat(fourK.difference(answer(TriggerKind.TIMER, null, 200.0)))
        .isEqualTo(
            "the answer's model is timer=200ms: timer, not byte-threshold (nor is timer=200ms ->"
                + " nagle, which it cannot be told apart from)");
    // a parameter not given is not compared; one given that is not a number must be equal
    assertThat(
            ModelExpectation.parse("timer=200ms", 0.05)
                .difference(answer(TriggerKind.TIMER, null, 204.0)))
        .isNull();
    assertThat(
            ModelExpectation.parse("timer=200ms,periodic=true", 0.05)
                .difference(answer(TriggerKind.TIMER, null, 200.0)))
        .contains("periodic=false, expected true");
    assertThat(ModelExpectation.parse("timer=200ms", 0.05).describe())
        .isEqualTo("timer=200ms (numbers within 5 %)");
  }

  @Test
  void stagesThatDoNothingToWhatAClientReadsAreLeftOut() {
    // the map's answer for a cork is the cork alone: Nagle under it, or a second cork, is no stage
    FlushTrigger cork = answer(TriggerKind.CORK, 65536.0, 200.0);
    assertThat(ModelExpectation.parse("nagle -> cork", 0.05).difference(cork)).isNull();
    assertThat(ModelExpectation.parse("cork -> nagle", 0.05).difference(cork)).isNull();
    assertThat(ModelExpectation.parse("cork -> cork", 0.05).difference(cork)).isNull();
    // Nagle is a socket option: wherever it stands, it is one stage, after the others
    assertThat(
            ModelExpectation.asAClientSeesIt(
                    ShaperRegistry.parseChain("nagle -> byte-threshold=4KiB -> nagle"))
                .stream()
                .map(s -> s.type().name()))
        .containsExactly("byte-threshold", "nagle");
    // a first-content hold after the same hold is one; after another preset it is not
    assertThat(
            ModelExpectation.asAClientSeesIt(
                ShaperRegistry.parseChain("first-content=any -> first-content=any")))
        .hasSize(1);
    assertThat(
            ModelExpectation.asAClientSeesIt(
                ShaperRegistry.parseChain("first-content=any -> first-content=chat")))
        .hasSize(2);
    // a threshold behind a larger one passes each write it gets; behind a smaller one it holds
    assertThat(
            ModelExpectation.parse("byte-threshold=7493B -> byte-threshold=3296B", 0.05)
                .difference(answer(TriggerKind.BYTE_THRESHOLD, 7491.0, null)))
        .isNull();
    assertThat(
            ModelExpectation.asAClientSeesIt(
                ShaperRegistry.parseChain("byte-threshold=1127B -> byte-threshold=5615B")))
        .hasSize(2);
    assertThat(
            ModelExpectation.asAClientSeesIt(
                ShaperRegistry.parseChain("byte-threshold=8KiB,split=true -> byte-threshold=4KiB")))
        .hasSize(1);
    assertThat(
            ModelExpectation.asAClientSeesIt(
                ShaperRegistry.parseChain("byte-threshold=8KiB -> byte-threshold=4KiB,split=true")))
        .as("a threshold that splits what it gets keeps what is over it")
        .hasSize(2);
    // two idle timeouts side by side are the shorter one (`idle-timeout=5s -> idle-timeout=2s`
    // was answered `idle-timeout=2004.7ms`: a chain bench, 2026-12-05), in either order; with a
    // hold between them each sees other silences, and both stay
    for (String chain :
        List.of("idle-timeout=5s -> idle-timeout=2s", "idle-timeout=2s -> idle-timeout=5s")) {
      List<ShaperRegistry.Spec> seen =
          ModelExpectation.asAClientSeesIt(ShaperRegistry.parseChain(chain));
      assertThat(seen).as(chain).hasSize(1);
      assertThat(seen.get(0).values().get(IdleTimeout.AFTER.key())).isEqualTo(2_000_000_000L);
    }
    assertThat(
            ModelExpectation.asAClientSeesIt(
                ShaperRegistry.parseChain("idle-timeout=5s -> timer=100ms -> idle-timeout=2s")))
        .hasSize(3);
    // a hold behind a hold at least as long counts from the same byte's arrival and lets every
    // release go at once (`timer=100ms -> timer=80ms` was answered `timer=100.1ms`, verified 5 of
    // 5 cells: flushlab map, 2026-12-06); behind a shorter one, or a clock, it holds
    assertThat(
            ModelExpectation.parse("timer=100ms -> timer=80ms", 0.05)
                .difference(answer(TriggerKind.TIMER, null, 100.1)))
        .isNull();
    assertThat(
            ModelExpectation.asAClientSeesIt(ShaperRegistry.parseChain("timer=50ms -> timer=50ms")))
        .hasSize(1);
    assertThat(
            ModelExpectation.asAClientSeesIt(ShaperRegistry.parseChain("timer=50ms -> timer=80ms")))
        .hasSize(2);
    assertThat(
            ModelExpectation.asAClientSeesIt(
                ShaperRegistry.parseChain("timer=178ms,periodic=true -> timer=55ms")))
        .hasSize(2);
    // the cork, like Nagle, is the client socket's for the whole response: written anywhere it is
    // one stage, last (`compress=gzip,flush=none -> cork` was answered `cork ->
    // compress=gzip,flush=none`, verified 7 of 7 cells: a browser chain bench, 2026-12-06)
    assertThat(
            ModelExpectation.asAClientSeesIt(
                    ShaperRegistry.parseChain("cork -> compress=gzip,flush=none -> nagle -> cork"))
                .stream()
                .map(ShaperRegistry.Spec::text))
        .containsExactly("compress=gzip,flush=none", "cork");
    // a first-content hold behind a compressor cannot read what it compressed: it holds the body
    // to its end, as first-content in front of a compressor flushed at the end does
    // (`compress=gzip,flush=next -> first-content=any` was answered so, verified 8 of 8 cells)
    assertThat(
            ModelExpectation.asAClientSeesIt(
                    ShaperRegistry.parseChain("compress=gzip,flush=next -> first-content=any"))
                .stream()
                .map(ShaperRegistry.Spec::text))
        .containsExactly("first-content=any", "compress,algo=gzip,flush=end");
    assertThat(
            ModelExpectation.parse("compress=br,flush=bytes,bytes=3KiB -> first-content=any", 0.05)
                .chainDifference("first-content=any -> compress=br,flush=end"))
        .isNull();
    assertThat(
            ModelExpectation.parse("compress=gzip,flush=next -> first-content=any", 0.05)
                .chainDifference("first-content=any -> compress=br,flush=end"))
        .isNotNull();
    // Nagle without a cork stays (after a timer as slow as the delayed ACK it is met by the
    // answer's alike model: ShaperModelTest)
    assertThat(
            ModelExpectation.parse("nagle -> byte-threshold=4KiB", 0.05)
                .difference(answer(TriggerKind.BYTE_THRESHOLD, 4096.0, null)))
        .contains("1 stage(s), not 2");
  }

  @Test
  void anAnswerWithoutAModelMeetsNoModel() {
    assertThat(
            ModelExpectation.parse("passthrough", 0.1)
                .difference(answer(TriggerKind.INCONCLUSIVE, null, null)))
        .startsWith("the answer (inconclusive) has no model: ");
    assertThat(
            ModelExpectation.parse("passthrough", 0.1)
                .difference(answer(TriggerKind.NONE, null, null)))
        .isNull();
  }

  @Test
  void neitherAKindNorAModelIsRefusedWithWhatIsValid() {
    assertThatThrownBy(() -> ModelExpectation.parse("byte-treshold=4KiB", 0.1))
        .hasMessageContaining("is neither an answer's kind (none, drain, byte-threshold")
        .hasMessageContaining("unknown shaper 'byte-treshold'");
  }

  /**
   * A compressor after one that compresses every event stream gets a body already encoded, or one
   * it would not encode either, and passes it on: two compressors in series are the first (a chain
   * bench, 2026-12-06, answered `compress=gzip,flush=each -> compress=gzip,flush=none` with the
   * first alone, verified). One that compresses for the other clients too is a stage.
   */
  @Test
  void aCompressorAfterACompressorPassesWhatItGets() {
    assertThat(
            ModelExpectation.asAClientSeesIt(
                    ShaperRegistry.parseChain(
                        "compress=gzip,flush=each -> compress=br,flush=none -> timer=100ms"))
                .stream()
                .map(ShaperRegistry.Spec::text)
                .toList())
        .containsExactly("compress=gzip,flush=each", "timer=100ms");
    assertThat(
            ModelExpectation.asAClientSeesIt(
                ShaperRegistry.parseChain(
                    "compress=gzip,flush=each -> compress=gzip,flush=none,others=decoded")))
        .hasSize(2);
    assertThat(
            ModelExpectation.asAClientSeesIt(
                ShaperRegistry.parseChain(
                    "compress=gzip,flush=each,min-length=1KiB -> compress=gzip,flush=none")))
        .as("a first that sends short bodies as they came")
        .hasSize(2);
  }
}
