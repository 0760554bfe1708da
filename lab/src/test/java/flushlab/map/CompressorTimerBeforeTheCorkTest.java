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
    FlushTrigger cork = timed(TriggerKind.CORK, 207.7);
    List<TwoStageCandidate> found =
        BesideACompressor.compressorOnATimer(
            compressedBeside(timed(TriggerKind.TIMER, 389.0), cork), true, ACCEPTING, List.of());
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
    assertThat(Double.parseDouble(m.group(1))).isBetween(177 * 0.95, 177 * 1.05);
  }
}
