package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SteadyGapsTest {
  /** Four releases a stream, this far apart at the median. */
  private static Simulated releasingEvery(double gapMs) {
    return new Simulated(4, 48, 120, 107, false, 48, 64, true, 48, 64, 110, 130, gapMs);
  }

  private static CellEvidence cellEvery(double p10, double p50, double p90) {
    return CellEvidenceBuilder.builder()
        .label("frame_size=4096B interval=2ms frames=600")
        .frameBytes(4104)
        .bodyBytes(4096)
        .intervalMs(2)
        .framesPerStream(600)
        .streams(1)
        .framesPerRead(15.39)
        .releasesPerStream(10)
        .releaseFrames(48)
        .waitP10(109)
        .waitP50(120.2)
        .waitP90(131.6)
        .gapP10(p10)
        .gapP50(p50)
        .gapP90(p90)
        .firstWaitMs(107)
        .build();
  }

  /**
   * A cell released every 107.3 ms (p10 107.3, p90 107.4), a clock's ticks: a simulation of a 108
   * ms clock keeps that pace, one of 116.8 ms does not, nor one of 103.8 (3.3 % short).
   */
  @Test
  void aSteadyPaceIsKeptByTheSimulationsOfItsOwnPaceOnly() {
    CellEvidence steady = cellEvery(107.3, 107.3, 107.4);
    assertThat(SteadyGaps.steady(steady)).isTrue();
    assertThat(SteadyGaps.alike(steady, releasingEvery(108))).isTrue();
    assertThat(SteadyGaps.alike(steady, releasingEvery(116.8))).isFalse();
    assertThat(SteadyGaps.alike(steady, releasingEvery(103.8))).isFalse();
  }

  /** Releases 216 to 280 ms apart (a cork's ceiling) have no one pace: any simulation agrees. */
  @Test
  void gapsThatSpreadHoldNoSimulationToThem() {
    CellEvidence spread = cellEvery(216.1, 256.1, 280.0);
    assertThat(SteadyGaps.steady(spread)).isFalse();
    assertThat(SteadyGaps.alike(spread, releasingEvery(116.8))).isTrue();
  }
}
