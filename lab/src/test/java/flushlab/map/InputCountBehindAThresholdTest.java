package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.coding.ContentCoding;
import flushlab.map.CompressorFlushFit.Flush;
import flushlab.map.PairSimulation.Kind;
import flushlab.map.PairSimulation.Stage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * A compressor that flushes every N bytes of its input, behind a byte threshold, from the cells
 * `flushlab map --shape byte-threshold=3497B --shape compress=gzip,flush=input,bytes=7707B`
 * measured as the browser (2026-12-07; the plain pass read the threshold as 3465 B on the wire).
 * Each of the threshold's releases reaches the compressor as one block (53 events of 60 B, one of 4
 * KiB), so the usual cells tell N only to a block: 6969 B was answered, its count said untold
 * anywhere in 6372..8172 B. A cell of another frame size makes blocks whose steps fall inside that
 * span.
 */
class InputCountBehindAThresholdTest {
  private static final double THRESHOLD = 3465;
  private static final double HIDDEN = 7707;
  private static final double HIDDEN_THRESHOLD = 3497;

  static List<CellEvidence> acceptingCells() {
    return List.of(
        EvidenceLine.parse(
            "frame_size=60B interval=2ms frames=600: 150.00 frames/read; 2.0 releases per stream of 159 frames (p10 159, p90 159); the oldest frame waited 316.3 ms (p10 316.3, p90 316.6); 317.5 ms between releases (p10 317.5, p90 318.2); 16 B per frame on the wire, 2487 B per release (p10 2487, p90 2503); the first frame waited 313.2 ms (gzip: compressed bytes as received)"),
        EvidenceLine.parse(
            "frame_size=4096B interval=2ms frames=600: 2.00 frames/read; 298.0 releases per stream of 2 frames (p10 2, p90 2); the oldest frame waited 2.1 ms (p10 2.0, p90 2.1); 4.0 ms between releases (p10 4.0, p90 4.0); 49 B per frame on the wire, 104 B per release (p10 102, p90 106); the first frame waited 2.1 ms (gzip: compressed bytes as received)"),
        CompressorFlushFitTest.gzipCell(19.6, 60, 50, 25, 25.0, 0, 0, 0, 0, 0, 1200, true),
        EvidenceLine.parse(
            "frame_size=1024B interval=20ms frames=60: 7.50 frames/read; 6.0 releases per stream of 8 frames (p10 8, p90 8); the oldest frame waited 140.3 ms (p10 140.3, p90 140.3); 160.0 ms between releases (p10 160.0, p90 160.0); 27 B per frame on the wire, 221 B per release (p10 214, p90 229); the first frame waited 140.3 ms (gzip: compressed bytes as received)"),
        EvidenceLine.parse(
            "frame_size=60B interval=2ms frames=1800: 150.00 frames/read; 10.0 releases per stream of 159 frames (p10 159, p90 159); the oldest frame waited 316.3 ms (p10 316.3, p90 316.6); 318.2 ms between releases (p10 318.0, p90 318.2); 16 B per frame on the wire, 2495 B per release (p10 2467, p90 2541); the first frame waited 312.4 ms (gzip: compressed bytes as received)"));
  }

  private static CompressorFlushFit.Fitted fitted(List<CellEvidence> pins) {
    return CompressorFlushFit.fit(
        acceptingCells(), pins, Flush.INPUT, TriggerKind.BYTE_THRESHOLD, THRESHOLD, false);
  }

  /** The usual cells leave the count untold, the hidden value within what fits alike. */
  @Test
  void theUsualCellsTellTheCountOnlyToABlock() {
    CompressorFlushFit.Fitted f = fitted(List.of());
    assertThat(f).isNotNull();
    assertThat(f.untold()).as(f.toString()).isTrue();
    assertThat(f.alike().lo()).isLessThanOrEqualTo(HIDDEN);
    assertThat(f.alike().hi()).isGreaterThanOrEqualTo(HIDDEN);
  }

