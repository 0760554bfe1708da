package flushlab.map;

import static flushlab.map.BesideACompressorTest.compressedBeside;
import static flushlab.map.BesideACompressorTest.timed;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A compressor on a timer of 165-186 ms before the cork: the browser's pass reads as one hold of
 * the timer and the cork's ceiling together (389 ms for 177), the plain client's as the cork; that
 * hold's model beside the cork held the shortest streams to their end, and no compressor on a timer
 * was tried (`flushlab map --shape compress=gzip,flush=timer,after=177ms --shape cork --verify`,
 * 2026-12-07: inconclusive; the accepting cells below are that map's, as it printed them).
 */
class CompressorTimerBeforeTheCorkTest {
  static final List<CellEvidence> ACCEPTING =
      EvidenceLine.parseAll(
          "frame_size=60B interval=2ms frames=600: 150.00 frames/read; 2.0 releases per stream of 178 frames (p10 178, p90 178); the oldest frame waited 389.0 ms (p10 389.0, p90 389.0); 356.3 ms between releases (p10 356.3, p90 360.2); 16 B per frame on the wire, 2811 B per release (p10 2811, p90 2819); the first frame waited 206.9 ms (gzip: compressed bytes as received)",
          "frame_size=4096B interval=2ms frames=600: 150.00 frames/read; 2.0 releases per stream of 176 frames (p10 176, p90 178); the oldest frame waited 389.0 ms (p10 389.0, p90 389.2); 356.3 ms between releases (p10 356.3, p90 364.1); 31 B per frame on the wire, 5451 B per release (p10 5451, p90 5487); the first frame waited 203.0 ms (gzip: compressed bytes as received)",
          "frame_size=60B interval=50ms frames=25: 6.25 frames/read; 2.0 releases per stream of 8 frames (p10 8, p90 8); the oldest frame waited 387.9 ms (p10 387.9, p90 388.2); 384.3 ms between releases (p10 384.3, p90 400.3); 24 B per frame on the wire, 205 B per release (p10 205, p90 208); the first frame waited 203.9 ms (gzip: compressed bytes as received)");

  @Test
  void aHoldForTheBrowserBesideTheCorkIsTriedAsACompressorOnATimerBeforeIt() {
    assertThat(timerBeforeTheCork(timed(TriggerKind.TIMER, 389.0), ACCEPTING))
        .isBetween(177 * 0.95, 177 * 1.05);
  }

  /**
   * The timer of the candidate `compress=gzip,flush=timer,after=T -> cork` the map gets where the
   * browser saw {@code accepting} on {@code cells} and the plain client the cork; the test fails
   * where there is none.
   */
  private static double timerBeforeTheCork(FlushTrigger accepting, List<CellEvidence> cells) {
    List<TwoStageCandidate> found =
        BesideACompressor.compressorOnATimer(
            compressedBeside(accepting, timed(TriggerKind.CORK, 207.7)), true, cells, List.of());
    System.out.println(
        "CompressorTimerBeforeTheCorkTest: "
            + found.stream().map(TwoStageCandidate::chain).toList());
    Matcher m = Pattern.compile("compress=gzip,flush=timer,after=([0-9.]+)ms -> cork").matcher("");
    String chain =
        found.stream()
            .map(TwoStageCandidate::chain)
            .filter(c -> m.reset(c).matches())
            .findFirst()
            .orElseThrow(() -> new AssertionError("no compressor on a timer then the cork"));
    m.reset(chain).matches();
    return Double.parseDouble(m.group(1));
  }

  /**
   * A compressor on a 112 ms timer before the cork, as `flushlab map --client browser` measured it
   * (2026-12-07): its 2 ms cells released 114 frames or 171, the cork's ceiling running 200 to 225
   * ms, where 112 ms simulates 114 every time at a fixed ceiling, so the fit held to the releases'
   * sizes had no value and the map no candidate. Beside the cork the sizes are not held; the replay
   * judges (it reproduced 9 of 9 cells at 113.2 ms).
   */
  @Test
  void aCompressorsTimerBeforeTheCorkIsFittedThoughTheCeilingMovesItsReleasesSizes() {
    List<CellEvidence> accepting =
        EvidenceLine.parseAll(
            "frame_size=60B interval=2ms frames=600: 120.00 frames/read; 3.0 releases per stream of 114 frames (p10 114, p90 171); the oldest frame waited 323.6 ms (p10 323.6, p90 353.8); 256.1 ms between releases (p10 228.2, p90 312.0); 16 B per frame on the wire, 1875 B per release (p10 1832, p90 2787); the first frame waited 210.9 ms (gzip: compressed bytes as received)",
            "frame_size=4096B interval=2ms frames=600: 120.00 frames/read; 3.0 releases per stream of 114 frames (p10 114, p90 170); the oldest frame waited 321.0 ms (p10 321.0, p90 349.1); 256.1 ms between releases (p10 228.1, p90 312.2); 31 B per frame on the wire, 3553 B per release (p10 3543, p90 5299); the first frame waited 207.0 ms (gzip: compressed bytes as received)",
            "frame_size=60B interval=50ms frames=25: 5.00 frames/read; 3.0 releases per stream of 6 frames (p10 6, p90 6); the oldest frame waited 320.8 ms (p10 320.8, p90 320.8); 300.2 ms between releases (p10 268.0, p90 300.2); 27 B per frame on the wire, 173 B per release (p10 171, p90 174); the first frame waited 202.7 ms (gzip: compressed bytes as received)",
            "frame_size=60B interval=10ms frames=120: 20.00 frames/read; 4.0 releases per stream of 24 frames (p10 24, p90 24); the oldest frame waited 323.4 ms (p10 319.5, p90 339.4); 232.0 ms between releases (p10 224.1, p90 256.1); 18 B per frame on the wire, 444 B per release (p10 438, p90 479); the first frame waited 203.3 ms (gzip: compressed bytes as received)",
            "frame_size=1024B interval=20ms frames=60: 10.00 frames/read; 4.0 releases per stream of 12 frames (p10 12, p90 12); the oldest frame waited 323.9 ms (p10 319.7, p90 343.8); 236.1 ms between releases (p10 220.1, p90 256.1); 29 B per frame on the wire, 358 B per release (p10 347, p90 365); the first frame waited 207.5 ms (gzip: compressed bytes as received)");
    // the browser's pass was inconclusive; the plain client's, the cork
    assertThat(
            timerBeforeTheCork(BesideACompressorTest.answer(TriggerKind.INCONCLUSIVE), accepting))
        .isBetween(112 / 1.05, 112 * 1.05);
  }
}
