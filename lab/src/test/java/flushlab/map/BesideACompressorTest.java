package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.relay.shaper.ShaperRegistry;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A target that compressed for one kind of client and, for the other, did what no one mechanism
 * explains (nginx with gzip on: an encoder for a browser, Nagle for curl): a model of two stages
 * fitted to the plain client's cells is replayed on every cell, both clients', so it is tried
 * joined with the compressor the other client saw. Alone, `nagle` left the browser's cells unheld
 * and was refused (`map --proxy nginx --config scenarios/proxies/nginx-gzip.conf`, 2026-12-04).
 */
class BesideACompressorTest {
  static FlushTrigger answer(TriggerKind kind) {
    return new FlushTrigger("x", kind, null, null, null, null, kind.text(), List.of(), List.of());
  }

  /** A hold timer or a clock of {@code ms}, as a pass would answer it. */
  static FlushTrigger timed(TriggerKind kind, double ms) {
    return new FlushTrigger("x", kind, null, null, ms, null, kind.text(), List.of(), List.of());
  }

  /** A byte threshold of {@code bytes}, as a pass would answer it. */
  static FlushTrigger threshold(double bytes) {
    return new FlushTrigger(
        "x", TriggerKind.BYTE_THRESHOLD, bytes, null, null, null, "", List.of(), List.of());
  }

  /**
   * {@code plain}, what a client that does not accept gzip saw, beside {@code accepting}, what a
   * browser that does saw.
   */
  static FlushTrigger compressedBeside(FlushTrigger accepting, FlushTrigger plain) {
    return plain.withCompression(
        CompressionFinding.of("gzip", "browser", accepting, "bare", plain, null));
  }

  static TwoStageCandidate nagleAlone() {
    FlushTrigger nagle = answer(TriggerKind.NAGLE);
    return new TwoStageCandidate(ShaperModel.of(nagle).chain(), nagle);
  }

