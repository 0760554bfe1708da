package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A compressor's flush fitted beside a clock, from cells `flushlab map --shape
 * 'compress=gzip,flush=input,bytes=2684B -> timer=165ms,periodic=true' --client browser` measured
 * as the browser (2026-12-05): where those cells leave the flush loose, one more cell pins it.
 */
class CompressorFlushFitTest {
  private static final double CLOCK_MS = 165.3;
  private static final double HIDDEN = 2684;

  /** The browser's three cells: 60 B events every 2 ms, 4 KiB every 2 ms, 60 B every 50 ms. */
  static List<CellEvidence> acceptingCells() {
    return List.of(
        gzipCell(16, 60, 2, 600, 75.0, 6, 90, 166.2, 195.8, 240.1, 164.1, false),
        gzipCell(64, 4096, 2, 600, 75.0, 6, 83, 163.7, 164.3, 165.2, 163.9, false),
        gzipCell(19, 60, 50, 25, 25.0, 0, 0, 0, 0, 0, 1200, true));
  }

  /**
   * The pinning cell as the same map measured it: 60 B events every 5 ms, 400 frames; releases of
   * 45 frames (44.7 of 60 B make 2684 B).
   */
  static CellEvidence pinningCell() {
    return gzipCell(16, 60, 5, 400, 44.44, 7, 45, 241.3, 301.2, 375.3, 329.7, false);
  }

  /**
   * Fitted on those cells alone, an input count anywhere from about 1.5 to 4.8 KB matches every one
   * (90 frames a release are two flushes of 45 frames or three of 30): the fit says it is loose,
   * and the value it would give (1798 B, what the map answered, verified, before pinning) is far
   * from the hidden one.
   */
  @Test
  void aCompressorFlushingOnInputInFrontOfAClockIsLooseOnTheUsualCells() {
    CompressorFlushFit.Fitted f = fitted(List.of());
    assertThat(f).isNotNull();
    assertThat(f.loose()).isTrue();
    assertThat(f.low()).isLessThan(HIDDEN * 0.95);
    assertThat(f.high()).isGreaterThan(HIDDEN * 1.05);
    assertThat(Math.abs(f.value() - HIDDEN))
        .as("one value of the range, not read off it")
        .isGreaterThan(HIDDEN * 0.05);
  }

  /**
   * The cell that pins it lets one flush at most into each tick over the whole range (small events,
   * slow enough): the frames a release carries grow with the count at every step.
   */
  @Test
  void theCellThatPinsItCarriesOneFlushARelease() {
    CellPlan plan =
        CompressorFlushFit.pinningCell(
            fitted(List.of()),
            CompressorFlushFit.Flush.INPUT,
            TriggerKind.PERIODIC_TIMER,
            CLOCK_MS,
            true);
    assertThat(plan).isNotNull();
    assertThat(plan.frameSizeBytes()).isEqualTo(60);
    assertThat(plan.intervalNanos()).isEqualTo(5_000_000L);
    assertThat(plan.frames() * 5).as("a stream of five seconds at most").isLessThanOrEqualTo(5000);
    assertThat(
            CompressorFlushFit.pinningCell(
                fitted(List.of()),
                CompressorFlushFit.Flush.INPUT,
                TriggerKind.BYTE_THRESHOLD,
                2805,
                true))
        .as("a threshold behind the compressor counts compressed bytes a plan does not have")
        .isNull();
  }

  /** With the pinning cell measured, the count is read off its releases, within 5 %. */
  @Test
  void withThePinningCellTheCountIsFoundWithinFivePercent() {
    CompressorFlushFit.Fitted f = fitted(List.of(pinningCell()));
    assertThat(f).isNotNull();
    assertThat(f.value()).isBetween(HIDDEN * 0.95, HIDDEN * 1.05);
  }

  /**
   * A fit that is not loose asks for no cell (a compressor on a timer beside a clock, whose cells
   * pin it).
   */
  @Test
  void aFitThatIsNotLooseAsksForNoCell() {
    CompressorFlushFit.Fitted tight = new CompressorFlushFit.Fitted(2684, 2600, 2780);
    assertThat(tight.loose()).isFalse();
    assertThat(
            CompressorFlushFit.pinningCell(
                tight, CompressorFlushFit.Flush.INPUT, TriggerKind.PERIODIC_TIMER, CLOCK_MS, true))
        .isNull();
  }

  private static CompressorFlushFit.Fitted fitted(List<CellEvidence> pinning) {
    return CompressorFlushFit.fit(
        acceptingCells(),
        pinning,
        CompressorFlushFit.Flush.INPUT,
        TriggerKind.PERIODIC_TIMER,
        CLOCK_MS,
        true);
  }

  /** A cell as a client accepting gzip measured it: each frame its compressed bytes. */
  private static CellEvidence gzipCell(
      double wireBytes,
      double eventBytes,
      double intervalMs,
      int frames,
      double perRead,
      double releases,
      double releaseFrames,
      double waitP10,
      double waitP50,
      double waitP90,
      double firstWait,
      boolean drained) {
    double released = releaseFrames * wireBytes;
    return CellEvidenceBuilder.builder()
        .label(String.format("frame_size=%.0fB interval=%.0fms", eventBytes, intervalMs))
        .frameBytes(wireBytes)
        .bodyBytes(eventBytes)
        .intervalMs(intervalMs)
        .framesPerStream(frames)
        .streams(6)
        .framesPerRead(perRead)
        .releasesPerStream(releases)
        .releaseFrames(releaseFrames)
        .waitP10(waitP10)
        .waitP50(waitP50)
        .waitP90(waitP90)
        .gapP10(CLOCK_MS)
        .gapP50(CLOCK_MS)
        .gapP90(CLOCK_MS)
        .firstWaitMs(firstWait)
        .drained(drained)
        .coding("gzip")
        .releaseBytesP10(released)
        .releaseBytesP50(released)
        .releaseBytesP90(released)
        .firstBodyMs(Double.NaN)
        .ttftMs(Double.NaN)
        .build();
  }
}
