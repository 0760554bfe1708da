package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.relay.shaper.ShaperRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every answer the map gives is written as shapers `--shape` takes, or says why it cannot be. */
class ShaperModelTest {

  static FlushTrigger answer(TriggerKind kind, Double bytes, Double timerMs) {
    return new FlushTrigger(
        "x", kind, bytes, null, timerMs, null, kind.text(), List.of(), List.of());
  }

  static String chain(TriggerKind kind, Double bytes, Double timerMs) {
    ShaperModel m = ShaperModel.of(answer(kind, bytes, timerMs));
    assertThat(m.chain()).as(kind + ": " + m.note()).isNotNull();
    assertThat(ShaperRegistry.parseChain(m.chain())).as(m.chain()).isNotEmpty();
    return m.chain();
  }

  @Test
  void eachModelledKindIsAChainTheRelayRuns() {
    assertThat(chain(TriggerKind.NONE, null, null)).isEqualTo("passthrough");
    assertThat(chain(TriggerKind.DRAIN, null, null)).isEqualTo("drain-and-flush");
    assertThat(chain(TriggerKind.BYTE_THRESHOLD, 4095.6, null)).isEqualTo("byte-threshold=4096B");
    assertThat(chain(TriggerKind.TIMER, null, 240.34)).isEqualTo("timer=240.3ms");
    assertThat(chain(TriggerKind.PERIODIC_TIMER, null, 120.0))
        .isEqualTo("timer=120ms,periodic=true");
    assertThat(chain(TriggerKind.THRESHOLD_OR_TIMER, 1881.0, 158.4))
        .isEqualTo("threshold-or-timer,bytes=1881B,after=158.4ms");
    assertThat(chain(TriggerKind.CORK, 65536.0, 203.0)).isEqualTo("cork");
    assertThat(chain(TriggerKind.ONE_LATE, null, null)).isEqualTo("one-late");
    assertThat(chain(TriggerKind.FIRST_CONTENT, null, null)).isEqualTo("first-content=any");
    assertThat(chain(TriggerKind.WINDOW, 32768.0, 50.2))
        .isEqualTo("window=32768B,update=timer,after=50.2ms");
    assertThat(chain(TriggerKind.NAGLE, null, null)).isEqualTo("nagle");
  }

  /**
   * A mechanism followed by the client socket's Nagle is a chain of two, which `--shape` runs as a
   * relay of two stages.
   */
  @Test
  void aSecondMechanismIsTheChainsSecondStage() {
    FlushTrigger both =
        answer(TriggerKind.BYTE_THRESHOLD, 4079.6, null)
            .followedBy(TriggerKind.NAGLE, "byte threshold; then Nagle");
    ShaperModel m = ShaperModel.of(both);
    assertThat(m.chain()).isEqualTo("byte-threshold=4080B -> nagle");
    // Nagle is the client socket's option: the relay written with it first is the same relay
    assertThat(m.alike()).containsExactly("nagle -> byte-threshold=4080B");
    assertThat(ModelExpectation.parse("nagle -> byte-threshold=4KiB", 0.1).difference(both))
        .isNull();
    assertThat(ShaperRegistry.parseChain(m.chain())).hasSize(2);
    assertThat(ModelExpectation.parse("byte-threshold=4KiB -> nagle", 0.1).difference(both))
        .isNull();
    assertThat(ModelExpectation.parse("byte-threshold=4KiB", 0.1).difference(both))
        .contains("2 stage(s), not 1");
  }

  /**
   * A timer writes no oftener than the client's delayed ACK, so Nagle after it never holds a write:
   * the model with Nagle is named alike, and meets an expectation that names it; a timer faster
   * than the delayed ACK is not.
   */
  @Test
  void nagleAfterATimerAsSlowAsTheDelayedAckIsNamedAlike() {
    FlushTrigger clock = answer(TriggerKind.PERIODIC_TIMER, null, 83.3);
    assertThat(ShaperModel.of(clock).alike())
        .containsExactly("timer=83.3ms,periodic=true -> nagle");
    assertThat(ModelExpectation.parse("nagle -> timer=83ms,periodic=true", 0.05).difference(clock))
        .isNull();
    assertThat(ShaperModel.of(answer(TriggerKind.TIMER, null, 40.2)).alike())
        .containsExactly("timer=40.2ms -> nagle");
    assertThat(ShaperModel.of(answer(TriggerKind.TIMER, null, 25.0)).alike()).isEmpty();
    assertThat(ShaperModel.of(answer(TriggerKind.BYTE_THRESHOLD, 4096.0, null)).alike()).isEmpty();
  }

