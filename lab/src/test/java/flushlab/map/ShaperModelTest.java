package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.relay.shaper.ShaperRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every answer the map gives is written as shapers `--shape` takes, or says why it cannot be. */
class ShaperModelTest {

  static FlushTrigger answer(TriggerKind kind, Double bytes, Double timerMs) {
    return new FlushTrigger("x", kind, bytes, null, timerMs, null, kind.text(), List.of(), List.of());
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
    assertThat(chain(TriggerKind.PERIODIC_TIMER, null, 120.0)).isEqualTo("timer=120ms,periodic=true");
    assertThat(chain(TriggerKind.THRESHOLD_OR_TIMER, 1881.0, 158.4)).isEqualTo("threshold-or-timer,bytes=1881B,after=158.4ms");
    assertThat(chain(TriggerKind.CORK, 65536.0, 203.0)).isEqualTo("cork");
    assertThat(chain(TriggerKind.ONE_LATE, null, null)).isEqualTo("one-late");
    assertThat(chain(TriggerKind.FIRST_CONTENT, null, null)).isEqualTo("first-content=any");
    assertThat(chain(TriggerKind.WINDOW, 32768.0, 50.2)).isEqualTo("window=32768B,update=timer,after=50.2ms");
    assertThat(chain(TriggerKind.NAGLE, null, null)).isEqualTo("nagle");
  }

  /** A mechanism followed by the client socket's Nagle is a chain of two, which `--shape` runs as a relay of two stages. */
  @Test
  void aSecondMechanismIsTheChainsSecondStage() {
    FlushTrigger both = answer(TriggerKind.BYTE_THRESHOLD, 4079.6, null).followedBy(TriggerKind.NAGLE, "byte threshold; then Nagle");
    ShaperModel m = ShaperModel.of(both);
    assertThat(m.chain()).isEqualTo("byte-threshold=4080B -> nagle");
    assertThat(ShaperRegistry.parseChain(m.chain())).hasSize(2);
    assertThat(ModelExpectation.parse("byte-threshold=4KiB -> nagle", 0.1).difference(both)).isNull();
    assertThat(ModelExpectation.parse("byte-threshold=4KiB", 0.1).difference(both)).contains("2 stage(s), not 1");
  }

  @Test
  void whatNoBuiltInRelayDoesHasNoModelAndSaysWhy() {
    assertThat(ShaperModel.of(answer(TriggerKind.EVENT_COUNT, null, null)).note()).contains("not modelled");
    assertThat(ShaperModel.of(answer(TriggerKind.INCONCLUSIVE, null, null)).chain()).isNull();
  }

  /** Compression as the cause: the compressor, flushed as the accepting client's answer says; others stream untouched. */
  @Test
  void aCompressingTargetIsModelledAsTheCompressorItsAcceptingClientsSaw() {
    FlushTrigger others = answer(TriggerKind.NONE, null, null);
    assertThat(compressed(answer(TriggerKind.BYTE_THRESHOLD, 2047.7, null), others).chain()).isEqualTo("compress=gzip,flush=bytes,bytes=2048B");
    assertThat(compressed(answer(TriggerKind.ENCODER, null, null), others).chain()).isEqualTo("compress=gzip,flush=none");
    assertThat(compressed(answer(TriggerKind.NONE, null, null), others).chain()).isEqualTo("compress=gzip,flush=each");
    assertThat(compressed(answer(TriggerKind.TIMER, null, 100.0), others).chain()).isEqualTo("compress=gzip,flush=timer,after=100ms");
    // each event held until the next is written: the compressor flushed as the next write comes
    assertThat(compressed(answer(TriggerKind.ONE_LATE, null, null), others).chain()).isEqualTo("compress=gzip,flush=next");
    assertThat(compressed(answer(TriggerKind.DECODED_THRESHOLD, 3000.4, null), others).chain())
        .isEqualTo("compress=gzip,flush=input,bytes=3000B");
    ShaperModel count = compressed(answer(TriggerKind.EVENT_COUNT, null, null), others);
    assertThat(count.chain()).isNull();
    assertThat(count.note()).contains("event-count");
    // held for the other clients too: two stages, which this model does not compose yet
    ShaperModel both = compressed(answer(TriggerKind.BYTE_THRESHOLD, 2048.0, null), answer(TriggerKind.BYTE_THRESHOLD, 4096.0, null));
    assertThat(both.chain()).isNull();
    assertThat(both.note()).contains("byte-threshold");
  }

  static ShaperModel compressed(FlushTrigger accepting, FlushTrigger others) {
    CompressionFinding c = CompressionFinding.of("gzip", "browser", accepting, "bare", others, null);
    ShaperModel m = ShaperModel.of(others.withCompression(c));
    if (m.chain() != null) assertThat(ShaperRegistry.parseChain(m.chain())).isNotEmpty();
    return m;
  }

  /** A pass this host stalled through is no answer: beside one that streamed, it makes nothing "the cause". */
  @Test
  void anInconclusivePassDiffersFromNothing() {
    FlushTrigger streamed = answer(TriggerKind.NONE, null, null);
    FlushTrigger stalled = answer(TriggerKind.INCONCLUSIVE, null, null);
    assertThat(CompressionFinding.differ(streamed, stalled)).isFalse();
    assertThat(CompressionFinding.differ(stalled, streamed)).isFalse();
    assertThat(CompressionFinding.differ(streamed, answer(TriggerKind.DRAIN, null, null))).isTrue();
    CompressionFinding f = CompressionFinding.of("gzip", "browser", streamed, "bare", stalled, null);
    assertThat(f.cause()).isFalse();
    assertThat(f.verdict()).startsWith("compression (gzip) seen");
  }
}
