package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A cell to pin a compressor's input count (here in front of a 130 ms clock, one of the orders
 * fitted) is one the map has not measured: `flushlab map --shape 'timer=130ms,periodic=true ->
 * compress=gzip,flush=input,bytes=4738B' --client browser` (2026-12-07) measured its browser cells
 * below and then 60 B frames every 2 ms again as the pinning cell, which read what the first did;
 * the hidden count went untold and a chain bench was answered with an output count.
 */
class CompressorPinningTest {
  static final double CLOCK_MS = 130.3;

  static final List<CellEvidence> BROWSER_CELLS =
      EvidenceLine.parseAll(
          "frame_size=60B interval=2ms frames=600: 120.00 frames/read; 3.0 releases per stream of 131 frames (p10 130, p90 131); the oldest frame waited 260.6 ms (p10 260.5, p90 261.4); 261.0 ms between releases (p10 259.3, p90 262.7); 16 B per frame on the wire, 2075 B per release (p10 2057, p90 2075); the first frame waited 261.8 ms (gzip: compressed bytes as received)",
          "frame_size=4096B interval=2ms frames=600: 60.00 frames/read; 8.0 releases per stream of 66 frames (p10 65, p90 66); the oldest frame waited 131.7 ms (p10 131.4, p90 132.4); 131.7 ms between releases (p10 131.5, p90 132.6); 31 B per frame on the wire, 2044 B per release (p10 2016, p90 2061); the first frame waited 130.0 ms (gzip: compressed bytes as received)");

  private static CompressorFlushFit.Fitted fitted() {
    return CompressorFlushFit.fit(
        BROWSER_CELLS,
        List.of(),
        CompressorFlushFit.Flush.INPUT,
        TriggerKind.PERIODIC_TIMER,
        CLOCK_MS,
        true);
  }

  @Test
  void thePinningCellIsNoneOfTheCellsMeasured() {
    CompressorFlushFit.Fitted f = fitted();
    assertThat(f).isNotNull();
    assertThat(f.loose()).as("%s..%s", f.low(), f.high()).isTrue();
    CellPlan anySize =
        CompressorPinning.pinningCell(
            f, CompressorFlushFit.Flush.INPUT, TriggerKind.PERIODIC_TIMER, CLOCK_MS, true);
    assertThat(anySize).hasToString("frame_size=60B interval=2ms frames=600");
    CellPlan plan =
        CompressorPinning.pinningCell(
            f,
            CompressorFlushFit.Flush.INPUT,
            TriggerKind.PERIODIC_TIMER,
            CLOCK_MS,
            true,
            BROWSER_CELLS);
    assertThat(plan).isNotNull();
    assertThat(BROWSER_CELLS)
        .noneMatch(c -> c.label().startsWith(plan.toString().replaceAll("frames=\\d+", "")));
  }
}
