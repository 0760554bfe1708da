package flushlab.map;

import static flushlab.map.BesideACompressorTest.compressedBeside;
import static flushlab.map.BesideACompressorTest.timed;
import static org.assertj.core.api.Assertions.assertThat;

import flushlab.map.CompressorFlushFit.Flush;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A compressor in front of a hold longer than its flushes come: the response head passes the
 * compressor at once and starts the hold, so the first flushes join the head's release, and the
 * hold counts from each later output. The accepting cells are those `flushlab map --client browser`
 * printed (2026-12-08), both maps inconclusive with no candidate of the hidden kind.
 */
class CompressorBeforeAHoldTest {
  /** `compress=gzip,flush=input,bytes=3504B -> timer=291ms` (a chain bench, seed 20261261). */
  static final List<CellEvidence> INPUT_3504_THEN_HOLD_291 =
      EvidenceLine.parseAll(
          "frame_size=60B interval=2ms frames=600: 150.00 frames/read; 2.0 releases per stream of 177 frames (p10 177, p90 177); the oldest frame waited 407.3 ms (p10 407.3, p90 407.3); 352.1 ms between releases (p10 352.1, p90 354.2); 16 B per frame on the wire, 2863 B per release (p10 2863, p90 2867); the first frame waited 291.2 ms (gzip: compressed bytes as received)",
          "frame_size=4096B interval=2ms frames=600: 120.00 frames/read; 3.0 releases per stream of 146 frames (p10 146, p90 146); the oldest frame waited 291.2 ms (p10 291.2, p90 291.2); 292.3 ms between releases (p10 291.5, p90 292.6); 65 B per frame on the wire, 10311 B per release (p10 10311, p90 10335); the first frame waited 291.2 ms (gzip: compressed bytes as received)");

  /** `compress=gzip,flush=timer,after=80ms -> timer=200ms`, read as a hold of 280 ms. */
  static final List<CellEvidence> TIMER_80_THEN_HOLD_200 =
      EvidenceLine.parseAll(
          "frame_size=60B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 123 frames (p10 123, p90 123); the oldest frame waited 280.2 ms (p10 280.2, p90 280.5); 246.0 ms between releases (p10 244.2, p90 246.2); 16 B per frame on the wire, 2009 B per release (p10 2004, p90 2031); the first frame waited 200.3 ms (gzip: compressed bytes as received)",
          "frame_size=4096B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 123 frames (p10 123, p90 123); the oldest frame waited 280.5 ms (p10 280.2, p90 280.5); 246.0 ms between releases (p10 244.2, p90 246.0); 31 B per frame on the wire, 3879 B per release (p10 3879, p90 3887); the first frame waited 200.1 ms (gzip: compressed bytes as received)",
          "frame_size=60B interval=50ms frames=25: 5.00 frames/read; 3.0 releases per stream of 6 frames (p10 4, p90 6); the oldest frame waited 280.5 ms (p10 280.5, p90 280.7); 280.2 ms between releases (p10 200.3, p90 299.9); 28 B per frame on the wire, 186 B per release (p10 129, p90 187); the first frame waited 200.1 ms (gzip: compressed bytes as received)");

  /**
   * The first frames of 60 B every 2 ms left after 291.2 ms, with the head, two flushes of 59
   * frames in that release; counted from the first flush, the hold gives 409 ms and no count fits.
   */
  @Test
  void anInputCountInFrontOfALongerHoldIsFittedWithTheHoldCountingFromTheHead() {
    List<CellEvidence> cells = new ArrayList<>(INPUT_3504_THEN_HOLD_291);
    // 25 frames of 60 B every 50 ms: 1500 B, under the count, all at the end
    cells.add(TriggerInferenceTest.drained(66, 50, 25));
    CompressorFlushFit.Fitted f =
        CompressorFlushFit.fit(cells, List.of(), Flush.INPUT, TriggerKind.TIMER, 291.2, true);
    System.out.println("CompressorBeforeAHoldTest: " + f);
    assertThat(f).isNotNull();
    assertThat(f.value()).isBetween(3504 / 1.05, 3504 * 1.05);
  }

  @Test
  void aLongerHoldForTheBrowserThanForTheOthersIsTriedAsACompressorsTimerBesideIt() {
    List<TwoStageCandidate> found =
        BesideACompressor.compressorOnATimer(
            compressedBeside(timed(TriggerKind.TIMER, 280.2), timed(TriggerKind.TIMER, 200.1)),
            true,
            TIMER_80_THEN_HOLD_200,
            List.of());
    List<String> chains = found.stream().map(TwoStageCandidate::chain).toList();
    System.out.println("CompressorBeforeAHoldTest: " + chains);
    Matcher m =
        Pattern.compile("compress=gzip,flush=timer,after=([0-9.]+)ms -> timer=200.1ms").matcher("");
    String chain =
        chains.stream()
            .filter(c -> m.reset(c).matches())
            .findFirst()
            .orElseThrow(
                () -> new AssertionError("no compressor on a timer before the hold: " + chains));
    m.reset(chain).matches();
    assertThat(Double.parseDouble(m.group(1))).isBetween(80 / 1.05, 80 * 1.05);
  }
}