  @Test
  void whatNoBuiltInRelayDoesHasNoModelAndSaysWhy() {
    assertThat(ShaperModel.of(answer(TriggerKind.EVENT_COUNT, null, null)).note())
        .contains("not modelled");
    assertThat(ShaperModel.of(answer(TriggerKind.INCONCLUSIVE, null, null)).chain()).isNull();
  }

  /**
   * Compression as the cause: the compressor, flushed as the accepting client's answer says; others
   * stream untouched.
   */
  @Test
  void aCompressingTargetIsModelledAsTheCompressorItsAcceptingClientsSaw() {
    FlushTrigger others = answer(TriggerKind.NONE, null, null);
    assertThat(compressed(answer(TriggerKind.BYTE_THRESHOLD, 2047.7, null), others).chain())
        .isEqualTo("compress=gzip,flush=bytes,bytes=2048B");
    assertThat(compressed(answer(TriggerKind.ENCODER, null, null), others).chain())
        .isEqualTo("compress=gzip,flush=none");
    assertThat(compressed(answer(TriggerKind.NONE, null, null), others).chain())
        .isEqualTo("compress=gzip,flush=each");
    assertThat(compressed(answer(TriggerKind.TIMER, null, 100.0), others).chain())
        .isEqualTo("compress=gzip,flush=timer,after=100ms");
    // each event held until the next is written: the compressor flushed as the next write comes
    assertThat(compressed(answer(TriggerKind.ONE_LATE, null, null), others).chain())
        .isEqualTo("compress=gzip,flush=next");
    // the whole body at its end for accepting clients only (Traffic Server's compress plugin):
    // compressed once it is all there
    assertThat(compressed(answer(TriggerKind.DRAIN, null, null), others).chain())
        .isEqualTo("compress=gzip,flush=end");
    assertThat(compressed(answer(TriggerKind.DECODED_THRESHOLD, 3000.4, null), others).chain())
        .isEqualTo("compress=gzip,flush=input,bytes=3000B");
    // what only a compressor does, seen by both kinds of client alike: the same encoder, decoded on
    // delivery for the others
    assertThat(
            compressed(
                    answer(TriggerKind.ENCODER, null, null),
                    answer(TriggerKind.ENCODER, null, null))
                .chain())
        .isEqualTo("compress=gzip,flush=none,others=decoded");
    assertThat(
            compressed(
                    answer(TriggerKind.DECODED_THRESHOLD, 3000.4, null),
                    answer(TriggerKind.DECODED_THRESHOLD, 2990.0, null))
                .chain())
        .isEqualTo("compress=gzip,flush=input,bytes=3000B,others=decoded");
    assertThat(
            compressed(
                    answer(TriggerKind.DECODED_THRESHOLD, 3000.4, null),
                    answer(TriggerKind.DECODED_THRESHOLD, 1500.0, null))
                .chain())
        .as("two different counts are not one encoder")
        .isNull();
    ShaperModel count = compressed(answer(TriggerKind.EVENT_COUNT, null, null), others);
    assertThat(count.chain()).isNull();
    assertThat(count.note()).contains("event-count");
  }

