package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReleaseSizesTest {
  /** Six releases of p10 and p90 frames, their median the fewest. */
  private static Simulated releasing(double fewest, double most) {
    return new Simulated(
        6, fewest, 150, 150, false, fewest, most, false, fewest, most, 150, 180, 150);
  }

  /**
   * The 2 ms cell of a compressor on a 59 ms timer in front of a 150 ms clock, as a map measured it
   * (1012, 1037 and 1542 B a release, 17 B a frame: 60 and 91 frames): alike a simulation of two
   * flushes of 30 or three; not one of a 96 ms timer's one or two of 48, whose median (48) lies
   * within a quarter of the cell's (60) and passed for it; nor one that never gathers three.
   */
  @Test
  void theFewestAndMostFramesAReleaseTellWhichFlushesItGathered() {
    CellEvidence cell = CompressorFlushFitTest.timerInFrontOfAClock().get(0);
    assertThat(ReleaseSizes.alike(cell, releasing(60, 90))).isTrue();
    assertThat(ReleaseSizes.alike(cell, releasing(48, 96))).isFalse();
    assertThat(ReleaseSizes.alike(cell, releasing(60, 60))).isFalse();
    assertThat(ReleaseSizes.misfit(cell, releasing(60, 90)))
        .isLessThan(ReleaseSizes.misfit(cell, releasing(62, 93)));
  }

  /** Releases over half a read's buffer may take several reads: not held to their sizes. */
  @Test
  void releasesOfSeveralReadsAreNotHeldToTheirSizes() {
    CellEvidence large =
        EvidenceLine.parse(
            "frame_size=4096B interval=2ms frames=600: 14.29 frames/read; 4.0 releases per stream of 100 frames (p50); the oldest frame waited 199.3 ms (p10 199.3, p90 200.4); 200.3 ms between releases (p10 200.0, p90 200.7); 4104 B per frame on the wire, 410623 B per release (p10 410623, p90 414719); the first frame waited 200.6 ms");
    assertThat(ReleaseSizes.alike(large, releasing(40, 200))).isTrue();
    assertThat(ReleaseSizes.misfit(large, releasing(40, 200))).isZero();
  }
}
