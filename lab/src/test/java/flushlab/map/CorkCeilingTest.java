package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.map.PairSimulation.Kind;
import flushlab.map.PairSimulation.Stage;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The cells `flushlab map --shape timer=107ms,periodic=true --shape cork --verify` measured on
 * 2026-12-07 (05:02 UTC), when it answered a hold of 108 ms: the 60 B cell every 50 ms released two
 * ticks or three at a time (4 to 7 frames), which the nominal ceiling of 210 ms never gives.
 */
class CorkCeilingTest {
  static final List<CellEvidence> CLOCK_107_THEN_CORK =
      EvidenceLine.parseAll(
          "frame_size=1024B interval=20ms frames=60: 12.00 frames/read; 3.0 releases per stream of 11 frames (p10 11, p90 16); the oldest frame waited 306.4 ms (p10 306.4, p90 342.3); 256.1 ms between releases (p10 216.0, p90 284.2); 1031 B per frame on the wire, 11343 B per release (p10 11343, p90 16511); the first frame waited 310.3 ms",
          "frame_size=4096B interval=2ms frames=600: 15.39 frames/read; 10.0 releases per stream of 48 frames (p10 48, p90 64); the oldest frame waited 120.2 ms (p10 109.0, p90 131.8); 107.3 ms between releases (p10 107.2, p90 107.5); 4104 B per frame on the wire, 196479 B per release (p10 196479, p90 262015); the first frame waited 106.9 ms",
          "frame_size=60B interval=10ms frames=120: 24.00 frames/read; 3.0 releases per stream of 22 frames (p10 21, p90 32); the oldest frame waited 315.0 ms (p10 312.9, p90 345.2); 256.1 ms between releases (p10 212.1, p90 288.1); 66 B per frame on the wire, 1452 B per release (p10 1386, p90 2113); the first frame waited 309.0 ms",
          "frame_size=60B interval=2ms frames=600: 120.00 frames/read; 3.0 releases per stream of 107 frames (p10 107, p90 161); the oldest frame waited 317.1 ms (p10 315.0, p90 357.0); 256.1 ms between releases (p10 216.0, p90 280.2); 66 B per frame on the wire, 7063 B per release (p10 7063, p90 10631); the first frame waited 315.0 ms",
          "frame_size=60B interval=50ms frames=25: 5.00 frames/read; 3.0 releases per stream of 6 frames (p10 4, p90 7); the oldest frame waited 306.6 ms (p10 272.8, p90 318.7); 288.1 ms between releases (p10 260.2, p90 316.1); 66 B per frame on the wire, 396 B per release (p10 264, p90 462); the first frame waited 308.5 ms");

  @Test
  void aClockWhoseSecondTickMeetsTheCeilingIsACandidateBesideTheHold() {
    double clock =
        FittedPairs.firstValue(
            "CorkCeilingTest", CLOCK_107_THEN_CORK, "timer=[0-9.]+ms,periodic=true -> cork");
    assertThat(clock).isBetween(107 * 0.95, 107 * 1.05);
  }

  /** The nominal ceiling refuses the cell; a longer one, as a connection shows, takes it. */
  @Test
  void theCellIsRefusedAtTheNominalCeilingAndMatchedAtALongerOne() {
    CellEvidence everyFifty =
        CLOCK_107_THEN_CORK.stream().filter(c -> c.intervalMs() == 50).findFirst().orElseThrow();
    Stage clock = new Stage(Kind.PERIODIC, 108);
    Stage cork = new Stage(Kind.CORK, CorkAfterFit.CEILING_MS);
    assertThat(SimulatedCell.matches(everyFifty, PairSimulation.simulate(everyFifty, clock, cork)))
        .isFalse();
    assertThat(CorkCeiling.matchesAtAnother(everyFifty, clock, cork)).isTrue();
    assertThat(CorkCeiling.matchesAtAnother(everyFifty, new Stage(Kind.PERIODIC, 180), cork))
        .as("a clock of 180 ms releases two ticks 360 ms apart at every ceiling")
        .isFalse();
  }
}
