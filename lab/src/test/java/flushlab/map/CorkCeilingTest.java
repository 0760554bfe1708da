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

  /**
   * The cells `flushlab map --shape cork --shape timer=213ms --client browser` measured on
   * 2026-12-07 (15:32 UTC), when it answered inconclusive: on this target's connections the ceiling
   * outlasted the hold, and its 60 B cell released two holds' frames together (214).
   */
  static final List<CellEvidence> CORK_THEN_HOLD_213_TWO_A_RELEASE =
      EvidenceLine.parseAll(
          "frame_size=60B interval=2ms frames=600: 150.00 frames/read; 2.0 releases per stream of 214 frames (p10 214, p90 214); the oldest frame waited 428.5 ms (p10 428.5, p90 464.4); 256.1 ms between releases (p10 256.1, p90 392.2); 66 B per frame on the wire, 14127 B per release (p10 14127, p90 14127); the first frame waited 422.2 ms",
          "frame_size=4096B interval=2ms frames=600: 15.39 frames/read; 6.0 releases per stream of 95 frames (p10 12, p90 112); the oldest frame waited 223.9 ms (p10 213.6, p90 237.5); 206.0 ms between releases (p10 5.9, p90 214.0); 4104 B per frame on the wire, 392959 B per release (p10 46111, p90 458495); the first frame waited 215.0 ms",
          "frame_size=60B interval=50ms frames=25: 5.00 frames/read; 3.0 releases per stream of 5 frames (p10 5, p90 5); the oldest frame waited 422.2 ms (p10 422.2, p90 424.1); 256.1 ms between releases (p10 248.1, p90 256.1); 66 B per frame on the wire, 330 B per release (p10 330, p90 330); the first frame waited 416.2 ms",
          "frame_size=60B interval=10ms frames=120: 30.00 frames/read; 2.0 releases per stream of 22 frames (p10 22, p90 44); the oldest frame waited 422.5 ms (p10 422.5, p90 454.5); 260.0 ms between releases (p10 260.0, p90 408.2); 66 B per frame on the wire, 1452 B per release (p10 1452, p90 2905); the first frame waited 414.4 ms",
          "frame_size=1024B interval=20ms frames=60: 15.00 frames/read; 2.0 releases per stream of 11 frames (p10 11, p90 22); the oldest frame waited 417.8 ms (p10 417.8, p90 453.9); 220.2 ms between releases (p10 220.2, p90 256.2); 1031 B per frame on the wire, 11343 B per release (p10 11343, p90 22687); the first frame waited 417.5 ms");

  /**
   * A cell matched only at a longer ceiling ranks the hold by what that ceiling gives: the 4 KiB
   * cell's first frame (215.0 ms) pins it, where ranked at the nominal ceiling every hold misfit
   * the 60 B cell by half its frames and 222.2 ms was fitted.
   */
  @Test
  void aHoldWhoseReleasesTheCeilingJoinedIsRankedAtThatCeiling() {
    double hold =
        FittedPairs.firstValue(
            "CorkCeilingTest", CORK_THEN_HOLD_213_TWO_A_RELEASE, "timer=[0-9.]+ms -> cork");
    assertThat(hold).isBetween(213 * 0.95, 213 * 1.02);
  }

  /**
   * A hold of about the ceiling: one side's cell released one window a release, the other two, and
   * the replay leaves that to the connection's ceiling, its waits still compared; a hold well clear
   * of the ceilings, or a side whose releases are neither, is compared as ever.
   */
  @Test
  void oneWindowAReleaseAgainstTwoIsTheCeilingsChoiceOnlyForAHoldOfAboutIt() {
    CellEvidence target = CORK_THEN_HOLD_213_TWO_A_RELEASE.get(0);
    CellEvidence oneWindow = releasing(target, 112, 4, 7392, 120);
    String model = "timer=222.2ms -> cork";
    assertThat(Replay.compare(model, List.of(target), List.of(oneWindow)).verified()).isTrue();
    assertThat(
            Replay.compare("timer=150ms -> cork", List.of(target), List.of(oneWindow)).verified())
        .as("a 150 ms hold's writes meet the cork at every ceiling alike")
        .isFalse();
    CellEvidence later = oneWindow.waitingLess(-100);
    assertThat(Replay.compare(model, List.of(target), List.of(later)).verified())
        .as("waits 100 ms apart differ whatever the ceiling")
        .isFalse();
    CellEvidence thirty = oneWindow.with(b -> b.releaseFrames(30));
    assertThat(Replay.compare(model, List.of(target), List.of(thirty)).verified()).isFalse();
  }

  /**
   * A compressor sending once 2873 B of output wait, then the cork, as a browser (`flushlab map
   * --shape compress=gzip,flush=bytes,bytes=2873B --shape cork --client browser`, 2026-12-07): 60 B
   * frames every 2 ms compress to an output each 101 frames, 202 ms apart, about the ceiling, and
   * the target's cork let them go two at a time (202 frames) where its model's let them go one
   * (104). Whether an output meets a socket still corked is the connection's ceiling's choice, as
   * for a hold of about it; an output each 60 frames is not.
   */
  @Test
  void oneOutputAReleaseAgainstTwoIsTheCeilingsChoiceForACompressorWritingAsOftenAsIt() {
    CellEvidence target =
        EvidenceLine.parse(
            "frame_size=60B interval=2ms frames=600: 150.00 frames/read; 2.0 releases per stream of 202 frames (p10 202, p90 208); the oldest frame waited 408.2 ms (p10 408.2, p90 420.0); 388.2 ms between releases (p10 388.2, p90 416.0); 28 B per frame on the wire, 5771 B per release (p10 5771, p90 5787); the first frame waited 210.2 ms (gzip: compressed bytes as received)");
    CellEvidence oneOutput = releasing(target, 104, 4, 2890, 100);
    String model = "compress=gzip,flush=bytes,bytes=2864B -> cork";
    assertThat(Replay.compare(model, List.of(target), List.of(oneOutput)).verified()).isTrue();
    CellEvidence sixty = oneOutput.with(b -> b.releaseFrames(60));
    assertThat(
            Replay.compare(model, List.of(target.with(b -> b.releaseFrames(120))), List.of(sixty))
                .verified())
        .as("outputs 120 ms apart meet the cork at every ceiling alike")
        .isFalse();
    assertThat(
            Replay.compare(
                    "compress=gzip,flush=bytes,bytes=2864B -> byte-threshold=3000B",
                    List.of(target),
                    List.of(oneOutput))
                .verified())
        .as("no cork, no ceiling's choice")
        .isFalse();
  }

  /** {@code c} releasing {@code frames} frames of {@code bytes} B at a time, as its model did. */
  private static CellEvidence releasing(
      CellEvidence c, int frames, int releases, double bytes, double perRead) {
    return c.with(
        b ->
            b.releaseFrames(frames)
                .releasesPerStream(releases)
                .releaseBytesP10(bytes)
                .releaseBytesP50(bytes)
                .releaseBytesP90(bytes)
                .framesPerRead(perRead));
  }
}
