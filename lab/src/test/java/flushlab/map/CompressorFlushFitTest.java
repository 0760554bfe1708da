package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
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
  }

  /**
   * The cell that pins it lets one flush at most into each tick over the whole range (small events,
   * slow enough): the frames a release carries grow with the count at every step.
   */
  @Test
  void theCellThatPinsItCarriesOneFlushARelease() {
    CellPlan plan =
        CompressorPinning.pinningCell(
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
            CompressorPinning.pinningCell(
                fitted(List.of()),
                CompressorFlushFit.Flush.INPUT,
                TriggerKind.BYTE_THRESHOLD,
                2805,
                true))
        .as("a threshold behind the compressor counts compressed bytes a plan does not have")
        .isNull();
    assertThat(
            CompressorPinning.pinningCell(
                fitted(List.of()),
                CompressorFlushFit.Flush.OUTPUT,
                TriggerKind.PERIODIC_TIMER,
                CLOCK_MS,
                true))
        .as("a compressor's output count is of compressed bytes a plan does not have")
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
   * The cells of s163 (a fresh-clone suite, 2026-12-06), where `compress=gzip,flush=input,
   * bytes=2538B -> timer=223ms,periodic=true` was answered with 2024 B and verified: the 60 B cell
   * every 2 ms released two flushes or three a tick (86 or 129 frames, the median 86), which values
   * within 5 % of 2538 B matched only at a clock's phase the fit did not try, so the pinning cell's
   * releases of 43 frames took the value that gave 34, within the quarter a median gets. Read by
   * its fewest and most frames where the median is the phase's, and held to the pinning cell within
   * 5 %, the count is found within 5 %.
   */
  @Test
  void aPinnedCountIsReadWhereAReleaseCarriesTwoFlushesOrThreeAsTheClockFalls() {
    List<CellEvidence> accepting =
        List.of(
            EvidenceLine.parse(
                "frame_size=60B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 86 frames (p10 86, p90 129); the oldest frame waited 254.7 ms (p10 238.4, p90 289.6); 223.2 ms between releases (p10 223.2, p90 223.3); 17 B per frame on the wire, 1430 B per release (p10 1421, p90 2163); the first frame waited 222.1 ms (gzip: compressed bytes as received)"),
            EvidenceLine.parse(
                "frame_size=4096B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 112 frames (p10 111, p90 113); the oldest frame waited 222.7 ms (p10 221.7, p90 224.5); 223.2 ms between releases (p10 223.2, p90 224.8); 64 B per frame on the wire, 7883 B per release (p10 7815, p90 7947); the first frame waited 221.8 ms (gzip: compressed bytes as received)"),
            gzipCell(20, 60, 50, 25, 25.0, 0, 0, 0, 0, 0, 1200, true));
    CellEvidence pin =
        EvidenceLine.parse(
            "frame_size=60B interval=10ms frames=369: 41.00 frames/read; 7.0 releases per stream of 43 frames (p10 43, p90 43); the oldest frame waited 510.8 ms (p10 461.5, p90 560.4); 446.4 ms between releases (p10 446.4, p90 446.7); 17 B per frame on the wire, 725 B per release (p10 697, p90 742); the first frame waited 445.3 ms (gzip: compressed bytes as received)");
    foundWithinFivePercent(
        accepting,
        List.of(pin),
        CompressorFlushFit.Flush.INPUT,
        TriggerKind.PERIODIC_TIMER,
        223.4,
        true,
        2538);
  }

  /**
   * `compress=gzip,flush=input,bytes=1367B -> timer=40ms` as a browser (a chain bench, 2026-12-06):
   * 23 frames of 60 B every 2 ms left after 84 ms, the compressor's 46 and the hold's 40, since the
   * hold counts from when the compressor's output came, not from the oldest frame in it. Simulated
   * so, the count is found, the hidden value within the span every cell allows; simulated with the
   * hold counted from the oldest frame (46 ms), no count matched and the map had no candidate.
   */
  @Test
  void aHoldBehindACompressorCountsFromTheCompressorsOutput() {
    List<CellEvidence> accepting =
        List.of(
            EvidenceLine.parse(
                "frame_size=60B interval=2ms frames=600: 23.08 frames/read; 23.0 releases per stream of 23 frames (p10 23, p90 23); the oldest frame waited 84.2 ms (p10 83.3, p90 85.6); 46.0 ms between releases (p10 44.7, p90 47.5); 17 B per frame on the wire, 406 B per release (p10 395, p90 411); the first frame waited 86.4 ms (gzip: compressed bytes as received)"),
            EvidenceLine.parse(
                "frame_size=4096B interval=2ms frames=600: 20.69 frames/read; 27.0 releases per stream of 21 frames (p10 21, p90 22); the oldest frame waited 40.1 ms (p10 40.0, p90 41.4); 42.0 ms between releases (p10 41.3, p90 44.3); 64 B per frame on the wire, 1472 B per release (p10 1431, p90 1486); the first frame waited 49.4 ms (gzip: compressed bytes as received)"),
            // released once before its end, the first frame after 1141.7 ms, the rest at the end
            gzipCell(17, 60, 50, 25, 12.5, 0, 0, 0, 0, 0, 1141.7, false));
    CompressorFlushFit.Fitted f = inputCountFirst(accepting, TriggerKind.TIMER, 40.2);
    assertThat(f).isNotNull();
    assertThat(1367.0).isBetween(f.low(), f.high());
    assertThat(f.value()).isBetween(1367 * 0.95, 1367 * 1.05);
  }

  /**
   * `compress=gzip,flush=timer,after=82ms -> cork` as a browser (a chain bench, 2026-12-06): the
   * compressor passed the response head on at once, so the cork's ceiling counted from the stream's
   * start and the first frames went with the head after 205 ms; every later release waited the
   * compressor's 82 ms and the ceiling (293 ms). Simulated so, the compressor's timer is found
   * within 5 %; simulated with the ceiling counted from the first flush (292 ms the first frame's
   * wait), no timer matched and the map had no candidate.
   */
  @Test
  void aCompressorInFrontOfTheCorkIsFoundItsHeadStartingTheCeiling() {
    List<CellEvidence> accepting =
        List.of(
            EvidenceLine.parse(
                "frame_size=60B interval=2ms frames=600: 120.00 frames/read; 3.0 releases per stream of 126 frames (p10 126, p90 126); the oldest frame waited 293.5 ms (p10 293.2, p90 293.5); 252.1 ms between releases (p10 252.1, p90 256.1); 17 B per frame on the wire, 2113 B per release (p10 2111, p90 2121); the first frame waited 205.2 ms (gzip: compressed bytes as received)"),
            EvidenceLine.parse(
                "frame_size=4096B interval=2ms frames=600: 120.00 frames/read; 3.0 releases per stream of 126 frames (p10 126, p90 126); the oldest frame waited 292.2 ms (p10 292.2, p90 292.2); 252.1 ms between releases (p10 252.1, p90 256.1); 31 B per frame on the wire, 3949 B per release (p10 3947, p90 3965); the first frame waited 204.2 ms (gzip: compressed bytes as received)"),
            EvidenceLine.parse(
                "frame_size=60B interval=50ms frames=25: 5.00 frames/read; 3.0 releases per stream of 6 frames (p10 6, p90 6); the oldest frame waited 294.0 ms (p10 294.0, p90 294.0); 300.2 ms between releases (p10 292.0, p90 300.2); 29 B per frame on the wire, 193 B per release (p10 190, p90 197); the first frame waited 201.9 ms (gzip: compressed bytes as received)"));
    foundWithinFivePercent(
        accepting,
        List.of(),
        CompressorFlushFit.Flush.TIMER,
        TriggerKind.CORK,
        CorkAfterFit.CEILING_MS,
        true,
        82);
    assertThat(
            CompressorFlushFit.fit(
                accepting,
                List.of(),
                CompressorFlushFit.Flush.TIMER,
                TriggerKind.CORK,
                CorkAfterFit.CEILING_MS,
                false))
        .as("the cork is the client socket's: never in front of the compressor")
        .isNull();
  }

  /**
   * A fit that is not loose asks for no cell (a compressor on a timer beside a clock, whose cells
   * pin it).
   */
  @Test
  void aFitThatIsNotLooseAsksForNoCell() {
    CompressorFlushFit.Fitted tight =
        new CompressorFlushFit.Fitted(2684, 2600, 2780, new Span(2684, 2684));
    assertThat(tight.loose()).isFalse();
    assertThat(
            CompressorPinning.pinningCell(
                tight, CompressorFlushFit.Flush.INPUT, TriggerKind.PERIODIC_TIMER, CLOCK_MS, true))
        .isNull();
  }

  /**
   * A compressor flushing 70 ms after a write, behind a clock of 150 ms, as `flushlab map --shape
   * 'timer=150ms,periodic=true -> compress=gzip,flush=timer,after=70ms' --client browser` measured
   * the browser's cells (2026-12-05; the time between releases, which that test did not keep, as a
   * map of the same chain measured it on 2026-12-06): every release waits the clock's wait and 70
   * ms. Frames every 50 ms had waited 150 ms in the clock on that run and 100 at the simulation's
   * phase 0, and the timer was fitted at 85.4 ms (verified 9 of 9); read where the phase cannot
   * move the waits, it is found within 5 %.
   */
  @Test
  void aCompressorsTimerBehindAClockIsFoundWithinFivePercent() {
    List<CellEvidence> cells =
        List.of(
            paced(
                gzipCell(16, 60, 2, 600, 75, 6, 75, 218.6, 219.9, 221.4, 220.8, false),
                150.3,
                150.6,
                151.1),
            paced(
                gzipCell(31, 4096, 2, 600, 75, 6, 76, 222.1, 222.2, 222.5, 218.7, false),
                152.3,
                152.6,
                153.0),
            paced(
                gzipCell(27, 60, 50, 25, 3.13, 6, 3, 219.7, 219.9, 220.7, 219.2, false),
                150.2,
                150.3,
                150.3),
            paced(
                gzipCell(18, 60, 10, 120, 15, 6, 15, 209.9, 220.0, 220.5, 219.3, false),
                150.1,
                150.2,
                150.6),
            paced(
                gzipCell(27, 1024, 20, 60, 7.5, 6, 7, 201.1, 210.2, 220.3, 219.3, false),
                150.1,
                150.3,
                150.6));
    Double after =
        CompressorFlushFit.compressorFlush(
            cells, CompressorFlushFit.Flush.TIMER, TriggerKind.PERIODIC_TIMER, 150.3, false);
    assertThat(after).isNotNull();
    assertThat(after).isBetween(70 * 0.95, 70 * 1.05);
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

  /**
   * A compressor flushing 41 ms after its first byte in front of a 149.4 ms clock, its cells (60 B
   * and 4 KiB events every 2 ms, 60 B every 50 and every 10 ms) as the pair releases them with the
   * clock's ticks 50 ms past the stream's start: at phase 0 no timer matches every cell, and the
   * fit at every phase finds it within 10 % (s132 had no candidate in this order, and the other
   * order alone was verified).
   */
  @Test
  void aCompressorsTimerInFrontOfAClockMeasuredAtAnotherPhaseIsFoundAtEveryPhase() {
    PairSimulation.Stage compressor = new PairSimulation.Stage(PairSimulation.Kind.FLUSH_TIMER, 41);
    PairSimulation.Stage clock = new PairSimulation.Stage(PairSimulation.Kind.PERIODIC, 149.4, 50);
    List<CellEvidence> cells =
        List.of(
            simulated(17, 60, 2, 600, compressor, clock),
            simulated(32, 4096, 2, 600, compressor, clock),
            simulated(29, 60, 50, 25, compressor, clock),
            simulated(22, 60, 10, 120, compressor, clock));
    CompressorFlushFit.Fitted f =
        CompressorFlushFit.fit(
            cells,
            List.of(),
            CompressorFlushFit.Flush.TIMER,
            TriggerKind.PERIODIC_TIMER,
            149.4,
            true);
    assertThat(f).isNotNull();
    assertThat(f.value()).isBetween(41 * 0.9, 41 * 1.1);
  }

  /**
   * The accepting client's cells of `compress=gzip,flush=timer,after=59ms ->
   * timer=150ms,periodic=true` as a map measured them (`--client browser --no-verify`, 2026-12-06):
   * the clock's releases carry two of the compressor's flushes or three (60 or 90 frames of 2 ms),
   * their oldest frames' waits split between two values as the phase fell.
   */
  static List<CellEvidence> timerInFrontOfAClock() {
    return List.of(
        EvidenceLine.parse(
            "frame_size=60B interval=2ms frames=600: 75.00 frames/read; 6.0 releases per stream of 60 frames (p50); the oldest frame waited 178.5 ms (p10 177.4, p90 209.0); 150.2 ms between releases (p10 150.2, p90 150.5); 17 B per frame on the wire, 1037 B per release (p10 1012, p90 1542); the first frame waited 149.4 ms (gzip: compressed bytes as received)"),
        EvidenceLine.parse(
            "frame_size=4096B interval=2ms frames=600: 75.00 frames/read; 6.0 releases per stream of 60 frames (p50); the oldest frame waited 179.3 ms (p10 177.7, p90 209.4); 150.3 ms between releases (p10 150.2, p90 150.7); 32 B per frame on the wire, 1914 B per release (p10 1908, p90 2895); the first frame waited 148.0 ms (gzip: compressed bytes as received)"),
        EvidenceLine.parse(
            "frame_size=60B interval=50ms frames=25: 3.13 frames/read; 6.0 releases per stream of 2 frames (p50); the oldest frame waited 153.6 ms (p10 149.7, p90 202.2); 150.6 ms between releases (p10 150.3, p90 151.7); 29 B per frame on the wire, 64 B per release (p10 61, p90 129); the first frame waited 149.0 ms (gzip: compressed bytes as received)"),
        EvidenceLine.parse(
            "frame_size=60B interval=10ms frames=120: 15.00 frames/read; 6.0 releases per stream of 13 frames (p50); the oldest frame waited 179.5 ms (p10 170.1, p90 209.8); 150.3 ms between releases (p10 150.2, p90 150.6); 21 B per frame on the wire, 286 B per release (p10 260, p90 426); the first frame waited 149.0 ms (gzip: compressed bytes as received)"),
        EvidenceLine.parse(
            "frame_size=1024B interval=20ms frames=60: 7.50 frames/read; 6.0 releases per stream of 6 frames (p50); the oldest frame waited 161.1 ms (p10 159.8, p90 191.2); 150.3 ms between releases (p10 149.7, p90 151.1); 35 B per frame on the wire, 226 B per release (p10 222, p90 338); the first frame waited 149.5 ms (gzip: compressed bytes as received)"));
  }

  /**
   * A compressor's timer in front of a clock is read off the sizes of the clock's releases, which
   * of its flushes they gather, not off their medians alone: on those medians the same chain's maps
   * gave timers of 96 and 42.1 ms, each verified (two maps in four). Within 5 %.
   */
  @Test
  void aCompressorsTimerInFrontOfAClockIsReadOffTheSizesOfTheClocksReleases() {
    timerInFrontOfAClockFound(timerInFrontOfAClock(), 150.3, 59);
  }

  /**
   * `compress=gzip,flush=timer,after=45ms -> timer=233ms,periodic=true` as a browser's map measured
   * it (`--no-verify`, 2026-12-06): at 2 ms a 45 ms timer flushes 23 frames and the clock releases
   * five flushes, 115 frames, as a 56.6 ms timer's four flushes of 29 do (116); only frames 50 ms
   * apart tell them, single flushes of 4 or 5 a tick against pairs of 4 or 6. Read off the bytes of
   * a release, give or take a frame, they passed for each other, and a fresh clone's suite got 56.6
   * ms, verified (s141); counted, the timer is found within 5 %.
   */
  @Test
  void aCompressorsTimerIsToldFromOneWhoseFlushesAddUpAlikeByTheFramesItsReleasesCounted() {
    List<CellEvidence> cells =
        List.of(
            EvidenceLine.parse(
                "frame_size=60B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 115 frames (p10 115, p90 115); the oldest frame waited 236.7 ms (p10 233.6, p90 243.0); 233.2 ms between releases (p10 233.2, p90 233.2); 17 B per frame on the wire, 1998 B per release (p10 1994, p90 2020); the first frame waited 232.4 ms (gzip: compressed bytes as received)"),
            EvidenceLine.parse(
                "frame_size=4096B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 115 frames (p10 115, p90 115); the oldest frame waited 239.9 ms (p10 235.7, p90 246.2); 233.2 ms between releases (p10 233.2, p90 234.2); 32 B per frame on the wire, 3727 B per release (p10 3723, p90 3741); the first frame waited 232.5 ms (gzip: compressed bytes as received)"),
            EvidenceLine.parse(
                "frame_size=60B interval=50ms frames=25: 4.17 frames/read; 4.0 releases per stream of 5 frames (p10 4, p90 5); the oldest frame waited 248.8 ms (p10 232.1, p90 265.4); 233.3 ms between releases (p10 233.3, p90 233.4); 32 B per frame on the wire, 186 B per release (p10 154, p90 192); the first frame waited 232.3 ms (gzip: compressed bytes as received)"));
    CompressorFlushFit.Fitted f = timerInFrontOfAClockFound(cells, 233.2, 45);
    assertThat(f.high()).as("a 56.6 ms timer's pairs").isLessThan(56.6);
  }

  /**
   * `compress=gzip,flush=timer,after=51ms -> timer=208ms,periodic=true` as two of a browser's maps
   * measured it (`--no-verify`, 2026-12-06): the clock's period four of the compressor's 52 ms
   * cycles, so a flush meets a tick every cycle. On the first, a release of 2 ms frames gathered
   * four flushes of 26 and, once a stream, five (104 and 130 frames, p10 and p90), its oldest frame
   * waiting 208 ms; on the second, four and five again, each oldest frame waiting 257 ms, a cycle
   * more; on a third, a 4 KiB stream's releases were four flushes and once three (79 and 104). At
   * its one phase the simulation of 51 ms gave 104 every tick, waiting 209 ms, and was refused; the
   * fit answered 58.2 ms on the first (a CI run), allowed the sizes alone a few ms either way 39 ms
   * on the second, and at the measured period alone (208.3 ms, whose cycles drift one way only)
   * 41.4 ms on the third. Judged against what the ticks a few ms either way show, each is found
   * within 5 %.
   */
  @Test
  void aCompressorsTimerWhoseFlushesMeetTheTicksIsFoundWithTheTicksAFewMsEitherWay() {
    for (List<CellEvidence> cells :
        List.of(fourCyclesATick(), fourCyclesATickLate(), fourCyclesATickOnceThree()))
      timerInFrontOfAClockFound(cells, 208.3, 51);
  }

  /**
   * `compress=gzip,flush=timer,after=60ms -> timer=200ms,periodic=true` as a browser's map measured
   * it (`--no-verify`, 2026-12-06): its 10 ms frames gather in flushes of 7 (21 a release) only for
   * timers of 60 to 62 ms, between the 4 % grid's 60.0 and 62.4. The grid's closest value was 49.3
   * ms, four of whose cycles make the clock's period, and read again around it the fit gave 48.4;
   * read again over every value the grid allowed, it is found within 5 %.
   */
  @Test
  void aCompressorsTimerThatTheGridStepsOverIsReadAgainOverEveryValueItAllowed() {
    timerInFrontOfAClockFound(
        EvidenceLine.parseAll(
            "frame_size=60B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 93 frames (p10 93, p90 124); the oldest frame waited 227.8 ms (p10 213.6, p90 256.2); 200.3 ms between releases (p10 200.3, p90 200.4); 17 B per frame on the wire, 1595 B per release (p10 1583, p90 2125); the first frame waited 199.2 ms (gzip: compressed bytes as received)",
            "frame_size=4096B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 93 frames (p10 93, p90 124); the oldest frame waited 227.9 ms (p10 211.1, p90 255.2); 200.4 ms between releases (p10 198.3, p90 202.9); 32 B per frame on the wire, 2961 B per release (p10 2957, p90 3955); the first frame waited 196.4 ms (gzip: compressed bytes as received)",
            "frame_size=60B interval=50ms frames=25: 3.57 frames/read; 4.0 releases per stream of 4 frames (p10 4, p90 4); the oldest frame waited 199.1 ms (p10 198.8, p90 199.6); 200.3 ms between releases (p10 200.3, p90 200.3); 29 B per frame on the wire, 125 B per release (p10 125, p90 129); the first frame waited 198.5 ms (gzip: compressed bytes as received)",
            "frame_size=60B interval=10ms frames=120: 20.00 frames/read; 4.0 releases per stream of 21 frames (p10 21, p90 21); the oldest frame waited 240.2 ms (p10 230.7, p90 259.6); 200.4 ms between releases (p10 200.4, p90 200.4); 21 B per frame on the wire, 443 B per release (p10 436, p90 472); the first frame waited 199.3 ms (gzip: compressed bytes as received)",
            "frame_size=1024B interval=20ms frames=60: 10.00 frames/read; 4.0 releases per stream of 8 frames (p10 8, p90 12); the oldest frame waited 200.8 ms (p10 200.0, p90 240.5); 200.4 ms between releases (p10 199.6, p90 201.1); 31 B per frame on the wire, 274 B per release (p10 255, p90 403); the first frame waited 199.5 ms (gzip: compressed bytes as received)"),
        200.3,
        60);
  }

  /**
   * `compress=gzip,flush=timer,after=45ms -> timer=233ms,periodic=true` as a browser's map measured
   * it (`--no-verify`, 2026-12-06): five of the compressor's 46 ms cycles a tick, 3.3 ms short of
   * the period, so its flushes drift towards the ticks and a 2 ms stream's releases were five
   * flushes of 23 and once six (115 and 138). The simulation gives six only with the ticks 4 to 6
   * ms earlier against the frames (the relay's clock starts with the response, before the first
   * frame reaches it); judged a few ms either way alone, the fit answered 31.9 ms (a map,
   * 2026-12-06).
   */
  @Test
  void aCompressorsTimerWhoseFlushesDriftOntoTheTicksIsFoundWithTheTicksSomeMsEarlier() {
    timerInFrontOfAClockFound(
        EvidenceLine.parseAll(
            "frame_size=60B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 115 frames (p10 115, p90 138); the oldest frame waited 237.9 ms (p10 234.6, p90 277.4); 233.3 ms between releases (p10 233.3, p90 233.7); 17 B per frame on the wire, 2028 B per release (p10 2019, p90 2415); the first frame waited 232.0 ms (gzip: compressed bytes as received)",
            "frame_size=4096B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 115 frames (p10 115, p90 115); the oldest frame waited 239.6 ms (p10 236.3, p90 247.2); 233.3 ms between releases (p10 233.2, p90 234.6); 32 B per frame on the wire, 3719 B per release (p10 3719, p90 3735); the first frame waited 232.1 ms (gzip: compressed bytes as received)",
            "frame_size=60B interval=50ms frames=25: 4.17 frames/read; 4.0 releases per stream of 5 frames (p10 4, p90 5); the oldest frame waited 248.7 ms (p10 232.0, p90 265.4); 233.3 ms between releases (p10 233.3, p90 233.3); 33 B per frame on the wire, 191 B per release (p10 155, p90 197); the first frame waited 232.2 ms (gzip: compressed bytes as received)"),
        233.3,
        45);
  }

  /**
   * `timer=285ms,periodic=true -> compress=gzip,flush=input,bytes=1956B` as a plain-client map
   * measured it (a chain bench, 2026-12-06): the accepting client's two 2 ms cells and the pinning
   * cell, 60 B every 10 ms, whose releases of 57 frames are two ticks' batches. Any count from one
   * batch to two gives them, so the fit gave 2425 B, verified 9 of 9, as if read. The fit says the
   * cells leave it untold, over a span that holds the hidden count, and the answer says so.
   */
  @Test
  void aCompressorsCountBehindAClockIsUntoldWhereEachReleaseIsAWholeNumberOfTicks() {
    List<CellEvidence> accepting =
        EvidenceLine.parseAll(
            "frame_size=60B interval=2ms frames=600: 120.00 frames/read; 3.0 releases per stream of 143 frames (p10 143, p90 144); the oldest frame waited 285.3 ms (p10 285.1, p90 287.4); 285.7 ms between releases (p10 285.7, p90 285.7); 16 B per frame on the wire, 2311 B per release (p10 2295, p90 2317); the first frame waited 285.9 ms (gzip: compressed bytes as received)",
            "frame_size=4096B interval=2ms frames=600: 120.00 frames/read; 3.0 releases per stream of 145 frames (p10 144, p90 145); the oldest frame waited 292.4 ms (p10 291.6, p90 292.9); 289.7 ms between releases (p10 288.9, p90 290.5); 30 B per frame on the wire, 4427 B per release (p10 4403, p90 4431); the first frame waited 289.0 ms (gzip: compressed bytes as received)");
    List<CellEvidence> pinning =
        EvidenceLine.parseAll(
            "frame_size=60B interval=10ms frames=485: 53.89 frames/read; 7.0 releases per stream of 57 frames (p10 57, p90 58); the oldest frame waited 564.0 ms (p10 561.9, p90 570.8); 570.9 ms between releases (p10 570.9, p90 570.9); 17 B per frame on the wire, 963 B per release (p10 944, p90 971); the first frame waited 570.3 ms (gzip: compressed bytes as received)");
    CompressorFlushFit.Fitted f =
        CompressorFlushFit.fit(
            accepting,
            pinning,
            CompressorFlushFit.Flush.INPUT,
            TriggerKind.PERIODIC_TIMER,
            285.6,
            false);
    assertThat(f).isNotNull();
    assertThat(f.untold()).as("%s", f).isTrue();
    assertThat(1956.0)
        .as("the hidden count within %s", f.alike())
        .isBetween(f.alike().lo(), f.alike().hi());
    assertThat(f.value()).isBetween(f.alike().lo(), f.alike().hi());
    assertThat(BesideACompressor.untold(f, CompressorFlushFit.Flush.INPUT))
        .matches(
            "; its count fits every cell alike anywhere in \\d+\\.\\.\\d+ B, which no cell measured pins");
  }

  /**
   * Where a pinning cell reads the count to a frame (one flush a release, `flush=input` in front of
   * a clock), the values tied with the one given are within a model's tolerance: the answer says
   * nothing is untold.
   */
  @Test
  void aCountThePinningCellReadsIsNotUntold() {
    CompressorFlushFit.Fitted f = fitted(List.of(pinningCell()));
    assertThat(f).isNotNull();
    assertThat(f.untold()).as("%s", f).isFalse();
    assertThat(BesideACompressor.untold(f, CompressorFlushFit.Flush.INPUT)).isEmpty();
  }

  private static List<CellEvidence> fourCyclesATickOnceThree() {
    return EvidenceLine.parseAll(
        "frame_size=60B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 104 frames (p10 104, p90 104); the oldest frame waited 257.7 ms (p10 257.6, p90 258.3); 208.3 ms between releases (p10 208.1, p90 208.4); 17 B per frame on the wire, 1794 B per release (p10 1780, p90 1815); the first frame waited 207.2 ms (gzip: compressed bytes as received)",
        "frame_size=4096B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 104 frames (p10 79, p90 104); the oldest frame waited 207.1 ms (p10 206.1, p90 259.2); 208.3 ms between releases (p10 208.1, p90 208.8); 32 B per frame on the wire, 3337 B per release (p10 2535, p90 3349); the first frame waited 207.4 ms (gzip: compressed bytes as received)",
        "frame_size=60B interval=50ms frames=25: 4.17 frames/read; 4.0 releases per stream of 4 frames (p10 4, p90 4); the oldest frame waited 223.8 ms (p10 215.7, p90 241.0); 208.3 ms between releases (p10 208.3, p90 208.9); 28 B per frame on the wire, 123 B per release (p10 123, p90 126); the first frame waited 207.4 ms (gzip: compressed bytes as received)",
        "frame_size=60B interval=10ms frames=120: 20.00 frames/read; 4.0 releases per stream of 18 frames (p10 18, p90 24); the oldest frame waited 203.7 ms (p10 200.2, p90 235.6); 208.3 ms between releases (p10 208.3, p90 208.4); 21 B per frame on the wire, 397 B per release (p10 385, p90 552); the first frame waited 207.3 ms (gzip: compressed bytes as received)",
        "frame_size=1024B interval=20ms frames=60: 10.00 frames/read; 4.0 releases per stream of 9 frames (p10 9, p90 12); the oldest frame waited 230.9 ms (p10 202.7, p90 259.1); 208.3 ms between releases (p10 208.3, p90 208.3); 35 B per frame on the wire, 334 B per release (p10 325, p90 453); the first frame waited 206.1 ms (gzip: compressed bytes as received)");
  }

  /**
   * `compress=gzip,flush=timer,after=106ms -> timer=238ms,periodic=true` as a browser's map
   * measured it (`--no-verify`, 2026-12-06): its cells' sizes hold at 106 ms and within a percent
   * or two of it, at no value of the 4 % grid but 116.8 ms, which was answered. Tried on the 1 %
   * grid, it is found within 5 %.
   */
  @Test
  void aCompressorsTimerWhoseCellsHoldWithinAPercentIsFoundOnTheFinerGrid() {
    timerInFrontOfAClockFound(
        EvidenceLine.parseAll(
            "frame_size=60B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 108 frames (p10 108, p90 108); the oldest frame waited 277.7 ms (p10 255.3, p90 322.5); 238.3 ms between releases (p10 238.3, p90 238.6); 16 B per frame on the wire, 1790 B per release (p10 1779, p90 1801); the first frame waited 236.9 ms (gzip: compressed bytes as received)",
            "frame_size=4096B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 108 frames (p10 108, p90 162); the oldest frame waited 282.4 ms (p10 258.2, p90 328.3); 238.2 ms between releases (p10 238.0, p90 240.1); 31 B per frame on the wire, 3353 B per release (p10 3349, p90 5039); the first frame waited 236.0 ms (gzip: compressed bytes as received)",
            "frame_size=60B interval=50ms frames=25: 4.17 frames/read; 4.0 releases per stream of 6 frames (p10 3, p90 6); the oldest frame waited 263.9 ms (p10 202.2, p90 325.7); 238.3 ms between releases (p10 238.3, p90 239.2); 27 B per frame on the wire, 172 B per release (p10 88, p90 179); the first frame waited 236.6 ms (gzip: compressed bytes as received)",
            "frame_size=60B interval=10ms frames=120: 24.00 frames/read; 3.0 releases per stream of 22 frames (p10 22, p90 22); the oldest frame waited 274.0 ms (p10 255.8, p90 292.1); 238.3 ms between releases (p10 238.3, p90 238.3); 19 B per frame on the wire, 420 B per release (p10 419, p90 435); the first frame waited 237.6 ms (gzip: compressed bytes as received)",
            "frame_size=1024B interval=20ms frames=60: 12.00 frames/read; 3.0 releases per stream of 12 frames (p10 12, p90 12); the oldest frame waited 233.9 ms (p10 232.2, p90 235.6); 238.3 ms between releases (p10 238.3, p90 238.3); 29 B per frame on the wire, 354 B per release (p10 346, p90 364); the first frame waited 237.5 ms (gzip: compressed bytes as received)"),
        238.3,
        106);
  }

  private static List<CellEvidence> fourCyclesATick() {
    return EvidenceLine.parseAll(
        "frame_size=60B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 104 frames (p10 104, p90 131); the oldest frame waited 208.0 ms (p10 206.9, p90 261.4); 208.3 ms between releases (p10 208.1, p90 212.3); 17 B per frame on the wire, 1805 B per release (p10 1801, p90 2271); the first frame waited 207.0 ms (gzip: compressed bytes as received)",
        "frame_size=4096B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 104 frames (p10 104, p90 130); the oldest frame waited 208.1 ms (p10 208.0, p90 259.7); 208.3 ms between releases (p10 208.3, p90 208.9); 32 B per frame on the wire, 3341 B per release (p10 3341, p90 4167); the first frame waited 206.9 ms (gzip: compressed bytes as received)",
        "frame_size=60B interval=50ms frames=25: 4.17 frames/read; 4.0 releases per stream of 4 frames (p10 4, p90 4); the oldest frame waited 223.2 ms (p10 214.9, p90 239.9); 208.3 ms between releases (p10 208.3, p90 208.7); 29 B per frame on the wire, 127 B per release (p10 127, p90 130); the first frame waited 206.4 ms (gzip: compressed bytes as received)",
        "frame_size=60B interval=10ms frames=120: 20.00 frames/read; 4.0 releases per stream of 18 frames (p10 18, p90 24); the oldest frame waited 203.8 ms (p10 200.1, p90 235.5); 208.3 ms between releases (p10 208.1, p90 208.3); 21 B per frame on the wire, 396 B per release (p10 390, p90 546); the first frame waited 207.3 ms (gzip: compressed bytes as received)",
        "frame_size=1024B interval=20ms frames=60: 10.00 frames/read; 4.0 releases per stream of 9 frames (p10 9, p90 12); the oldest frame waited 231.3 ms (p10 203.0, p90 259.5); 208.3 ms between releases (p10 208.3, p90 208.7); 35 B per frame on the wire, 337 B per release (p10 320, p90 456); the first frame waited 206.1 ms (gzip: compressed bytes as received)");
  }

  private static List<CellEvidence> fourCyclesATickLate() {
    return EvidenceLine.parseAll(
        "frame_size=60B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 104 frames (p10 104, p90 104); the oldest frame waited 256.9 ms (p10 256.8, p90 257.3); 208.3 ms between releases (p10 208.3, p90 208.3); 17 B per frame on the wire, 1796 B per release (p10 1795, p90 1816); the first frame waited 206.6 ms (gzip: compressed bytes as received)",
        "frame_size=4096B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 104 frames (p10 104, p90 130); the oldest frame waited 258.9 ms (p10 258.6, p90 259.6); 208.3 ms between releases (p10 208.3, p90 208.5); 32 B per frame on the wire, 3337 B per release (p10 3335, p90 4183); the first frame waited 206.4 ms (gzip: compressed bytes as received)",
        "frame_size=60B interval=50ms frames=25: 4.17 frames/read; 4.0 releases per stream of 4 frames (p10 4, p90 4); the oldest frame waited 223.9 ms (p10 215.7, p90 240.5); 208.3 ms between releases (p10 208.3, p90 208.4); 28 B per frame on the wire, 125 B per release (p10 123, p90 126); the first frame waited 207.5 ms (gzip: compressed bytes as received)",
        "frame_size=60B interval=10ms frames=120: 20.00 frames/read; 4.0 releases per stream of 18 frames (p10 18, p90 24); the oldest frame waited 203.7 ms (p10 200.3, p90 235.5); 208.3 ms between releases (p10 208.3, p90 208.3); 21 B per frame on the wire, 395 B per release (p10 394, p90 547); the first frame waited 207.3 ms (gzip: compressed bytes as received)",
        "frame_size=1024B interval=20ms frames=60: 10.00 frames/read; 4.0 releases per stream of 9 frames (p10 9, p90 12); the oldest frame waited 205.0 ms (p10 201.6, p90 236.6); 208.4 ms between releases (p10 208.3, p90 209.5); 35 B per frame on the wire, 336 B per release (p10 325, p90 453); the first frame waited 207.3 ms (gzip: compressed bytes as received)");
  }

  /** A cell as the pair releases its frames, measured as gzip by a client accepting it. */
  private static CellEvidence simulated(
      double wireBytes,
      double eventBytes,
      double intervalMs,
      int frames,
      PairSimulation.Stage first,
      PairSimulation.Stage second) {
    CellEvidence plan =
        gzipCell(wireBytes, eventBytes, intervalMs, frames, 1, 1, 1, 0, 0, 0, 0, false);
    Simulated s = PairSimulation.simulate(plan, first, second);
    return paced(
        sized(
            gzipCell(
                wireBytes,
                eventBytes,
                intervalMs,
                frames,
                Math.max(1, frames / (s.releases() + 2.0)),
                s.releases(),
                s.framesP50(),
                s.waitP10(),
                s.waitP50(),
                s.waitP90(),
                s.firstWaitMs(),
                s.drained()),
            s.framesP10() * wireBytes,
            s.framesP50() * wireBytes,
            s.framesP90() * wireBytes),
        s.gapP50(),
        s.gapP50(),
        s.gapP50());
  }

  /** The same cell with the time between its releases (ms: p10, p50, p90) as a map measured it. */
  static CellEvidence paced(CellEvidence c, double p10, double p50, double p90) {
    return c.withGapP10(p10).withGapP50(p50).withGapP90(p90);
  }

  /** The same cell with its releases' sizes in bytes (p10, p50, p90) as a map measured them. */
  static CellEvidence sized(CellEvidence c, double p10, double p50, double p90) {
    return c.withReleaseBytesP10(p10).withReleaseBytesP50(p50).withReleaseBytesP90(p90);
  }

  /** A cell as a client accepting gzip measured it: each frame its compressed bytes. */
  static CellEvidence gzipCell(
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

  /**
   * Fits the compressor's flush on {@code cells} (with {@code pinning}) beside the other stage, and
   * asserts a value within 5 % of {@code hidden}: the fit.
   */
  /**
   * A compressor's timer in front of a clock of {@code periodMs}, fitted on {@code cells} with no
   * pinning cell, within 5 % of {@code hidden}.
   */
  private static CompressorFlushFit.Fitted timerInFrontOfAClockFound(
      List<CellEvidence> cells, double periodMs, double hidden) {
    return foundWithinFivePercent(
        cells,
        List.of(),
        CompressorFlushFit.Flush.TIMER,
        TriggerKind.PERIODIC_TIMER,
        periodMs,
        true,
        hidden);
  }

  private static CompressorFlushFit.Fitted foundWithinFivePercent(
      List<CellEvidence> cells,
      List<CellEvidence> pinning,
      CompressorFlushFit.Flush flush,
      TriggerKind other,
      double otherValue,
      boolean first,
      double hidden) {
    CompressorFlushFit.Fitted f =
        CompressorFlushFit.fit(cells, pinning, flush, other, otherValue, first);
    assertThat(f).isNotNull();
    assertThat(f.value()).isBetween(hidden * 0.95, hidden * 1.05);
    return f;
  }

  /**
   * `compress=gzip,flush=input,bytes=6089B -> byte-threshold=2495B` (a chain bench, 2026-12-06):
   * the other client's cells read the threshold as 2475 B; as a client that accepts gzip, 4 KiB
   * frames left 50 at a time, the compressor flushing every two, each flush about 103 B. Fitted
   * with every count weighing the cell's own 49 B a frame, 4031 B (a flush every frame, 70 B a
   * frame on the lab's encoder) was given and its replay refused; weighed by the lab's encoder at
   * each count's cadence, the count is found within 5 %, beside a threshold of 2475 B moved within
   * 2 %.
   */
  @Test
  void aCountBehindWhichAThresholdCountsTheOutputIsReadByWhatEachCadenceWeighs() {
    List<CellEvidence> accepting =
        new ArrayList<>(
            EvidenceLine.parseAll(
                "frame_size=60B interval=2ms frames=600: 200.00 frames/read; 1.0 releases per stream of 204 frames (p10 204, p90 204); the oldest frame waited 406.7 ms (p10 406.7, p90 406.7); 408.4 ms between releases (p10 408.4, p90 408.4); 16 B per frame on the wire, 3291 B per release (p10 3291, p90 3291); the first frame waited 406.5 ms (gzip: compressed bytes as received)",
                "frame_size=4096B interval=2ms frames=600: 46.15 frames/read; 11.0 releases per stream of 50 frames (p10 50, p90 50); the oldest frame waited 98.1 ms (p10 98.1, p90 98.2); 100.1 ms between releases (p10 99.9, p90 100.1); 49 B per frame on the wire, 2585 B per release (p10 2577, p90 2589); the first frame waited 86.2 ms (gzip: compressed bytes as received)"));
    // every stream of 60 B frames every 50 ms arrived in one piece at its end
    accepting.add(gzipCell(20, 60, 50, 25, 25.0, 0, 0, 0, 0, 0, 1200, true));
    CompressorFlushFit.Fitted f = inputCountFirst(accepting, TriggerKind.BYTE_THRESHOLD, 2475);
    assertThat(f).isNotNull();
    assertThat(f.value()).as("%s", f).isBetween(6089 * 0.95, 6089 * 1.05);
    assertThat(f.beside()).as("%s", f).isBetween(2495 * 0.98, 2495 * 1.02);
  }

  /** A compressor's input count in front of {@code other} of {@code value}, no pinning cell. */
  private static CompressorFlushFit.Fitted inputCountFirst(
      List<CellEvidence> accepting, TriggerKind other, double value) {
    return CompressorFlushFit.fit(
        accepting, List.of(), CompressorFlushFit.Flush.INPUT, other, value, true);
  }

  /**
   * `compress=gzip,flush=input,bytes=3937B -> timer=159ms,periodic=true` as the browser read it in
   * a fresh-clone suite (s220, 2026-12-07), with the cell measured to pin the count: 60 B events
   * every 5 ms, releases of 66 frames, one flush each (3900 < N <= 3960 B). The pinning cell's
   * waits move with the clock's phase, and a cell whose releases do was left out of the score, so
   * its frames chose nothing: 3829 B was given (64 frames a flush, within the 5 % its frames are
   * held to) and refused by the replay on that very cell, the flush a tick early. A pinning cell is
   * scored by its frames a release, which the phase does not move: the count is one that gives 66.
   */
  @Test
  void aPinningCellScoresByItsFramesWhateverTheClocksPhase() {
    List<CellEvidence> accepting =
        List.of(
            EvidenceLine.parse(
                "frame_size=60B interval=2ms frames=600: 75.00 frames/read; 6.0 releases per stream of 66 frames (p10 66, p90 132); the oldest frame waited 189.5 ms (p10 162.9, p90 267.7); 159.4 ms between releases (p10 159.3, p90 159.5); 16 B per frame on the wire, 1078 B per release (p10 1073, p90 2149); the first frame waited 158.3 ms (gzip: compressed bytes as received)"),
            EvidenceLine.parse(
                "frame_size=4096B interval=2ms frames=600: 75.00 frames/read; 6.0 releases per stream of 80 frames (p10 79, p90 80); the oldest frame waited 158.3 ms (p10 157.4, p90 159.2); 159.3 ms between releases (p10 159.1, p90 160.4); 64 B per frame on the wire, 5643 B per release (p10 5451, p90 5659); the first frame waited 158.0 ms (gzip: compressed bytes as received)"),
            gzipCell(19.5, 60, 50, 25, 25.0, 0, 0, 0, 0, 0, 1200, true));
    CellEvidence pin =
        EvidenceLine.parse(
            "frame_size=60B interval=5ms frames=269: 67.25 frames/read; 2.0 releases per stream of 66 frames (p10 66, p90 66); the oldest frame waited 453.8 ms (p10 453.8, p90 465.4); 318.8 ms between releases (p10 318.8, p90 318.8); 16 B per frame on the wire, 1087 B per release (p10 1087, p90 1094); the first frame waited 476.9 ms (gzip: compressed bytes as received)");
    CompressorFlushFit.Fitted f =
        CompressorFlushFit.fit(
            accepting,
            List.of(pin),
            CompressorFlushFit.Flush.INPUT,
            TriggerKind.PERIODIC_TIMER,
            159.5,
            true);
    assertThat(f).isNotNull();
    assertThat(f.value()).as(f.toString()).isGreaterThan(3900).isLessThanOrEqualTo(3960);
  }
}