  /**
   * Cells are chosen, one at a time, each of a frame size not measured yet, and once the cells the
   * hidden stack would release are added (simulated here as the relay runs it: the hidden
   * threshold, then the hidden count), the count is found within 5 % and no longer untold; no third
   * cell is asked for once it is pinned.
   */
  @Test
  void cellsOfOtherFrameSizesPinTheCountWithinFivePercent() {
    List<CellEvidence> pins = new ArrayList<>();
    for (int i = 0; i < CompressorPinning.MAX_COUNT_PINNING_CELLS; i++) {
      CellPlan plan =
          CompressorPinning.countCell(
              Flush.INPUT, acceptingCells(), pins, THRESHOLD, ContentCoding.GZIP);
      if (plan == null) break;
      assertThat(plan.frameSizeBytes()).as("a frame size not measured").isNotIn(60L, 4096L, 1024L);
      for (CellEvidence p : pins)
        assertThat(p.bodyBytes()).as("not measured again").isNotEqualTo(plan.frameSizeBytes());
      assertThat(plan.streamMs()).as("a short stream").isLessThanOrEqualTo(2400);
      pins.add(asTheHiddenStackReleasesIt(plan));
    }
    assertThat(pins).as("at least one cell measured").isNotEmpty();
    CompressorFlushFit.Fitted f = fitted(pins);
    assertThat(f).isNotNull();
    assertThat(f.value()).as(f.toString()).isBetween(HIDDEN * 0.95, HIDDEN * 1.05);
    assertThat(f.untold()).as(f.toString()).isFalse();
  }

  /** An output count is not asked for by the input's cell: no encoder's bytes are simulated. */
  @Test
  void anInputCountNeedsNoEncoderLikeTheLabs() {
    List<CellEvidence> cells = new ArrayList<>(acceptingCells());
    cells.replaceAll(c -> c.withFrameBytes(c.frameBytes() * 1.37));
    assertThat(
            CompressorPinning.countCell(
                Flush.INPUT, cells, List.of(), THRESHOLD, ContentCoding.GZIP))
        .as("frame bytes the lab's encoder does not make: the input's count is of event bytes")
        .isNotNull();
  }

  /** The cell {@code plan} as the hidden threshold, then the hidden count, release it. */
  private static CellEvidence asTheHiddenStackReleasesIt(CellPlan plan) {
    CellEvidence planned = HoldingPairFit.planned(plan.frameSizeBytes(), 2, (int) plan.frames());
    Simulated s =
        PairSimulation.simulate(
            planned,
            new Stage(Kind.INPUT_THRESHOLD, HIDDEN_THRESHOLD),
            new Stage(Kind.FLUSH_INPUT, HIDDEN));
    assertThat(s.drained()).as("the chosen cell shows releases").isFalse();
    // as the map prints a cell (compressed bytes a frame as the 60 B cell's were)
    double gap = s.framesP50() * 2;
    return EvidenceLine.parse(
        String.format(
            Locale.ROOT,
            "%s: %.2f frames/read; %.1f releases per stream of %.0f frames (p10 %.0f, p90 %.0f);"
                + " the oldest frame waited %.1f ms (p10 %.1f, p90 %.1f); %.1f ms between"
                + " releases (p10 %.1f, p90 %.1f); 20 B per frame on the wire, %.0f B per release"
                + " (p10 %.0f, p90 %.0f); the first frame waited %.1f ms (gzip: compressed bytes as"
                + " received)",
            plan,
            s.framesP50(),
            (double) s.releases(),
            s.framesP50(),
            s.framesP10(),
            s.framesP90(),
            s.waitP50(),
            s.waitP10(),
            s.waitP90(),
            gap,
            gap,
            gap,
            20 * s.framesP50(),
            20 * s.framesP50(),
            20 * s.framesP50(),
            s.firstWaitMs()));
  }
}