  @Test
  void aCandidateForThePlainClientIsJoinedWithTheCompressorTheOtherClientSaw() {
    FlushTrigger plain = answer(TriggerKind.INCONCLUSIVE);
    FlushTrigger encoder = answer(TriggerKind.ENCODER);
    // the plain client asked first (the default client sends no Accept-Encoding): the candidate is
    // the top-level answer
    FlushTrigger mapped =
        plain.withCompression(
            CompressionFinding.of(
                "gzip", "browser", encoder, "bare", plain, "held only compressed"));
    assertThat(ShaperModel.of(mapped).chain())
        .as("no model while the plain pass is inconclusive")
        .isNull();

    List<TwoStageCandidate> joined =
        BesideACompressor.joined(List.of(nagleAlone()), mapped, true, "held only compressed");
    assertThat(joined)
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.chain()).isEqualTo("nagle -> compress=gzip,flush=none");
              assertThat(ShaperRegistry.parseChain(c.chain())).hasSize(2);
              assertThat(c.answer().kind()).isEqualTo(TriggerKind.NAGLE);
              assertThat(c.answer().compression().others().kind()).isEqualTo(TriggerKind.NAGLE);
              assertThat(c.answer().compression().accepting().kind())
                  .isEqualTo(TriggerKind.ENCODER);
              assertThat(c.answer().verdict())
                  .contains("compression is the cause")
                  .contains("clients that do not: nagle");
              assertThat(ShaperModel.of(c.answer()).chain())
                  .as("the answer given once verified has the model replayed")
                  .isEqualTo(c.chain());
              assertThat(c.socketStage())
                  .as("Nagle for the plain client: the replay's socket-stage rule")
                  .isTrue();
            });
  }

  @Test
  void asTheAcceptingClientFirstTheAnswerStaysItsAndOnlyThePlainPassChanges() {
    FlushTrigger plain = answer(TriggerKind.INCONCLUSIVE);
    FlushTrigger encoder = answer(TriggerKind.ENCODER);
    FlushTrigger mapped =
        encoder.withCompression(
            CompressionFinding.of("gzip", "browser", encoder, "bare", plain, null));
    List<TwoStageCandidate> joined =
        BesideACompressor.joined(List.of(nagleAlone()), mapped, false, null);
    assertThat(joined)
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.answer().kind()).isEqualTo(TriggerKind.ENCODER);
              assertThat(c.chain()).isEqualTo("nagle -> compress=gzip,flush=none");
            });
  }

  /**
   * A compressor the lab cannot write (an unknown coding) leaves no model to replay: the candidate
   * is dropped, not replayed alone.
   */
  @Test
  void aCandidateNoBuiltInRelayJoinsIsDropped() {
    FlushTrigger plain = answer(TriggerKind.INCONCLUSIVE);
    FlushTrigger mapped =
        plain.withCompression(
            CompressionFinding.of(
                "compress", "browser", answer(TriggerKind.ENCODER), "bare", plain, "x"));
    assertThat(BesideACompressor.joined(List.of(nagleAlone()), mapped, true, "x")).isEmpty();
  }

  /**
   * Varnish with do_gzip: an encoder for a browser, and for curl holds no single mechanism explains
   * (`map --proxy varnish --config scenarios/proxies/varnish-gzip.vcl`, 2026-12-04): the other
   * candidate is the same encoder, decoded on delivery.
   */
  @Test
  void anEncoderSeenByTheAcceptingClientIsAlsoTriedDecodedOnDeliveryForThePlainOne() {
    FlushTrigger plain = answer(TriggerKind.INCONCLUSIVE);
    FlushTrigger mapped = compressedBeside(answer(TriggerKind.ENCODER), plain);
    TwoStageCandidate c = BesideACompressor.decodedOnDelivery(mapped, plain, true, null);
    assertThat(c).isNotNull();
    assertThat(c.chain()).isEqualTo("compress=gzip,flush=none,others=decoded");
    assertThat(ShaperRegistry.parseChain(c.chain())).hasSize(1);
    assertThat(c.answer().compression().others().verdict())
        .startsWith("the stream as clients that accept gzip get it, decoded on delivery");
    assertThat(c.socketStage()).isFalse();

    FlushTrigger streamed = compressedBeside(answer(TriggerKind.NONE), plain);
    assertThat(BesideACompressor.decodedOnDelivery(streamed, plain, true, null))
        .as("streamed for a browser: nothing only a compressor does")
        .isNull();
  }

  /**
   * A plain pass one mechanism explained (a byte threshold) is not offered decoded on delivery: a
   * threshold before a compressor flushing each write replays exactly as a compressor flushing
   * every N bytes of input decoded for that client, and once took the threshold's place.
   */
  @Test
  void aPlainPassOneMechanismExplainedIsNotOfferedDecodedOnDelivery() {
    FlushTrigger threshold =
        new FlushTrigger(
            "x",
            TriggerKind.BYTE_THRESHOLD,
            2541.0,
            2310.0,
            null,
            null,
            "byte threshold",
            List.of(),
            List.of());
    FlushTrigger decoded =
        new FlushTrigger(
            "x",
            TriggerKind.DECODED_THRESHOLD,
            2310.0,
            2310.0,
            null,
            null,
            "decoded threshold",
            List.of(),
            List.of());
    FlushTrigger mapped =
        decoded.withCompression(
            CompressionFinding.of("gzip", "browser", decoded, "bare", threshold, null));
    assertThat(BesideACompressor.decodedOnDelivery(mapped, threshold, false, null)).isNull();
  }

  /**
   * `timer=113ms,periodic=true -> compress=gzip,flush=next` as a browser: the accepting pass waited
   * a release more than the plain one and no one mechanism explained it; the plain pass named the
   * clock. The candidate is the clock, then a compressor flushing one write late: the accepting
   * pass's answer is the clock followed by one-late, the top level as the map asked first, and
   * compression is the cause. Where the plain pass is not a holding stage, or the accepting one was
   * explained, there is none.
   */
  /**
   * `one-late -> compress=gzip,flush=next` (a chain bench, 2026-12-05): the plain pass read
   * one-late, the accepting one, two writes late, a threshold-or-timer, which no compressor of the
   * lab's does alone, and the answer had no model. One-late then a compressor flushing one write
   * late is now tried, as beside a hold; an accepting pass read as a mechanism a compressor does
   * (one-late itself) is not.
   */
  @Test
  void oneLateBesideAnAcceptingPassNoCompressorExplainsIsTriedWithACompressorFlushingOneLate() {
    FlushTrigger oneLate = answer(TriggerKind.ONE_LATE);
    FlushTrigger both =
        new FlushTrigger(
            "x",
            TriggerKind.THRESHOLD_OR_TIMER,
            16.0,
            null,
            50.0,
            null,
            "threshold-or-timer",
            List.of(),
            List.of());
    TwoStageCandidate c =
        BesideACompressor.flushingOneLate(compressedBeside(both, oneLate), true, null);
    assertThat(c).isNotNull();
    assertThat(c.chain()).isEqualTo("one-late -> compress=gzip,flush=next");
    assertThat(ShaperModel.of(c.answer()).chain()).isEqualTo(c.chain());
    assertThat(BesideACompressor.flushingOneLate(compressedBeside(oneLate, oneLate), true, null))
        .as("the accepting pass read as a mechanism a compressor does")
        .isNull();
    FlushTrigger threshold = threshold(1419);
    assertThat(BesideACompressor.flushingOneLate(compressedBeside(both, threshold), true, null))
        .as("beside a threshold, a threshold-or-timer is a compressor on a timer's reading")
        .isNull();
  }

  /**
   * Beside the cork, an accepting pass read as a hold of the ceiling and what the compressor added
   * (or as nothing one mechanism explains) gets the compressor flushing one write late too: a short
   * compressor timer replays alike there, and was given alone (`cork -> compress=gzip,flush=next`
   * as `compress=gzip,flush=timer,after=20ms -> cork`: a browser chain bench, seed 20261227).
   */
  @Test
  void besideTheCorkACompressorFlushingOneLateIsTriedToo() {
    FlushTrigger cork =
        new FlushTrigger(
            "x", TriggerKind.CORK, 63612.0, null, 207.8, null, "cork", List.of(), List.of());
    for (FlushTrigger accepting :
        List.of(timed(TriggerKind.TIMER, 233), answer(TriggerKind.INCONCLUSIVE))) {
      TwoStageCandidate c =
          BesideACompressor.flushingOneLate(compressedBeside(accepting, cork), true, null);
      assertThat(c).as("beside %s", accepting.kind()).isNotNull();
      assertThat(c.chain()).isEqualTo("cork -> compress=gzip,flush=next");
    }
    assertThat(
            BesideACompressor.flushingOneLate(
                compressedBeside(answer(TriggerKind.ONE_LATE), cork), true, null))
        .as("an accepting pass read as a mechanism a compressor does")
        .isNull();
  }

  @Test
  void aPlainHoldingStageWithAnUnexplainedCompressedPassIsTriedWithACompressorFlushingOneLate() {
    FlushTrigger clock = timed(TriggerKind.PERIODIC_TIMER, 113.4);
    FlushTrigger unexplained = answer(TriggerKind.INCONCLUSIVE);
    FlushTrigger mapped =
        unexplained.withCompression(
            CompressionFinding.of("gzip", "browser", unexplained, "bare", clock, null));
    TwoStageCandidate c = BesideACompressor.flushingOneLate(mapped, false, null);
    assertThat(c.chain()).isEqualTo("timer=113.4ms,periodic=true -> compress=gzip,flush=next");
    assertThat(ShaperRegistry.parseChain(c.chain())).hasSize(2);
    assertThat(c.answer().kind()).as("the browser's pass, asked first").isEqualTo(clock.kind());
    assertThat(c.answer().then()).isEqualTo(TriggerKind.ONE_LATE);
    assertThat(c.answer().compression().others().then()).isNull();
    assertThat(c.answer().compression().verdict()).startsWith("compression is the cause");
    assertThat(ShaperModel.of(c.answer()).chain()).isEqualTo(c.chain());
    FlushTrigger plainFirst = compressedBeside(unexplained, clock);
    assertThat(BesideACompressor.flushingOneLate(plainFirst, true, null).answer().then())
        .as("the plain pass first: the top level is the clock alone")
        .isNull();

    FlushTrigger nagle = answer(TriggerKind.NAGLE);
    assertThat(
            BesideACompressor.flushingOneLate(
                unexplained.withCompression(
                    CompressionFinding.of("gzip", "browser", unexplained, "bare", nagle, null)),
                false,
                null))
        .as("Nagle is the socket's, not a stage a compressor follows")
        .isNull();
    assertThat(BesideACompressor.flushingOneLate(compressedBeside(clock, clock), true, null))
        .as("the accepting pass explained")
        .isNull();
  }

  /**
   * `compress=gzip,flush=timer,after=74ms -> timer=40ms`: the plain pass a 40.1 ms hold, the
   * accepting one waits of 114.2 ms (a map, 2026-12-05). The candidates are a compressor flushing
   * 74.2 ms after its first byte (the median beyond the hold), before the hold and after it, each
   * modelled as its chain; none where the plain pass is neither a hold nor a clock.
   */
  @Test
  void aPlainHoldWithAnUnexplainedCompressedPassIsTriedBesideACompressorOnATimer() {
    FlushTrigger hold = timed(TriggerKind.TIMER, 40.1);
    FlushTrigger unexplained = answer(TriggerKind.INCONCLUSIVE);
    FlushTrigger mapped = compressedBeside(unexplained, hold);
    List<CellEvidence> accepting =
        List.of(
            TriggerInferenceTest.held(66, 2, 600, 38, 114.2, 76.0),
            TriggerInferenceTest.held(66, 50, 25, 2, 114.3, 100.0),
            TriggerInferenceTest.held(1031, 20, 60, 4, 114.5, 80.0));
    List<TwoStageCandidate> found =
        BesideACompressor.compressorOnATimer(mapped, true, accepting, List.of());
    assertThat(found)
        .extracting(TwoStageCandidate::chain)
        .containsExactly(
            "compress=gzip,flush=timer,after=74.2ms -> timer=40.1ms",
            "timer=40.1ms -> compress=gzip,flush=timer,after=74.2ms");
    for (TwoStageCandidate c : found) {
      assertThat(ShaperRegistry.parseChain(c.chain())).hasSize(2);
      assertThat(c.answer().kind())
          .as("the plain pass first: its hold")
          .isEqualTo(TriggerKind.TIMER);
      assertThat(ShaperModel.of(c.answer()).chain()).isEqualTo(c.chain());
      assertThat(c.answer().compression().verdict()).startsWith("compression is the cause");
    }
    FlushTrigger threshold = answer(TriggerKind.BYTE_THRESHOLD);
    assertThat(
            BesideACompressor.compressorOnATimer(
                compressedBeside(unexplained, threshold), true, accepting, List.of()))
        .as("a plain pass that is neither a hold nor a clock")
        .isEmpty();
  }

  /**
   * `one-late -> compress=gzip,flush=timer,after=49ms`: the plain pass one-late, the accepting one
   * each release one interval and the compressor's timer late (`flushlab map --shape one-late
   * --shape 'compress=gzip,flush=timer,after=49ms'`, 2026-12-07: its cells below; answered with no
   * candidate of this kind before, then `one-late -> compress=gzip,flush=timer,after=49.3ms`,
   * verified 10 of 10). One-late in front of the compressor is a candidate, its timer within 5 %.
   */
  @Test
  void oneLateWithAnUnexplainedCompressedPassIsTriedInFrontOfACompressorOnATimer() {
    FlushTrigger unexplained = answer(TriggerKind.INCONCLUSIVE);
    FlushTrigger mapped = compressedBeside(unexplained, answer(TriggerKind.ONE_LATE));
    List<CellEvidence> accepting =
        EvidenceLine.parseAll(
            "frame_size=60B interval=2ms frames=600: 25.00 frames/read; 22.0 releases per stream of 25 frames (p10 25, p90 25); the oldest frame waited 51.3 ms (p10 51.2, p90 51.3); 50.0 ms between releases (p10 49.9, p90 50.1); 17 B per frame on the wire, 435 B per release (p10 423, p90 444); the first frame waited 51.4 ms (gzip: compressed bytes as received)",
            "frame_size=4096B interval=2ms frames=600: 25.00 frames/read; 22.0 releases per stream of 25 frames (p10 25, p90 25); the oldest frame waited 51.2 ms (p10 51.2, p90 51.3); 50.0 ms between releases (p10 49.9, p90 50.1); 32 B per frame on the wire, 805 B per release (p10 802, p90 808); the first frame waited 49.4 ms (gzip: compressed bytes as received)",
            "frame_size=60B interval=50ms frames=25: 1.04 frames/read; 21.0 releases per stream of 1 frames (p10 1, p90 1); the oldest frame waited 99.3 ms (p10 99.2, p90 99.5); 50.0 ms between releases (p10 49.9, p90 50.1); 33 B per frame on the wire, 39 B per release (p10 37, p90 40); the first frame waited 99.4 ms (gzip: compressed bytes as received)",
            "frame_size=1024B interval=20ms frames=60: 3.00 frames/read; 18.0 releases per stream of 3 frames (p10 3, p90 3); the oldest frame waited 69.6 ms (p10 69.5, p90 69.8); 60.0 ms between releases (p10 59.9, p90 60.3); 35 B per frame on the wire, 110 B per release (p10 106, p90 114); the first frame waited 69.6 ms (gzip: compressed bytes as received)");
    List<TwoStageCandidate> found =
        BesideACompressor.compressorOnATimer(mapped, true, accepting, List.of());
    TwoStageCandidate inFront =
        found.stream()
            .filter(c -> c.chain().startsWith("one-late -> compress=gzip,flush=timer,after="))
            .findFirst()
            .orElse(null);
    assertThat(inFront).as("%s", found.stream().map(TwoStageCandidate::chain).toList()).isNotNull();
    double after = Double.parseDouble(inFront.chain().replaceAll(".*after=([0-9.]+)ms.*", "$1"));
    assertThat(after).isBetween(49 * 0.95, 49 * 1.05);
    assertThat(ShaperModel.of(inFront.answer()).chain()).isEqualTo(inFront.chain());
    assertThat(inFront.answer().compression().verdict()).contains("after one-late");
  }

  /**
   * Beside a clock the compressor's timer is simulated: the accepting cells of
   * `compress=gzip,flush=timer,after=158ms -> timer=200ms,periodic=true` give that order within 5
   * %, first, and the other order after it, for the replay to choose.
   */
  @Test
  void aPlainClockWithAnUnexplainedCompressedPassIsTriedBesideACompressorOnASimulatedTimer() {
    FlushTrigger clock = timed(TriggerKind.PERIODIC_TIMER, 200.3);
    FlushTrigger unexplained = answer(TriggerKind.INCONCLUSIVE);
    List<TwoStageCandidate> found =
        BesideACompressor.compressorOnATimer(
            compressedBeside(unexplained, clock),
            true,
            HoldingPairFitTest.compressorBeforeAClock(),
            List.of());
    assertThat(found).isNotEmpty();
    Matcher m =
        Pattern.compile(
                "compress=gzip,flush=timer,after=([0-9.]+)ms -> timer=200.3ms,periodic=true")
            .matcher(found.get(0).chain());
    assertThat(m.matches()).as(found.get(0).chain()).isTrue();
    assertThat(Double.parseDouble(m.group(1))).isBetween(158 * 0.95, 158 * 1.05);
    for (TwoStageCandidate c : found) {
      assertThat(ShaperRegistry.parseChain(c.chain())).hasSize(2);
      assertThat(ShaperModel.of(c.answer()).chain()).isEqualTo(c.chain());
    }
  }

  /**
   * `compress=gzip,flush=timer,after=59ms -> timer=150ms,periodic=true` as a browser measured it: a
   * map of 2026-12-06 read its accepting pass as a hold of 149.9 ms (its cells had waited about the
   * clock's period) beside the plain client's clock of 150.3; the compressor on a timer is tried
   * beside the clock all the same, the hidden order among the candidates, for the replay to decide
   * (the cells: a later map of the same chain, {@link
   * CompressorFlushFitTest#timerInFrontOfAClock}).
   */
  @Test
  void anAcceptingPassReadAsAHoldBesideAClockIsTriedWithACompressorOnATimer() {
    FlushTrigger clock = timed(TriggerKind.PERIODIC_TIMER, 150.3);
    List<CellEvidence> cells = CompressorFlushFitTest.timerInFrontOfAClock();
    List<TwoStageCandidate> found =
        BesideACompressor.compressorOnATimer(
            compressedBeside(timed(TriggerKind.TIMER, 149.9), clock), true, cells, List.of());
    assertThat(found)
        .extracting(TwoStageCandidate::chain)
        .anyMatch(
            c ->
                c.matches(
                    "compress=gzip,flush=timer,after=[0-9.]+ms -> timer=150.3ms,periodic=true"));
    assertThat(
            BesideACompressor.compressorOnATimer(
                compressedBeside(timed(TriggerKind.TIMER, 149.9), timed(TriggerKind.TIMER, 150)),
                true,
                cells,
                List.of()))
        .as("a hold for both clients is the hold's")
        .isEmpty();
  }

  /**
   * `timer=188ms -> compress=gzip,flush=next` and `compress=gzip,flush=timer,after=194ms ->
   * timer=188ms` reproduced 9 of 9 cells alike; at frames 388 ms apart the first held each frame
   * 565 ms, the second 383 (`flushlab client --client browser` through each relay, 2026-12-05). The
   * cell named spaces its frames further apart than the timers of either chain together and twice
   * the longest: a clock's phase moves each side's waits by up to its period run to run, and at
   * twice the longest alone a clock of 113 ms then a compressor on the next write was named alike
   * with one on a 112.9 ms timer (a map, 2026-12-06).
   */
  @Test
  void aCompressorFlushingOnTheNextWriteIsToldFromOneOnATimerByFramesFurtherApartThanItsTimers() {
    String late = "timer=188.4ms -> compress=gzip,flush=next";
    String timed = "compress=gzip,flush=timer,after=193.7ms -> timer=188.4ms";
    CellPlan telling = NextWriteTelling.of(late, timed);
    assertThat(telling).isNotNull();
    assertThat(telling.intervalNanos() / 1e6).isGreaterThanOrEqualTo(193.7 + 188.4 + 2 * 193.7);
    CellPlan clock =
        NextWriteTelling.of(
            "timer=113.4ms,periodic=true -> compress=gzip,flush=next",
            "timer=113.4ms,periodic=true -> compress=gzip,flush=timer,after=112.9ms");
    assertThat(clock.intervalNanos() / 1e6)
        .as("frames the timer's model lets go a clock's period before the other's earliest")
        .isGreaterThanOrEqualTo(113.4 + 112.9 + 2 * 113.4);
    assertThat(telling.frames()).isGreaterThan(2);
    assertThat(NextWriteTelling.of(timed, late)).isEqualTo(telling);
    // two compressors flushing alike, or a pair with no compressor, are not this rule's
    assertThat(
            NextWriteTelling.of(timed, "timer=188.4ms -> compress=gzip,flush=timer,after=193.7ms"))
        .isNull();
    assertThat(NextWriteTelling.of("timer=100ms -> timer=200ms", "timer=200ms -> timer=100ms"))
        .isNull();
  }

  /**
   * `cork -> compress=gzip,flush=next` and `compress=gzip,flush=timer,after=29.5ms -> cork` were
   * told by frames 89 ms apart, which the cork gathered three to a release in both: both models
   * agreed and were named alike (a map, 2026-12-07). The cork's ceiling counts as a timer: frames
   * further apart than it, each alone in the cork, wait the next frame's interval on the first and
   * under 260 ms on the second.
   */
  @Test
  void theCorksCeilingCountsAsATimerWhenTellingTheNextWriteFromATimer() {
    CellPlan telling =
        NextWriteTelling.of(
            "cork -> compress=gzip,flush=next", "compress=gzip,flush=timer,after=29.5ms -> cork");
    assertThat(telling).isNotNull();
    assertThat(telling.intervalNanos() / 1e6).isGreaterThanOrEqualTo(29.5 + 2 * 225 + 225);
  }

  /**
   * An accepting pass read as an encoder (a compressor flushing every N input bytes of small frames
   * looks like one) beside a plain clock: the compressor's flush is simulated all the same, for the
   * map to try once the encoder's model failed its replay.
   */
  @Test
  void anAcceptingPassReadAsAnEncoderBesideAClockIsTriedWithACompressorFlushingOnInput() {
    FlushTrigger clock = timed(TriggerKind.PERIODIC_TIMER, 199);
    List<TwoStageCandidate> found =
        BesideACompressor.compressorOnATimer(
            compressedBeside(answer(TriggerKind.ENCODER), clock),
            true,
            HoldingPairFitTest.inputCompressorBeforeAClock(),
            List.of());
    assertThat(found)
        .extracting(TwoStageCandidate::chain)
        .anyMatch(
            c -> c.matches("compress=gzip,flush=input,bytes=\\d+B -> timer=199ms,periodic=true"));
  }

  /**
   * An accepting pass read as an encoder beside a plain hold: its model puts the hold first, and
   * the other order, the encoder in front of the hold, is offered first among the candidates for
   * when that model's replay refused it (`compress=gzip,flush=none -> timer=293ms`, a browser chain
   * bench, 2026-12-06, was answered with no model); beside a threshold it is not.
   */
  @Test
  void anEncoderBesideAHoldIsAlsoTriedInFrontOfIt() {
    List<TwoStageCandidate> found =
        BesideACompressor.compressorOnATimer(
            compressedBeside(answer(TriggerKind.ENCODER), timed(TriggerKind.TIMER, 293.4)),
            true,
            List.of(),
            List.of());
    assertThat(found)
        .extracting(TwoStageCandidate::chain)
        .first()
        .isEqualTo("compress=gzip,flush=none -> timer=293.4ms");
    FlushTrigger threshold =
        new FlushTrigger(
            "x",
            TriggerKind.BYTE_THRESHOLD,
            3000.0,
            2700.0,
            null,
            null,
            "byte threshold",
            List.of(),
            List.of());
    assertThat(
            BesideACompressor.compressorOnATimer(
                compressedBeside(answer(TriggerKind.ENCODER), threshold),
                true,
                List.of(),
                List.of()))
        .extracting(TwoStageCandidate::chain)
        .noneMatch(c -> c.contains("flush=none"));
  }

  /**
   * A hold in front of a compressor that sends once N compressed bytes wait, the accepting pass
   * read as an encoder: its output count is offered beside the hold, as its input count is. Both
   * reproduced all ten cells of `timer=249ms -> compress=gzip,flush=bytes,bytes=2289B` (mapped with
   * `--verify`, 2026-12-06), which before had no candidate of its kind. The lines are that map's.
   */
  @Test
  void aHoldInFrontOfACompressorSendingByItsOutputIsOfferedItsOutputCount() {
    List<CellEvidence> accepting =
        List.of(
            EvidenceLine.parse(
                "frame_size=60B interval=2ms frames=600: 200.00 frames/read; 1.0 releases per stream"
                    + " of 251 frames (p10 251, p90 251); the oldest frame waited 500.6 ms (p10 500.6,"
                    + " p90 500.6); 500.7 ms between releases (p10 500.7, p90 500.7); 16 B per frame on"
                    + " the wire, 4027 B per release (p10 4027, p90 4027); the first frame waited 501.4"
                    + " ms (gzip: compressed bytes as received)"),
            EvidenceLine.parse(
                "frame_size=4096B interval=2ms frames=600: 120.00 frames/read; 3.0 releases per"
                    + " stream of 126 frames (p10 126, p90 127); the oldest frame waited 252.7 ms (p10"
                    + " 252.6, p90 254.8); 252.8 ms between releases (p10 252.6, p90 253.1); 31 B per"
                    + " frame on the wire, 3859 B per release (p10 3853, p90 3895); the first frame"
                    + " waited 252.6 ms (gzip: compressed bytes as received)"));
    List<CellEvidence> pinning =
        List.of(
            EvidenceLine.parse(
                "frame_size=60B interval=5ms frames=431: 143.67 frames/read; 1.0 releases per stream"
                    + " of 150 frames (p10 150, p90 150); the oldest frame waited 750.1 ms (p10 750.1,"
                    + " p90 750.1); 750.3 ms between releases (p10 750.3, p90 750.3); 17 B per frame on"
                    + " the wire, 2493 B per release (p10 2493, p90 2493); the first frame waited 750.1"
                    + " ms (gzip: compressed bytes as received)"));
    List<String> chains =
        BesideACompressor.compressorOnATimer(
                compressedBeside(answer(TriggerKind.ENCODER), timed(TriggerKind.TIMER, 249.4)),
                true,
                accepting,
                pinning)
            .stream()
            .map(TwoStageCandidate::chain)
            .toList();
    Pattern output = Pattern.compile("timer=249.4ms -> compress=gzip,flush=bytes,bytes=(\\d+)B");
    String found =
        chains.stream().filter(c -> output.matcher(c).matches()).findFirst().orElse(null);
    assertThat(found).as("%s", chains).isNotNull();
    Matcher m = output.matcher(found);
    assertThat(m.matches()).isTrue();
    assertThat(Double.parseDouble(m.group(1))).as(found).isBetween(2289 * 0.95, 2289 * 1.05);
  }

  /**
   * A plain byte threshold beside an accepting pass read as threshold-or-timer, which no compressor
   * of the lab's does alone (`byte-threshold=1401B -> compress=gzip,flush=timer,after=90ms`, mapped
   * with `--client browser`, 2026-12-05, had no model): the compressor on a timer behind that
   * threshold is simulated, and never in front of it.
   */
  @Test
  void aPlainThresholdBesideAThresholdOrTimerPassIsTriedWithACompressorOnATimerBehindIt() {
    FlushTrigger threshold =
        new FlushTrigger(
            "x",
            TriggerKind.BYTE_THRESHOLD,
            1419.0,
            1290.0,
            null,
            null,
            "byte threshold",
            List.of(),
            List.of());
    FlushTrigger either = answer(TriggerKind.THRESHOLD_OR_TIMER);
    FlushTrigger answer = compressedBeside(either, threshold);
    assertThat(ShaperModel.of(answer).chain()).as("the answer has no model of its own").isNull();
    List<TwoStageCandidate> found =
        BesideACompressor.compressorOnATimer(
            answer, true, HoldingPairFitTest.compressorBehindAThreshold(), List.of());
    assertThat(found).isNotEmpty();
    for (TwoStageCandidate c : found)
      assertThat(c.chain()).startsWith("byte-threshold=1419B -> compress=gzip,flush=");
    assertThat(found)
        .extracting(TwoStageCandidate::chain)
        .anyMatch(
            c -> c.matches("byte-threshold=1419B -> compress=gzip,flush=timer,after=[0-9.]+ms"));
  }
}