  /**
   * Held for clients that do not accept the coding too: a holding stage and a compressor. Each
   * chain here was mapped blind as a browser with `--verify` and answered as written, replayed 6 of
   * 6 cells (2026-12-04, the commit that added these models).
   */
  @Test
  void aTargetThatHoldsForBothClientsIsAHoldingStageAndACompressor() {
    // the threshold counted the compressor's output: the compressor first, flushing every write
    ShaperModel after =
        compressed(
            answer(TriggerKind.BYTE_THRESHOLD, 1484.0, null),
            answer(TriggerKind.BYTE_THRESHOLD, 1485.0, null));
    assertThat(after.chain()).isEqualTo("compress=gzip,flush=each -> byte-threshold=1485B");
    // a compressor flushing each write when the next comes only delays a release one interval,
    // which a threshold of dozens of compressed events hides: named alike; a threshold of a few
    // events shows it
    assertThat(after.alike()).containsExactly("compress=gzip,flush=next -> byte-threshold=1485B");
    assertThat(
            compressed(
                    answer(TriggerKind.BYTE_THRESHOLD, 300.0, null),
                    answer(TriggerKind.BYTE_THRESHOLD, 301.0, null))
                .alike())
        .isEmpty();
    // counted before compression: the threshold first
    ShaperModel before =
        compressed(
            answer(TriggerKind.DECODED_THRESHOLD, 2730.0, null),
            answer(TriggerKind.BYTE_THRESHOLD, 3003.0, null));
    assertThat(before.chain()).isEqualTo("byte-threshold=3003B -> compress=gzip,flush=each");
    // compared as event bytes: 2220 B decoded against 2475 B on the wire (2250 B of events) is one
    // threshold, though the
    // wire count is 11 % more (chunk framing, 6 B an event of 60)
    FlushTrigger wire =
        new FlushTrigger(
            "x",
            TriggerKind.BYTE_THRESHOLD,
            2475.0,
            2250.0,
            null,
            null,
            "byte threshold",
            List.of(),
            List.of());
    assertThat(compressed(answer(TriggerKind.DECODED_THRESHOLD, 2220.0, null), wire).chain())
        .isEqualTo("byte-threshold=2475B -> compress=gzip,flush=each");
    // a stage that counts no bytes does the same on either side of a compressor flushing every
    // write: both named
    ShaperModel timer =
        compressed(answer(TriggerKind.TIMER, null, 150.6), answer(TriggerKind.TIMER, null, 150.3));
    assertThat(timer.chain()).isEqualTo("compress=gzip,flush=each -> timer=150.3ms");
    assertThat(timer.alike()).containsExactly("timer=150.3ms -> compress=gzip,flush=each");
    ShaperModel oneLate =
        compressed(
            answer(TriggerKind.ONE_LATE, null, null), answer(TriggerKind.ONE_LATE, null, null));
    assertThat(oneLate.alike()).containsExactly("one-late -> compress=gzip,flush=each");
    // a cork on a compressed stream too small to fill a segment shows only its ceiling, a timer
    ShaperModel cork =
        compressed(
            answer(TriggerKind.TIMER, null, 207.7), answer(TriggerKind.CORK, 62573.0, 210.3));
    assertThat(cork.chain()).isEqualTo("compress=gzip,flush=each -> cork");
    ShaperModel corkThenTimer =
        compressed(
            answer(TriggerKind.TIMER, null, 100.0), answer(TriggerKind.CORK, 62573.0, 210.3));
    assertThat(corkThenTimer.chain()).isEqualTo("cork -> compress=gzip,flush=timer,after=100ms");
    // the cork is the client socket's for the whole response: the other order is alike
    assertThat(corkThenTimer.alike())
        .containsExactly("compress=gzip,flush=timer,after=100ms -> cork");
    // a first-content hold that held the compressed body to its end: behind a compressor it could
    // not read the events, so that order is named too
    ShaperModel firstContent =
        compressed(
            answer(TriggerKind.DRAIN, null, null), answer(TriggerKind.FIRST_CONTENT, null, null));
    assertThat(firstContent.chain()).isEqualTo("first-content=any -> compress=gzip,flush=end");
    assertThat(firstContent.alike())
        .containsExactly("compress=gzip,flush=each -> first-content=any");
    // different mechanisms: the holding stage, then the compressor as the accepting client saw it
    assertThat(
            compressed(
                    answer(TriggerKind.ENCODER, null, null), answer(TriggerKind.TIMER, null, 120.3))
                .chain())
        .isEqualTo("timer=120.3ms -> compress=gzip,flush=none");
    assertThat(
            compressed(
                    answer(TriggerKind.BYTE_THRESHOLD, 2048.0, null),
                    answer(TriggerKind.BYTE_THRESHOLD, 4096.0, null))
                .chain())
        .isEqualTo("byte-threshold=4096B -> compress=gzip,flush=bytes,bytes=2048B");
    // Nagle stays the last stage: it is the client socket's
    FlushTrigger bufferThenNagle =
        answer(TriggerKind.BYTE_THRESHOLD, 4080.0, null)
            .followedBy(TriggerKind.NAGLE, "then Nagle");
    assertThat(compressed(answer(TriggerKind.ENCODER, null, null), bufferThenNagle).chain())
        .isEqualTo("byte-threshold=4080B -> compress=gzip,flush=none -> nagle");
    // a holding stage with no built-in relay leaves the whole without a model, and says which
    ShaperModel count =
        compressed(
            answer(TriggerKind.TIMER, null, 100.0), answer(TriggerKind.EVENT_COUNT, null, null));
    assertThat(count.chain()).isNull();
    assertThat(count.note()).contains("event count");
  }

