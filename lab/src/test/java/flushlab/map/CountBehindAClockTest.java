package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A compressor flushing every 4738 B of its input behind a 130 ms clock, as `flushlab map --shape
 * 'timer=130ms,periodic=true -> compress=gzip,flush=input,bytes=4738B' --client browser` measured
 * it as the browser (2026-12-07): the pinning cell's first frame came after 390.5 ms (three ticks;
 * in another map four, 520.5 ms), a phase the few the fit tries first do not give, and the map had
 * no candidate of an input count at all.
 */
class CountBehindAClockTest {
  static final double CLOCK_MS = 130.3;
  static final double HIDDEN = 4738;

  static final List<CellEvidence> CELLS =
      EvidenceLine.parseAll(
          "frame_size=60B interval=2ms frames=600: 120.00 frames/read; 3.0 releases per stream of 130 frames (p10 130, p90 131); the oldest frame waited 260.1 ms (p10 259.9, p90 261.0); 260.8 ms between releases (p10 260.6, p90 261.4); 16 B per frame on the wire, 2051 B per release (p10 2041, p90 2073); the first frame waited 261.3 ms (gzip: compressed bytes as received)",
          "frame_size=4096B interval=2ms frames=600: 60.00 frames/read; 8.0 releases per stream of 66 frames (p10 66, p90 66); the oldest frame waited 132.0 ms (p10 131.6, p90 132.8); 132.0 ms between releases (p10 130.8, p90 132.4); 31 B per frame on the wire, 2049 B per release (p10 2047, p90 2055); the first frame waited 131.1 ms (gzip: compressed bytes as received)",
          "frame_size=60B interval=5ms frames=448: 89.60 frames/read; 3.0 releases per stream of 104 frames (p10 104, p90 104); the oldest frame waited 517.7 ms (p10 516.6, p90 518.7); 521.1 ms between releases (p10 521.1, p90 521.4); 16 B per frame on the wire, 1651 B per release (p10 1651, p90 1659); the first frame waited 390.5 ms (gzip: compressed bytes as received)");

  @Test
  void anInputCountBehindAClockIsFittedAtThePhaseItsCellsShow() {
    CompressorFlushFit.Fitted f =
        CompressorFlushFit.fit(
            CELLS.subList(0, 2),
            CELLS.subList(2, 3),
            CompressorFlushFit.Flush.INPUT,
            TriggerKind.PERIODIC_TIMER,
            CLOCK_MS,
            false);
    assertThat(f).isNotNull();
    assertThat(f.alike().lo()).as("%s", f).isLessThanOrEqualTo(HIDDEN);
    assertThat(f.alike().hi()).as("%s", f).isGreaterThanOrEqualTo(HIDDEN);
  }
}
