package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.map.PairSimulation.Kind;
import flushlab.map.PairSimulation.Stage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A new connection's cork lets what waits go once it passes half the window the client first
 * offered (about 32 KiB), whether one write brought it or several. The cells are those `flushlab
 * map --shape byte-threshold=6000B --shape cork --verify` measured (2026-12-07, 05:16 UTC), which
 * it answered `inconclusive`: the threshold writes two 4 KiB frames every 4 ms, and the first frame
 * waited 14.2 ms (the fourth write), where a cork that pushed only a first write that large held it
 * for a whole segment (30 ms), so no threshold matched that cell.
 */
class CorkFirstPushTest {
  static final List<CellEvidence> THRESHOLD_6000_THEN_CORK = cells();

  private static List<CellEvidence> cells() {
    List<CellEvidence> cells =
        new ArrayList<>(
            EvidenceLine.parseAll(
                "frame_size=60B interval=2ms frames=600: 150.00 frames/read; 2.0 releases per stream of 182 frames (p10 182, p90 182); the oldest frame waited 386.9 ms (p10 386.9, p90 390.8); 360.2 ms between releases (p10 360.2, p90 368.1); 66 B per frame on the wire, 12015 B per release (p10 12015, p90 12015); the first frame waited 386.9 ms",
                "frame_size=4096B interval=2ms frames=600: 15.39 frames/read; 37.0 releases per stream of 16 frames (p10 15, p90 16); the oldest frame waited 34.1 ms (p10 32.1, p90 34.1); 32.0 ms between releases (p10 31.7, p90 32.0); 4104 B per frame on the wire, 65503 B per release (p10 65503, p90 65503); the first frame waited 14.2 ms",
                "frame_size=1024B interval=20ms frames=60: 12.00 frames/read; 3.0 releases per stream of 12 frames (p10 12, p90 12); the oldest frame waited 312.2 ms (p10 308.2, p90 324.2); 232.0 ms between releases (p10 228.1, p90 256.1); 1031 B per frame on the wire, 12375 B per release (p10 12375, p90 12375); the first frame waited 316.4 ms",
                "frame_size=60B interval=2ms frames=1800: 180.00 frames/read; 8.0 releases per stream of 182 frames (p10 182, p90 182); the oldest frame waited 388.4 ms (p10 384.5, p90 388.7); 364.1 ms between releases (p10 360.2, p90 364.1); 66 B per frame on the wire, 12015 B per release (p10 12015, p90 12015); the first frame waited 384.5 ms",
                "frame_size=60B interval=10ms frames=360: 90.00 frames/read; 2.0 releases per stream of 91 frames (p10 91, p90 91); the oldest frame waited 1110.4 ms (p10 1110.4, p90 1112.5); 912.3 ms between releases (p10 912.3, p90 912.3); 66 B per frame on the wire, 6007 B per release (p10 6007, p90 6007); the first frame waited 1088.4 ms"));
    // "every stream (25 frames, 1650 B, 1200 ms) arrived in one piece at its end"
    cells.add(TriggerInferenceTest.drained(66, 50, 25));
    // "released once before its end, the first frame after waiting 1092.6 ms, then the rest at the
    // end (1190 ms)"
    cells.add(
        new CellEvidence(
            "frame_size=60B interval=10ms frames=120",
            66,
            60,
            10,
            120,
            1,
            120,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            1092.6,
            false,
            null,
            0,
            0,
            0));
    return List.copyOf(cells);
  }

  @Test
  void aThresholdWritingUnderHalfTheWindowAtATimeIsFittedWithinFivePercent() {
    assertThat(THRESHOLD_6000_THEN_CORK.get(6).heldOnce()).isTrue();
    double threshold =
        FittedPairs.firstValue(
            "CorkFirstPushTest", THRESHOLD_6000_THEN_CORK, "byte-threshold=[0-9]+B -> cork");
    assertThat(threshold).isBetween(6000 * 0.95, 6000 * 1.05);
  }

  @Test
  void theFirstPushComesWithTheWriteThatPassesHalfTheWindow() {
    CellEvidence large = THRESHOLD_6000_THEN_CORK.get(1);
    Simulated s =
        PairSimulation.simulate(
            large, new Stage(Kind.THRESHOLD, 6000), new Stage(Kind.CORK, CorkAfterFit.CEILING_MS));
    // writes of 8208 B every 4 ms (the head's 130 B with the first): the fourth passes 32 KiB
    assertThat(s.firstWaitMs()).as(s.toString()).isEqualTo(14.0);
    assertThat(s.framesMax()).as("a segment a release after it: %s", s).isEqualTo(16);
  }
}