  /**
   * `--expect` is met by a model the answer cannot be told apart from, and says so when neither is
   * it.
   */
  @Test
  void anExpectationIsMetByAModelThatReplaysAlike() {
    CompressionFinding c =
        CompressionFinding.of(
            "gzip",
            "browser",
            answer(TriggerKind.TIMER, null, 150.6),
            "bare",
            answer(TriggerKind.TIMER, null, 150.3),
            null);
    FlushTrigger t = answer(TriggerKind.TIMER, null, 150.3).withCompression(c);
    assertThat(
            ModelExpectation.parse("timer=150ms -> compress=gzip,flush=each", 0.05).difference(t))
        .isNull();
    assertThat(
            ModelExpectation.parse("compress=gzip,flush=each -> timer=150ms", 0.05).difference(t))
        .isNull();
    assertThat(
            ModelExpectation.parse("timer=200ms -> compress=gzip,flush=each", 0.05).difference(t))
        .contains("nor is timer=150.3ms -> compress=gzip,flush=each");
  }

  /**
   * First-content seen alike by both kinds of client stands in front of the compressor: behind it,
   * it cannot read the compressed events and holds the body to its end (`first-content=any ->
   * compress=gzip,flush=each` was modelled with the compressor first and refused for holding a
   * stream of 200 frames to its end: a chain bench, seed 20261226).
   */
  @Test
  void firstContentSeenByBothClientsStandsInFrontOfTheCompressor() {
    FlushTrigger first = answer(TriggerKind.FIRST_CONTENT, null, null);
    ShaperModel m = compressed(first, first);
    assertThat(m.chain()).isEqualTo("first-content=any -> compress=gzip,flush=each");
    assertThat(m.alike()).as("the other order holds the body to its end").isEmpty();
  }

  static ShaperModel compressed(FlushTrigger accepting, FlushTrigger others) {
    CompressionFinding c =
        CompressionFinding.of("gzip", "browser", accepting, "bare", others, null);
    ShaperModel m = ShaperModel.of(others.withCompression(c));
    if (m.chain() != null) assertThat(ShaperRegistry.parseChain(m.chain())).isNotEmpty();
    return m;
  }

  /**
   * A pass this host stalled through is no answer: beside one that streamed, it makes nothing "the
   * cause".
   */
  @Test
  void anInconclusivePassDiffersFromNothing() {
    FlushTrigger streamed = answer(TriggerKind.NONE, null, null);
    FlushTrigger stalled = answer(TriggerKind.INCONCLUSIVE, null, null);
    assertThat(CompressionFinding.differ(streamed, stalled)).isFalse();
    assertThat(CompressionFinding.differ(stalled, streamed)).isFalse();
    assertThat(CompressionFinding.differ(streamed, answer(TriggerKind.DRAIN, null, null))).isTrue();
    CompressionFinding f =
        CompressionFinding.of("gzip", "browser", streamed, "bare", stalled, null);
    assertThat(f.cause()).isFalse();
    assertThat(f.verdict()).startsWith("compression (gzip) seen");
  }
}
