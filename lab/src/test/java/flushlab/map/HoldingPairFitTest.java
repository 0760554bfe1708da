package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import flushlab.map.PairSimulation.Kind;
import flushlab.map.PairSimulation.Stage;
import flushlab.netpath.NetworkPath;
import flushlab.relay.shaper.ByteThreshold;
import flushlab.relay.shaper.ShaperRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A threshold and a timer in series, simulated on the frames each cell sent, and found again from
 * what that shows.
 */
class HoldingPairFitTest {
  /**
   * A cell as the meter would have read the simulated stream: its releases' frames and oldest waits
   * at the median.
   */
  static CellEvidence measured(
      double frameBytes, double intervalMs, int frames, Stage first, Stage second) {
    CellEvidence plan = TriggerInferenceTest.streamed(frameBytes, intervalMs, frames);
    Simulated s = PairSimulation.simulate(plan, first, second);
    double r = Math.max(1, s.framesP50());
    return new CellEvidence(
        plan.label(),
        frameBytes,
        frameBytes - 6,
        intervalMs,
        frames,
        1,
        r,
        s.releases(),
        r,
        s.waitP50() - 0.2,
        s.waitP50(),
        s.waitP50() + 0.3,
        s.gapP50(),
        s.gapP50(),
        s.gapP50(),
        s.firstWaitMs(),
        s.drained(),
        null);
  }

  /** The map's first two cells: 60 B and 4 KiB frames every 2 ms, 600 a stream. */
  private static final double[] SMALL_FAST = {66, 2, 600};

  private static final double[] LARGE_FAST = {4104, 2, 600};

  /**
   * Cells as the meter would have read {@code first} then {@code second}: each plan its frame's
   * wire bytes, interval (ms) and frames per stream.
   */
  static List<CellEvidence> measured(Stage first, Stage second, double[]... plans) {
    List<CellEvidence> out = new ArrayList<>();
    for (double[] p : plans) out.add(measured(p[0], p[1], (int) p[2], first, second));
    return out;
  }

  /**
   * `timer=81ms -> byte-threshold=3944B` at 60 B every 2 ms: each 81 ms batch (about 41 frames,
   * 2706 B) is short of the threshold, so two go together: about 82 frames a release, the oldest
   * waiting two holds.
   */
  @Test
  void aHoldInFrontOfAThresholdReleasesTwoOfItsBatchesAtATime() {
    Simulated s =
        PairSimulation.simulate(
            TriggerInferenceTest.streamed(66, 2, 600),
            new Stage(Kind.HOLD, 81),
            new Stage(Kind.THRESHOLD, 3944));
    assertThat(s.framesP50()).isBetween(80.0, 84.0);
    assertThat(s.waitP50()).isBetween(160.0, 166.0);
    Simulated large =
        PairSimulation.simulate(
            TriggerInferenceTest.streamed(4104, 2, 600),
            new Stage(Kind.HOLD, 81),
            new Stage(Kind.THRESHOLD, 3944));
    assertThat(large.waitP50())
        .as("4 KiB frames pass the threshold with each batch: the hold alone")
        .isBetween(79.0, 83.0);
  }

  /**
   * A clock ticking every 218 ms behind a 5211 B threshold: each release waits for the next tick
   * after the threshold filled.
   */
  @Test
  void aThresholdInFrontOfAClockWaitsForItsTick() {
    Simulated s =
        PairSimulation.simulate(
            TriggerInferenceTest.streamed(4104, 2, 600),
            new Stage(Kind.THRESHOLD, 5211),
            new Stage(Kind.PERIODIC, 218));
    assertThat(s.framesP50()).isBetween(100.0, 115.0);
    assertThat(s.waitP50()).isLessThanOrEqualTo(220.0);
  }

  /**
   * A hold behind a clock counts from when its first byte came from upstream, as the lab's relay
   * runs a chain: at 60 B every 2 ms, each tick's batch began ~106 ms before it reached a 97 ms
   * hold, so it leaves with the tick (the oldest frame waits one period, not a period and the
   * hold).
   */
  @Test
  void aHoldBehindAClockCountsFromTheFirstBytesArrival() {
    Simulated s =
        PairSimulation.simulate(
            TriggerInferenceTest.streamed(66, 2, 600),
            new Stage(Kind.PERIODIC, 108),
            new Stage(Kind.HOLD, 97));
    assertThat(s.waitP50()).isBetween(104.0, 110.0);
    assertThat(ChainStages.text(new Stage(Kind.PERIODIC, 108)))
        .isEqualTo("timer=108ms,periodic=true");
    assertThat(ChainStages.text(new Stage(Kind.HOLD, 99.94))).isEqualTo("timer=99.9ms");
  }

  /**
   * The cells such a pair shows give it back as a candidate, each value within 10 %, and nothing
   * held gives none. (A cell that holds its whole stream to the end bounds a threshold only from
   * below: 25 frames of 66 B every 50 ms say nothing of a threshold between 1650 B and the hold's
   * batch of the fast cell, so the slow cell here is three times longer, as the map measures one
   * released once.)
   */
  @Test
  void thePairIsFoundFromTheCellsItShows() {
    Stage hold = new Stage(Kind.HOLD, 120);
    Stage threshold = new Stage(Kind.THRESHOLD, 3000);
    List<CellEvidence> cells =
        measured(
            hold,
            threshold,
            SMALL_FAST,
            LARGE_FAST,
            new double[] {66, 50, 75},
            new double[] {1024, 10, 120});
    List<TwoStageCandidate> found = HoldingPairFit.candidates("x", cells, NetworkPath.LOOPBACK);
    assertThat(found)
        .extracting(TwoStageCandidate::chain)
        .anyMatch(c -> c.matches("timer=([0-9.]+)ms -> byte-threshold=(\\d+)B"));
    TwoStageCandidate pair =
        found.stream()
            .filter(c -> c.chain().startsWith("timer=") && !c.chain().contains("periodic"))
            .findFirst()
            .orElseThrow();
    assertThat(pair.answer().timerMs()).isBetween(108.0, 132.0);
    assertThat(pair.answer().thresholdBytes()).isBetween(2700.0, 3300.0);
    assertThat(pair.answer().kind()).isEqualTo(TriggerKind.TIMER);
    assertThat(pair.answer().then()).isEqualTo(TriggerKind.BYTE_THRESHOLD);

    List<CellEvidence> streamed =
        List.of(
            TriggerInferenceTest.streamed(66, 2, 600), TriggerInferenceTest.streamed(66, 50, 25));
    assertThat(HoldingPairFit.candidates("x", streamed, NetworkPath.LOOPBACK))
        .as("nothing held, no pair")
        .isEmpty();
  }

  /**
   * A threshold no cell's batches come near is bounded, not measured: every value between the
   * batches that fall short and those that cross it simulates alike. The fit takes the middle of
   * those, not the lowest, which the relay's batches (a frame longer than the simulation's) crossed
   * a hold early (`timer=196ms -> byte-threshold=6338B` fitted as 5393 B and refused; a chain
   * bench, 2026-12-05).
   */
  @Test
  void aThresholdTheCellsOnlyBoundIsTakenFromTheMiddleOfWhatTheyAllow() {
    // the map's cells of that chain: the 50 ms cell held whole, so its 10 ms one three times longer
    List<CellEvidence> cells =
        measured(
            new Stage(Kind.HOLD, 196),
            new Stage(Kind.THRESHOLD, 6338),
            SMALL_FAST,
            LARGE_FAST,
            new double[] {66, 10, 360},
            new double[] {1031, 20, 60});
    TwoStageCandidate pair =
        HoldingPairFit.candidates("x", cells, NetworkPath.LOOPBACK).stream()
            .filter(c -> c.chain().matches("timer=[0-9.]+ms -> byte-threshold=\\d+B"))
            .findFirst()
            .orElseThrow();
    Stage[] chosen = ChainStages.of(pair.chain());
    List<Double> allowed = new ArrayList<>();
    for (double b : HoldingPairFit.BYTES) {
      Stage t = new Stage(Kind.THRESHOLD, b);
      if (cells.stream()
          .allMatch(c -> SimulatedCell.matches(c, PairSimulation.simulate(c, chosen[0], t))))
        allowed.add(b);
    }
    System.out.println(
        "HoldingPairFitTest: " + pair.chain() + "; thresholds allowed with its timer: " + allowed);
    assertThat(allowed).hasSizeGreaterThan(2);
    assertThat(chosen[1].value())
        .as("neither end of %s", allowed)
        .isGreaterThan(allowed.get(0) + 1)
        .isLessThan(allowed.get(allowed.size() - 1) - 1);
  }

  /**
   * Two models that reproduced every measured cell alike (`timer=81ms -> byte-threshold=3944B` was
   * answered so): the simulation names a cell on which they part, which the answer asks to measure;
   * none for one chain against itself or a chain this fit does not give.
   */
  @Test
  void twoPairsThatReplayedAlikeAreToldApartByASimulatedCell() {
    CellPlan telling =
        PairTellingCell.tellingCell(
            "timer=82.1ms -> byte-threshold=3643B",
            "timer=85.4ms,periodic=true -> byte-threshold=3941B");
    assertThat(telling).isNotNull();
    CellEvidence cell =
        TriggerInferenceTest.streamed(
            telling.frameSizeBytes() + 6, telling.intervalNanos() / 1e6, telling.frames());
    Simulated a =
        PairSimulation.simulate(cell, new Stage(Kind.HOLD, 82.1), new Stage(Kind.THRESHOLD, 3643));
    Simulated b =
        PairSimulation.simulate(
            cell, new Stage(Kind.PERIODIC, 85.4), new Stage(Kind.THRESHOLD, 3941));
    assertThat(
            Math.abs(a.waitP50() - b.waitP50()) > 5 || Math.abs(a.framesP50() - b.framesP50()) > 1)
        .as(telling + ": " + a + " / " + b)
        .isTrue();
    assertThat(
            PairTellingCell.tellingCell(
                "timer=82.1ms -> byte-threshold=3643B", "timer=82.1ms -> byte-threshold=3643B"))
        .isNull();
    assertThat(
            PairTellingCell.tellingCell(
                "byte-threshold=3003B -> nagle", "timer=82.1ms -> byte-threshold=3643B"))
        .isNull();
  }

  /**
   * One-late in front of a 256 ms hold against a clock then that hold (`one-late -> timer=251ms`,
   * answered with both alike in a fresh-clone suite, 2026-12-06): frames 300 ms apart wait 300 ms
   * through the first and 256 through the second, within the replay's 15 %, so no cell up to 300 ms
   * tells them; one of 400 ms does.
   */
  @Test
  void aLongHoldWithOneLateInFrontIsToldFromAClockThenTheHoldBySlowerFrames() {
    String oneLate = "one-late -> timer=256ms";
    String clock = "timer=82.1ms,periodic=true -> timer=256ms";
    assertThat(PairTellingCell.tellingCell(oneLate, clock, HoldingPairFit.TELLING_INTERVALS_MS))
        .isNull();
    CellPlan telling = PairTellingCell.tellingCell(oneLate, clock);
    assertThat(telling).isNotNull();
    assertThat(telling.intervalNanos() / 1e6).isGreaterThanOrEqualTo(400);
    waitsPartOn(
        telling,
        new Stage[] {new Stage(Kind.ONE_LATE, 0), new Stage(Kind.HOLD, 256)},
        new Stage[] {new Stage(Kind.PERIODIC, 82.1), new Stage(Kind.HOLD, 256)});
  }

  /**
   * The two pairs' oldest waits on {@code telling}, simulated, lie more than the replay's 15 %
   * apart.
   */
  private static void waitsPartOn(CellPlan telling, Stage[] x, Stage[] y) {
    CellEvidence cell =
        TriggerInferenceTest.streamed(
            telling.frameSizeBytes() + 6, telling.intervalNanos() / 1e6, telling.frames());
    Simulated a = PairSimulation.simulate(cell, x[0], x[1]);
    Simulated b = PairSimulation.simulate(cell, y[0], y[1]);
    assertThat(Math.abs(a.waitP50() - b.waitP50()))
        .as(telling + ": " + a + " / " + b)
        .isGreaterThan(0.15 * Math.max(a.waitP50(), b.waitP50()));
  }

  /**
   * A hold and a clock in front of the cork (`timer=219ms -> cork` was answered with both alike,
   * `timer=210.4ms -> cork` and `timer=246.1ms,periodic=true -> cork`, 2026-12-05): frames 100 ms
   * apart or closer show them alike; slower ones part them, since the hold waits its whole length
   * for every frame and the clock only the rest of its period. The telling cell is a slow one, of a
   * dozen frames or more.
   */
  @Test
  void aHoldAndAClockInFrontOfTheCorkArePartedByFramesFurtherApart() {
    String hold = "timer=210.4ms -> cork";
    String clock = "timer=246.1ms,periodic=true -> cork";
    assertThat(PairTellingCell.tellingCell(hold, clock, new long[] {2, 5, 10, 20, 50, 100}))
        .isNull();
    CellPlan telling = PairTellingCell.tellingCell(hold, clock);
    assertThat(telling).isNotNull();
    assertThat(telling.intervalNanos() / 1e6).isGreaterThan(100);
    assertThat(telling.frames()).isGreaterThanOrEqualTo(12);
    waitsPartOn(
        telling,
        new Stage[] {new Stage(Kind.HOLD, 210.4), new Stage(Kind.CORK, 210)},
        new Stage[] {new Stage(Kind.PERIODIC, 246.1), new Stage(Kind.CORK, 210)});
  }

  /**
   * A hold timer writing into the cork faster than its ceiling: the cells `flushlab map --shape
   * 'timer=126ms -> cork'` measured (every other write met a socket still corked: 60 B every 2 ms
   * released every 256.1 ms, the oldest frame waiting 336.0 ms; 4 KiB frames filled segments and
   * left with each write), which no single mechanism and no pair without the cork explains. The
   * pair with the cork second gives the hold back within 10 %, and names the cork in front alike
   * (the cork is the socket's); off loopback, whose segment the simulation knows, no cork pair is
   * tried.
   */
  @Test
  void aHoldFasterThanTheCorksCeilingIsFoundWithTheCork() {
    List<CellEvidence> cells =
        List.of(
            cell(66, 2, 600, 120.0, 3, 128, 336.0, 256.1, 335.7, 8455),
            cell(4104, 2, 600, 15.39, 8, 64, 145.9, 127.9, 129.4, 262015),
            cell(66, 50, 25, 6.25, 2, 6, 336.0, 300.2, 328.4, 396),
            cell(66, 10, 120, 24.0, 3, 26, 336.0, 260.0, 327.9, 1716),
            cell(1031, 20, 60, 12.0, 2, 14, 333.1, 280.0, 333.1, 14439));
    List<TwoStageCandidate> found = HoldingPairFit.candidates("x", cells, NetworkPath.LOOPBACK);
    TwoStageCandidate corked = candidate(found, "timer=[0-9.]+ms -> cork", "no hold then cork");
    assertThat(corked.answer().timerMs()).isBetween(113.0, 139.0);
    assertThat(corked.answer().then()).isEqualTo(TriggerKind.CORK);
    assertThat(ShaperModel.of(corked.answer()).chain()).isEqualTo(corked.chain());
    assertThat(ShaperModel.of(corked.answer()).alike())
        .containsExactly(corked.chain().replaceFirst("(.*) -> cork", "cork -> $1"));
    assertThat(HoldingPairFit.candidates("x", cells, NetworkPath.veth(1500)))
        .extracting(TwoStageCandidate::chain)
        .noneMatch(c -> c.contains("cork"));
  }

  /**
   * The cells the map measured of `one-late -> byte-threshold=2565B` (a map at 17:59 on
   * 2026-12-05), the last one asked for because the first read as a threshold: 4 KiB frames 50 ms
   * apart, which the threshold alone lets go at once, each waited 50.1 ms, one interval. No one
   * mechanism explains that; one-late in front of the threshold does, within 5 %.
   */
  @Test
  void framesOverTheThresholdThatWaitAnIntervalAreOneLateInFrontOfIt() {
    List<CellEvidence> cells =
        List.of(
            cell(66, 2, 600, 37.5, 14, 39, 78.0, 78.1, 74.1, 2575),
            cell(4104, 2, 600, 1.0, 595, 1, 2.0, 2.0, 2.1, 4107),
            TriggerInferenceTest.drained(66, 50, 25),
            cell(4104, 50, 25, 1.04, 22, 1, 50.1, 50.0, 50.1, 4107));
    FlushTrigger single = TriggerInference.infer("x", cells);
    assertThat(single.kind()).as(single.verdict()).isNotEqualTo(TriggerKind.BYTE_THRESHOLD);
    List<TwoStageCandidate> found = HoldingPairFit.candidates("x", cells, NetworkPath.LOOPBACK);
    System.out.println(found.stream().map(TwoStageCandidate::chain).toList());
    TwoStageCandidate oneLate =
        candidate(found, "one-late -> byte-threshold=\\d+B", "no one-late then threshold");
    Matcher m = Pattern.compile("byte-threshold=(\\d+)B").matcher(oneLate.chain());
    assertThat(m.find()).isTrue();
    assertThat(Double.parseDouble(m.group(1))).isBetween(2565 * 0.95, 2565 * 1.05);
  }

  /**
   * A threshold behind a clock that every other tick's batch falls short of leaves with the next:
   * its median release is still one tick's, but a read carries more frames on average, as the
   * replay compares them (`timer=212ms,periodic=true -> byte-threshold=7536B`, 1 KiB every 20 ms:
   * 10.00 frames per read on the target, 15.00 on a model whose threshold was 10505 B). A
   * simulation that matches the median alone let that threshold be fitted; one that holds the reads
   * too does not, and keeps one every tick's batch passes.
   */
  @Test
  void aThresholdEveryOtherTicksBatchFallsShortOfReadsMoreFramesAtOnce() {
    CellEvidence c = cell(1031, 20, 60, 10.0, 4, 11, 201.0, 212.5, 211.2, 11343);
    Stage clock = new Stage(Kind.PERIODIC, 210.4);
    Simulated over = PairSimulation.simulate(c, clock, new Stage(Kind.THRESHOLD, 10505));
    Simulated under = PairSimulation.simulate(c, clock, new Stage(Kind.THRESHOLD, 7381));
    assertThat(over.framesPerBatch()).as(over.toString()).isGreaterThan(under.framesPerBatch());
    assertThat(SimulatedCell.matches(c, over)).as(over.toString()).isFalse();
    assertThat(SimulatedCell.matches(c, under)).as(under.toString()).isTrue();
  }

  /**
   * The six cells the map measured of `timer=52ms -> cork` (a map at 17:41 on 2026-12-05), the 1536
   * B one asked for because the first four read as a threshold of two segments: each 52 ms hold
   * writes 40-107 KB, the cork sends the whole segments at once and keeps the tail for the next
   * write, so releases are a segment or two, the oldest frame's wait a write longer than the hold.
   * The hold, then the cork, is found within 10 % of 52 ms; sent whole, as if the cork kept no
   * tail, the 4 KiB cell's waits (68.9 ms) were the hold's alone and no pair matched.
   */
  @Test
  void aHoldWritingMoreThanASegmentIntoTheCorkKeepsTheTailForItsNextWrite() {
    List<CellEvidence> cells =
        List.of(
            cell(66, 2, 600, 100.0, 4, 108, 262.1, 216.0, 264.0, 7131),
            cell(4104, 2, 600, 15.39, 20, 32, 68.9, 54.0, 52.8, 131007),
            cell(66, 50, 25, 5.0, 3, 6, 264.3, 300.2, 264.2, 396),
            cell(1543, 2, 600, 37.5, 14, 42, 104.1, 54.1, 52.0, 65503),
            cell(66, 10, 120, 24.0, 3, 24, 265.9, 244.1, 253.8, 1584),
            cell(1031, 20, 60, 12.0, 3, 12, 261.8, 236.1, 261.8, 12375));
    List<TwoStageCandidate> found = HoldingPairFit.candidates("x", cells, NetworkPath.LOOPBACK);
    System.out.println(found.stream().map(TwoStageCandidate::chain).toList());
    TwoStageCandidate corked = candidate(found, "timer=[0-9.]+ms -> cork", "no hold then cork");
    assertThat(corked.answer().timerMs()).isBetween(52 * 0.95, 52 * 1.05);
  }

  /**
   * The five cells the map measured of `timer=153ms,periodic=true -> one-late` (a map at 09:37 on
   * 2026-12-05): every release waits two ticks. A hold behind a hold twice as long releases alike
   * on these steady streams, so it must not be the only pair the simulation offers (a fresh-clone
   * suite saw it given, verified, when the one-late reading offered nothing): the clock then
   * one-late is among the candidates, found within 5 %, before the two holds.
   */
  @Test
  void aClockThenOneLateIsSimulatedBesideTheTwoHoldsThatMimicIt() {
    List<CellEvidence> cells =
        List.of(
            cell(66, 2, 600, 85.71, 5, 77, 305.8, 153.4, 304.7, 5083),
            cell(4104, 2, 600, 15.0, 5, 77, 305.8, 153.5, 314.9, 316159),
            cell(66, 50, 25, 3.13, 5, 3, 265.6, 153.5, 305.5, 198),
            cell(66, 10, 120, 17.14, 5, 15, 302.1, 153.4, 302.1, 990),
            cell(1031, 20, 60, 8.57, 5, 8, 295.0, 153.5, 301.8, 8255));
    List<String> chains =
        HoldingPairFit.candidates("x", cells, NetworkPath.LOOPBACK).stream()
            .map(TwoStageCandidate::chain)
            .toList();
    System.out.println("HoldingPairFitTest: a clock then one-late's cells simulate as " + chains);
    String clock =
        chains.stream()
            .filter(c -> c.matches("timer=[0-9.]+ms,periodic=true -> one-late"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no clock then one-late among " + chains));
    assertThat(ChainStages.of(clock)[0].value()).isBetween(145.4, 160.7);
    int twoHolds =
        chains.indexOf(
            chains.stream()
                .filter(c -> c.matches("timer=[0-9.]+ms -> timer=[0-9.]+ms"))
                .findFirst()
                .orElse(null));
    assertThat(twoHolds).as("%s", chains).isNotZero();
    if (twoHolds > 0) assertThat(chains.indexOf(clock)).isLessThan(twoHolds);
  }

  /**
   * `timer=107ms,periodic=true -> cork` as a browser's map measured it (`flushlab map --shape
   * 'timer=107ms,periodic=true' --shape cork --client browser`, 2026-12-06): the 4 KiB cell's
   * releases came every 107.3 ms, one tick each, as the clock writes more than a segment a tick;
   * the small frames' waited for the cork's ceiling. Fitted on sizes and waits, the clock was 116.8
   * ms, verified 6 of 6 cells (a chain bench); the steady pace reads it within 5 %.
   */
  @Test
  void aClockInFrontOfTheCorkIsReadOffTheStepsOfItsSteadyCell() {
    List<CellEvidence> cells =
        List.of(
            EvidenceLine.parse(
                "frame_size=60B interval=2ms frames=600: 120.00 frames/read; 3.0 releases per stream of 107 frames (p50); the oldest frame waited 317.8 ms (p10 316.0, p90 357.9); 256.1 ms between releases (p10 216.1, p90 280.0); 66 B per frame on the wire, 7063 B per release (p10 7063, p90 10631); the first frame waited 316.0 ms"),
            EvidenceLine.parse(
                "frame_size=4096B interval=2ms frames=600: 15.39 frames/read; 10.0 releases per stream of 48 frames (p50); the oldest frame waited 120.2 ms (p10 109.0, p90 131.6); 107.3 ms between releases (p10 107.3, p90 107.4); 4104 B per frame on the wire, 196479 B per release (p10 196479, p90 262015); the first frame waited 107.0 ms"),
            EvidenceLine.parse(
                "frame_size=60B interval=50ms frames=25: 5.00 frames/read; 3.0 releases per stream of 5 frames (p50); the oldest frame waited 313.4 ms (p10 301.3, p90 317.3); 256.1 ms between releases (p10 216.1, p90 288.1); 66 B per frame on the wire, 330 B per release (p10 264, p90 396); the first frame waited 307.3 ms"),
            EvidenceLine.parse(
                "frame_size=60B interval=10ms frames=120: 24.00 frames/read; 3.0 releases per stream of 22 frames (p50); the oldest frame waited 316.2 ms (p10 314.1, p90 346.1); 256.1 ms between releases (p10 212.1, p90 288.1); 66 B per frame on the wire, 1452 B per release (p10 1386, p90 2113); the first frame waited 310.2 ms"),
            EvidenceLine.parse(
                "frame_size=1024B interval=20ms frames=60: 12.00 frames/read; 3.0 releases per stream of 11 frames (p50); the oldest frame waited 306.8 ms (p10 306.8, p90 342.7); 256.0 ms between releases (p10 216.0, p90 284.2); 1031 B per frame on the wire, 11343 B per release (p10 11343, p90 16511); the first frame waited 310.7 ms"));
    List<TwoStageCandidate> found = HoldingPairFit.candidates("x", cells, NetworkPath.LOOPBACK);
    TwoStageCandidate clock =
        candidate(found, "timer=[0-9.]+ms,periodic=true -> cork", "a clock then the cork");
    double period = clock.answer().timerMs();
    assertThat(period).as(clock.chain()).isBetween(107 * 0.95, 107 * 1.05);
  }

  /**
   * `timer=96ms,periodic=true -> byte-threshold=1234B` as a map measured it (`flushlab map --shape
   * 'timer=96ms,periodic=true' --shape byte-threshold=1234B`, 2026-12-06): ticks of about two 66 B
   * frames every 50 ms reach the threshold at 19 frames, which bounds it to 1123..1254 B, and every
   * value there fits alike but for where the clock's ticks fell. The grid's best was 1123 B, 9 %
   * off; the middle of the span is given.
   */
  @Test
  void aThresholdBehindAClockIsTheMiddleOfTheSpanItsCellsAllow() {
    List<CellEvidence> cells =
        List.of(
            EvidenceLine.parse(
                "frame_size=60B interval=2ms frames=600: 46.15 frames/read; 11.0 releases per stream of 48 frames (p10 48, p90 49); the oldest frame waited 95.0 ms (p10 94.3, p90 96.0); 96.2 ms between releases (p10 96.2, p90 96.3); 66 B per frame on the wire, 3169 B per release (p10 3169, p90 3235); the first frame waited 95.7 ms"),
            EvidenceLine.parse(
                "frame_size=4096B interval=2ms frames=600: 12.00 frames/read; 11.0 releases per stream of 48 frames (p10 48, p90 49); the oldest frame waited 95.9 ms (p10 95.1, p90 96.4); 96.5 ms between releases (p10 96.4, p90 96.6); 4104 B per frame on the wire, 197119 B per release (p10 197119, p90 201215); the first frame waited 96.2 ms"),
            EvidenceLine.parse(
                "frame_size=60B interval=10ms frames=120: 17.14 frames/read; 5.0 releases per stream of 19 frames (p10 19, p90 20); the oldest frame waited 186.2 ms (p10 183.1, p90 190.8); 192.3 ms between releases (p10 192.3, p90 192.4); 66 B per frame on the wire, 1254 B per release (p10 1254, p90 1320); the first frame waited 191.8 ms"),
            EvidenceLine.parse(
                "frame_size=1024B interval=20ms frames=60: 4.62 frames/read; 11.0 releases per stream of 5 frames (p10 4, p90 5); the oldest frame waited 85.3 ms (p10 77.8, p90 93.0); 96.2 ms between releases (p10 96.2, p90 96.3); 1031 B per frame on the wire, 5155 B per release (p10 4127, p90 5155); the first frame waited 95.6 ms"),
            EvidenceLine.parse(
                "frame_size=60B interval=50ms frames=73: 18.25 frames/read; 2.0 releases per stream of 19 frames (p10 19, p90 19); the oldest frame waited 926.4 ms (p10 926.4, p90 937.9); 961.5 ms between releases (p10 961.5, p90 961.5); 66 B per frame on the wire, 1254 B per release (p10 1254, p90 1254); the first frame waited 865.0 ms"));
    TwoStageCandidate pair =
        candidate(
            HoldingPairFit.candidates("x", cells, NetworkPath.LOOPBACK),
            "timer=[0-9.]+ms,periodic=true -> byte-threshold=[0-9]+B",
            "a clock then a threshold");
    assertThat(pair.answer().thresholdBytes()).as(pair.chain()).isBetween(1234 * 0.95, 1234 * 1.05);
    assertThat(pair.answer().timerMs()).as(pair.chain()).isBetween(96 * 0.95, 96 * 1.05);
  }

  /**
   * The relay's shapers count the response head with the first frames (it reads the head from
   * upstream as bytes like any other), so a threshold's first release of a stream carries fewer
   * frames: the map's cell above, 60 B every 50 ms through a 96 ms clock then 1234 B, gave its
   * first frame after 865 ms (17 frames and the head), its later releases 19 frames each.
   */
  @Test
  void aThresholdsFirstReleaseOfAStreamHoldsTheHead() {
    CellEvidence cell =
        EvidenceLine.parse(
            "frame_size=60B interval=50ms frames=73: 18.25 frames/read; 2.0 releases per stream of 19 frames (p10 19, p90 19); the oldest frame waited 926.4 ms (p10 926.4, p90 937.9); 961.5 ms between releases (p10 961.5, p90 961.5); 66 B per frame on the wire, 1254 B per release (p10 1254, p90 1254); the first frame waited 865.0 ms");
    Simulated sim =
        PairSimulation.simulate(
            cell,
            new PairSimulation.Stage(PairSimulation.Kind.PERIODIC, 96),
            new PairSimulation.Stage(PairSimulation.Kind.THRESHOLD, 1234));
    assertThat(sim.firstWaitMs()).isCloseTo(865.0, within(20.0));
    assertThat(sim.framesP50()).isEqualTo(19);
  }

  /**
   * `byte-threshold=4698B -> byte-threshold=6266B` as a browser's map measured it (`flushlab map
   * --shape byte-threshold=4698B --shape byte-threshold=6266B --client browser`, 2026-12-06, the
   * drained cells left out): the second buffer gathers two of the first's writes of 72 frames of 66
   * B and of 5 of 1031 B, and one of 2 of 4104 B, which no one threshold does. Two thresholds are a
   * pair the simulation tries: the first is read within 5 %, the second within what the cells allow
   * (5155 to 8208 B).
   */
  @Test
  void twoBuffersInSeriesAreAPairOfThresholds() {
    List<CellEvidence> cells = twoBuffersMeasured();
    TwoStageCandidate pair =
        candidate(
            HoldingPairFit.candidates("x", cells, NetworkPath.LOOPBACK),
            "byte-threshold=[0-9]+B -> byte-threshold=[0-9]+B",
            "two thresholds");
    List<ShaperRegistry.Spec> stages = ShaperRegistry.parseChain(pair.chain());
    assertThat(stages.get(0).values().get(ByteThreshold.BYTES.key()))
        .as(pair.chain())
        .isBetween((long) (4698 * 0.95), (long) (4698 * 1.05));
    assertThat(stages.get(1).values().get(ByteThreshold.BYTES.key()))
        .as(pair.chain())
        .isBetween(5155L, 8208L);
    assertThat(pair.answer().timerMs()).as("no timer in two buffers").isNull();
    // the second is as loose as the cells leave it, and the answer says so
    assertThat(pair.answer().verdict())
        .containsPattern(
            "its second threshold fits every cell alike anywhere in 5[0-9]{3}\\.\\.8[0-9]{3} B")
        .doesNotContain("its first threshold");
  }

  /** The drained cells of that map are left out: an evidence line of a held cell is what parses. */
  private static List<CellEvidence> twoBuffersMeasured() {
    return List.of(
        EvidenceLine.parse(
            "frame_size=60B interval=2ms frames=600: 120.00 frames/read; 3.0 releases per stream of 144 frames (p10 144, p90 144); the oldest frame waited 286.1 ms (p10 286.1, p90 286.4); 288.1 ms between releases (p10 288.1, p90 288.1); 66 B per frame on the wire, 9511 B per release (p10 9511, p90 9511); the first frame waited 280.4 ms"),
        EvidenceLine.parse(
            "frame_size=4096B interval=2ms frames=600: 2.00 frames/read; 298.0 releases per stream of 2 frames (p10 2, p90 2); the oldest frame waited 2.1 ms (p10 2.0, p90 2.2); 4.0 ms between releases (p10 3.9, p90 4.1); 4104 B per frame on the wire, 8215 B per release (p10 8215, p90 8215); the first frame waited 2.4 ms"),
        EvidenceLine.parse(
            "frame_size=1024B interval=20ms frames=60: 10.00 frames/read; 4.0 releases per stream of 10 frames (p10 10, p90 10); the oldest frame waited 180.2 ms (p10 180.2, p90 180.3); 200.0 ms between releases (p10 200.0, p90 200.1); 1031 B per frame on the wire, 10311 B per release (p10 10311, p90 10311); the first frame waited 180.2 ms"),
        EvidenceLine.parse(
            "frame_size=60B interval=2ms frames=1800: 138.46 frames/read; 11.0 releases per stream of 144 frames (p10 144, p90 144); the oldest frame waited 286.1 ms (p10 286.1, p90 286.1); 288.1 ms between releases (p10 288.1, p90 288.1); 66 B per frame on the wire, 9511 B per release (p10 9511, p90 9511); the first frame waited 280.1 ms"));
  }

  /**
   * One-late in front of a hold: each frame reaches the hold one interval late, so a release waits
   * the hold and an interval where frames come far apart (`one-late -> timer=147ms` as a browser
   * was inconclusive with no candidate; mapped since, `one-late -> timer=147.8ms`, verified 5 of 5
   * cells: flushlab map, 2026-12-06). The pair is simulated, and found within 5 %.
   */
  @Test
  void oneLateInFrontOfAHoldIsAPairTheSimulationTries() {
    List<CellEvidence> cells =
        measured(
            new Stage(Kind.ONE_LATE, 0),
            new Stage(Kind.HOLD, 147),
            SMALL_FAST,
            LARGE_FAST,
            new double[] {66, 50, 25},
            new double[] {66, 10, 120},
            new double[] {1031, 20, 60});
    TwoStageCandidate pair =
        candidate(
            HoldingPairFit.candidates("x", cells, NetworkPath.LOOPBACK),
            "one-late -> timer=[0-9.]+ms",
            "one-late then a hold");
    assertThat(pair.answer().timerMs()).as(pair.chain()).isBetween(147 * 0.95, 147 * 1.05);
  }

  /**
   * The accepting client's cells of `compress=gzip,flush=timer,after=158ms ->
   * timer=200ms,periodic=true` as a map measured them (`flushlab map --shape ... --client browser
   * --no-verify`, 2026-12-06, the sizes of its releases and the time between them included): the
   * clock's ticks carry one or two of the compressor's flushes (80 or 160 frames of 2 ms), so the
   * oldest frame's waits spread 200-320 ms over the drifting phases.
   */
  static List<CellEvidence> compressorBeforeAClock() {
    return List.of(
        EvidenceLine.parse(
            "frame_size=60B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 80 frames (p50); the oldest frame waited 239.3 ms (p10 200.1, p90 319.9); 200.3 ms between releases (p10 200.3, p90 200.3); 16 B per frame on the wire, 1311 B per release (p10 1288, p90 2581); the first frame waited 199.2 ms (gzip: compressed bytes as received)"),
        EvidenceLine.parse(
            "frame_size=4096B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 80 frames (p50); the oldest frame waited 239.6 ms (p10 200.1, p90 320.2); 200.3 ms between releases (p10 200.1, p90 200.4); 31 B per frame on the wire, 2473 B per release (p10 2463, p90 4943); the first frame waited 199.5 ms (gzip: compressed bytes as received)"),
        EvidenceLine.parse(
            "frame_size=60B interval=50ms frames=25: 4.17 frames/read; 4.0 releases per stream of 4 frames (p50); the oldest frame waited 200.1 ms (p10 199.7, p90 200.6); 200.3 ms between releases (p10 200.3, p90 200.4); 25 B per frame on the wire, 104 B per release (p10 103, p90 108); the first frame waited 199.5 ms (gzip: compressed bytes as received)"),
        EvidenceLine.parse(
            "frame_size=60B interval=10ms frames=120: 20.00 frames/read; 4.0 releases per stream of 16 frames (p50); the oldest frame waited 239.7 ms (p10 200.5, p90 320.2); 200.4 ms between releases (p10 200.1, p90 200.4); 18 B per frame on the wire, 289 B per release (p10 289, p90 569); the first frame waited 199.3 ms (gzip: compressed bytes as received)"),
        EvidenceLine.parse(
            "frame_size=1024B interval=20ms frames=60: 10.00 frames/read; 4.0 releases per stream of 8 frames (p50); the oldest frame waited 241.4 ms (p10 200.0, p90 319.9); 200.3 ms between releases (p10 198.3, p90 202.6); 27 B per frame on the wire, 228 B per release (p10 227, p90 435); the first frame waited 198.7 ms (gzip: compressed bytes as received)"));
  }

  /**
   * A compressor on a timer in front of a clock: simulated, its timer is found within 5 %. The
   * median of the simulated releases is the lower one, as the meter's histograms give it: with the
   * upper one the waits of 200, 240, 280 and 320 ms read 280 against the measured 239 and the
   * hidden timer was refused for a 60 ms one, which the replay refused (2026-12-05).
   */
  @Test
  void aCompressorOnATimerInFrontOfAClockIsFoundWithinFivePercent() {
    fittedInFrontOfAClockWithinFivePercent(
        compressorBeforeAClock(), CompressorFlushFit.Flush.TIMER, 200.3, 158);
    assertThat(
            CompressorFlushFit.compressorFlush(
                compressorBeforeAClock(),
                CompressorFlushFit.Flush.TIMER,
                TriggerKind.NAGLE,
                0,
                true))
        .as("only a hold or a clock is simulated beside the compressor")
        .isNull();
  }

  /**
   * Both orders of a compressor on a timer and a clock replayed alike on every cell of
   * `compress=gzip,flush=timer,after=158ms -> timer=200ms,periodic=true` (`flushlab map --shape ...
   * --client browser`, 2026-12-05): the simulation names a cell that tells them apart, as it does
   * for two holding stages.
   */
  @Test
  void aCompressorOnATimerEitherSideOfAClockIsToldApartByASimulatedCell() {
    String first = "compress=gzip,flush=timer,after=159.9ms -> timer=200.3ms,periodic=true";
    String after = "timer=200.3ms,periodic=true -> compress=gzip,flush=timer,after=32ms";
    assertThat(ChainStages.of(first)[0]).isEqualTo(new Stage(Kind.FLUSH_TIMER, 159.9));
    assertThat(ChainStages.of("compress=gzip,flush=input,bytes=2716B -> timer=99ms")[0])
        .isEqualTo(new Stage(Kind.FLUSH_INPUT, 2716));
    CellPlan telling = PairTellingCell.tellingCell(first, after);
    System.out.println("HoldingPairFitTest: " + first + " and " + after + " apart at " + telling);
    assertThat(telling).isNotNull();
    CellEvidence plan =
        TriggerInferenceTest.streamed(
            telling.frameSizeBytes() + 6, telling.intervalNanos() / 1e6, telling.frames());
    Simulated a = PairSimulation.simulate(plan, ChainStages.of(first)[0], ChainStages.of(first)[1]);
    Simulated b = PairSimulation.simulate(plan, ChainStages.of(after)[0], ChainStages.of(after)[1]);
    assertThat(Math.abs(a.waitP50() - b.waitP50()))
        .as("%s / %s", a, b)
        .isGreaterThan(0.15 * Math.max(a.waitP50(), b.waitP50()));
  }

  /**
   * The cells a compressor flushing every 2716 B of its input in front of a 199 ms clock shows, as
   * the meter would read the simulated streams (its cells at 60 B and 4 KiB every 2 ms, 60 B every
   * 50 ms and 10 ms, 1 KiB every 20 ms).
   */
  static List<CellEvidence> inputCompressorBeforeAClock() {
    Stage compressor = new Stage(Kind.FLUSH_INPUT, 2716);
    Stage clock = new Stage(Kind.PERIODIC, 199);
    return measured(
            compressor,
            clock,
            SMALL_FAST,
            LARGE_FAST,
            new double[] {66, 50, 25},
            new double[] {66, 10, 120},
            new double[] {1031, 20, 60})
        .stream()
        .map(HoldingPairFitTest::asReceivedInGzip)
        .toList();
  }

  /**
   * The cell as a client that accepts gzip measures it: each frame weighs its compressed bytes (a
   * quarter of its event's here; 60 B events came as 16 B), which no input-byte count may use.
   */
  private static CellEvidence asReceivedInGzip(CellEvidence c) {
    return asReceivedInGzip(c, 4);
  }

  /** The same, each frame {@code ratio} times smaller compressed than its event. */
  private static CellEvidence asReceivedInGzip(CellEvidence c, double ratio) {
    return new CellEvidence(
        c.label(),
        c.bodyBytes() / ratio,
        c.bodyBytes(),
        c.intervalMs(),
        c.framesPerStream(),
        c.streams(),
        c.framesPerRead(),
        c.releasesPerStream(),
        c.releaseFrames(),
        c.waitP10(),
        c.waitP50(),
        c.waitP90(),
        c.gapP10(),
        c.gapP50(),
        c.gapP90(),
        c.firstWaitMs(),
        c.drained(),
        "gzip",
        c.releaseBytesP10() / ratio,
        c.releaseBytesP50() / ratio,
        c.releaseBytesP90() / ratio,
        c.thinkMs(),
        c.keepAliveMs(),
        c.firstBodyMs(),
        c.ttftMs(),
        0,
        0,
        c.framesPerRead());
  }

  /**
   * A compressor flushing every N bytes of its input counts the events' own bytes: fitted beside
   * the clock on the cells it makes, N comes back within 5 % (the map, on the relay itself, gave
   * `compress=gzip,flush=input,bytes=2662B -> timer=199.4ms,periodic=true` for a hidden 2716 B,
   * verified 8 of 8 cells, 2026-12-05).
   */
  @Test
  void aCompressorFlushingEveryNInputBytesInFrontOfAClockIsFoundWithinFivePercent() {
    fittedInFrontOfAClockWithinFivePercent(
        inputCompressorBeforeAClock(), CompressorFlushFit.Flush.INPUT, 199, 2716);
  }

  /**
   * A threshold in front of a compressor that sends once N compressed bytes wait, as `flushlab map
   * --shape 'byte-threshold=4144B -> compress=gzip,flush=bytes,bytes=593B' --client browser`
   * measured the browser's cells (2026-12-05; the plain pass fitted the threshold at 4131 B on the
   * wire, 3755 B of event bodies at 60 B events): each threshold release compresses as one block
   * (63 small events to 1016 B, two large ones to 98 B), so the output count lies between six and
   * seven large releases' bytes (588..686 B) and is fitted there; an input count or a timer matches
   * no such steps. The threshold counts the stream as the relay read it, each 4 KiB event with its
   * chunk framing (4104 B): counted by its 4096 B of body against the 3755 B, each event went alone
   * and the count was fitted at 644 B for a hidden 593, outside the 5 % a model may be off (a chain
   * bench, 2026-12-07).
   */
  @Test
  void aCompressorSendingByItsOutputBehindAThresholdIsFittedWithinWhatTheCellsAllow() {
    List<CellEvidence> cells =
        List.of(
            asReceivedInGzip(cell(66, 2, 600, 60.0, 8, 63, 124.6, 125.6, 123.2, 1016 * 3.75), 3.75),
            asReceivedInGzip(
                cell(4104, 2, 600, 13.64, 42, 14, 26.2, 28.0, 20.3, 689 * 83.6), 83.6));
    Double bytes =
        CompressorFlushFit.compressorFlush(
            cells, CompressorFlushFit.Flush.OUTPUT, TriggerKind.BYTE_THRESHOLD, 4131, false);
    assertThat(bytes).isNotNull();
    assertThat(bytes).isBetween(588.0, 686.0);
    assertThat(bytes).isBetween(593 * 0.95, 593 * 1.05);
  }

  /**
   * A compressor sending by its output in front of a threshold, as `flushlab map --shape
   * 'compress=gzip,flush=bytes,bytes=2977B -> byte-threshold=2834B' --client browser` measured the
   * browser's cells (2026-12-05; the plain pass fitted the threshold at 2805 B on the wire). Behind
   * the compressor the threshold counts the compressed bytes the browser received (28 and 65 B a
   * frame here), so it releases about 2991 B of them at a time; any output count under it does the
   * same, so the fit is bounded by the threshold and says no more (the map then names the models
   * that replay alike).
   */
  @Test
  void aCompressorSendingByItsOutputInFrontOfAThresholdIsBoundedByIt() {
    List<CellEvidence> cells =
        List.of(
            asReceivedInGzip(
                cell(66, 2, 600, 100.0, 4, 108, 214.2, 216.1, 196.5, 2991 * 2.14), 2.14),
            asReceivedInGzip(
                cell(4104, 2, 600, 46.15, 11, 46, 90.2, 92.0, 90.2, 3001 * 63.0), 63.0));
    Double bytes =
        CompressorFlushFit.compressorFlush(
            cells, CompressorFlushFit.Flush.OUTPUT, TriggerKind.BYTE_THRESHOLD, 2805, true);
    assertThat(bytes).isNotNull();
    assertThat(bytes).isLessThanOrEqualTo(2805.0);
  }

  /**
   * The browser's cells of `byte-threshold=1401B -> compress=gzip,flush=timer,after=90ms`, as a map
   * measured them (`--no-verify`, 2026-12-06, the sizes of its releases and the time between them
   * included).
   */
  static List<CellEvidence> compressorBehindAThreshold() {
    return List.of(
        EvidenceLine.parse(
            "frame_size=60B interval=2ms frames=600: 60.00 frames/read; 8.0 releases per stream of 66 frames (p50); the oldest frame waited 132.4 ms (p10 132.3, p90 132.8); 131.9 ms between releases (p10 128.6, p90 132.3); 16 B per frame on the wire, 1081 B per release (p10 1068, p90 1100); the first frame waited 131.9 ms (gzip: compressed bytes as received)"),
        EvidenceLine.parse(
            "frame_size=4096B interval=2ms frames=600: 42.86 frames/read; 12.0 releases per stream of 46 frames (p50); the oldest frame waited 90.2 ms (p10 90.2, p90 90.3); 92.0 ms between releases (p10 91.9, p90 92.1); 31 B per frame on the wire, 1441 B per release (p10 1434, p90 1448); the first frame waited 90.7 ms (gzip: compressed bytes as received)"));
  }

  /**
   * A threshold in front of a compressor on a timer, as `flushlab map --shape 'byte-threshold=1401B
   * -> compress=gzip,flush=timer,after=90ms' --client browser` measured the browser's cells
   * (2026-12-05; the plain pass fitted the threshold at 1290 B of event bodies, 1419 B on the
   * wire). The threshold counts the plain stream's bytes, not the compressed ones the browser read
   * (with those, 60 B events weigh 15 B and a release would wait far longer), and the compressor's
   * timer is found within 5 %.
   */
  @Test
  void aCompressorOnATimerBehindAThresholdIsFoundWithinFivePercent() {
    List<CellEvidence> cells = compressorBehindAThreshold();
    Double after =
        CompressorFlushFit.compressorFlush(
            cells, CompressorFlushFit.Flush.TIMER, TriggerKind.BYTE_THRESHOLD, 1419, false);
    assertThat(after).isNotNull();
    assertThat(after).isBetween(90 * 0.95, 90 * 1.05);
    assertThat(
            CompressorFlushFit.compressorFlush(
                cells, CompressorFlushFit.Flush.TIMER, TriggerKind.BYTE_THRESHOLD, 1419, true))
        .as(
            "the compressor in front of that threshold, which would count compressed bytes, matches none of these cells")
        .isNull();
  }

  /** The compressor's flush fitted in front of a clock of {@code clockMs} is {@code hidden}'s. */
  private static void fittedInFrontOfAClockWithinFivePercent(
      List<CellEvidence> cells, CompressorFlushFit.Flush flush, double clockMs, double hidden) {
    Double value =
        CompressorFlushFit.compressorFlush(cells, flush, TriggerKind.PERIODIC_TIMER, clockMs, true);
    assertThat(value).as(flush.name()).isNotNull();
    assertThat(value).as(flush.name()).isBetween(hidden * 0.95, hidden * 1.05);
  }

  /**
   * The candidate whose chain matches {@code chain}, or a failure that says {@code missing} and
   * lists what was found.
   */
  private static TwoStageCandidate candidate(
      List<TwoStageCandidate> found, String chain, String missing) {
    return found.stream()
        .filter(c -> c.chain().matches(chain))
        .findFirst()
        .orElseThrow(
            () ->
                new AssertionError(
                    missing + " among " + found.stream().map(TwoStageCandidate::chain).toList()));
  }

  private static CellEvidence cell(
      double f,
      double i,
      int frames,
      double perRead,
      double releases,
      double releaseFrames,
      double waitP50,
      double gapP50,
      double firstWait,
      double releaseBytes) {
    return new CellEvidence(
        String.format("f=%.0f i=%.0f", f, i),
        f,
        f - 6,
        i,
        frames,
        1,
        perRead,
        releases,
        releaseFrames,
        waitP50 - 1,
        waitP50,
        waitP50 + 1,
        gapP50 - 1,
        gapP50,
        gapP50 + 1,
        firstWait,
        false,
        null,
        releaseBytes,
        releaseBytes,
        releaseBytes);
  }

  /**
   * `timer=326ms -> cork` as a map beside two busy loops measured it (2026-12-06): the 4 KiB cell's
   * 655 KB writes left the cork in parts (releases of 63 and 655 KB, 159 frames the median), which
   * the simulation splits at a segment's edge of its own; matched by that median, the hold was
   * fitted at 299.5 ms alone of the grid, 8 % short. Matched by its largest release, the hold is
   * fitted from every cell.
   */
  @Test
  void aCellReadInPartsBehindTheCorkIsMatchedByItsLargestRelease() {
    List<CellEvidence> cells =
        List.of(
            new CellEvidence(
                "frame_size=60B interval=2ms frames=600",
                66,
                60,
                2,
                600,
                1,
                150,
                2,
                164,
                530.3,
                530.3,
                534.5,
                324,
                324,
                332.1,
                534.5,
                false,
                null,
                10831,
                10831,
                10831),
            new CellEvidence(
                "frame_size=4096B interval=2ms frames=600",
                4104,
                4096,
                2,
                600,
                1,
                15.39,
                3,
                159,
                238,
                326.6,
                350.2,
                121.1,
                205.9,
                326.4,
                352,
                false,
                null,
                62866,
                654847,
                654847),
            new CellEvidence(
                "frame_size=60B interval=50ms frames=25",
                66,
                60,
                50,
                25,
                1,
                8.33,
                1,
                7,
                535,
                535,
                535,
                356.3,
                356.3,
                356.3,
                529,
                false,
                null,
                462,
                462,
                462));
    TwoStageCandidate hold =
        HoldingPairFit.candidates("relay", cells, NetworkPath.LOOPBACK).stream()
            .filter(c -> c.chain().matches("timer=[0-9.]+ms -> cork"))
            .findFirst()
            .orElseThrow();
    Matcher m = Pattern.compile("timer=([0-9.]+)ms").matcher(hold.chain());
    assertThat(m.find()).isTrue();
    assertThat(Double.parseDouble(m.group(1))).as(hold.chain()).isBetween(0.95 * 326, 1.05 * 326);
  }

  /**
   * Two holds, the cells `flushlab map --shape timer=157ms --shape timer=225ms` measured
   * (2026-12-07): releases every 158 ms, each frame waiting the second hold's 225 ms. The first
   * hold's value is the cadence, which the cells read to a ms or two (156 to 158), and the 4 % grid
   * stepped over it: the only two holds it fitted were 78.9 then 227.6 ms (two of the first's
   * windows to one cadence), and the map named three pairs alike, none the hidden one.
   */
  @Test
  void twoHoldsAreFittedAtTheCadenceTheCellsReadToAMs() {
    List<CellEvidence> cells =
        EvidenceLine.parseAll(
            "frame_size=60B interval=2ms frames=600: 75.00 frames/read; 6.0 releases per stream of 79 frames (p10 78, p90 80); the oldest frame waited 225.2 ms (p10 225.2, p90 225.3); 158.1 ms between releases (p10 157.9, p90 158.3); 66 B per frame on the wire, 5215 B per release (p10 5151, p90 5283); the first frame waited 225.2 ms",
            "frame_size=4096B interval=2ms frames=600: 15.39 frames/read; 6.0 releases per stream of 79 frames (p10 79, p90 80); the oldest frame waited 225.6 ms (p10 225.5, p90 227.7); 158.2 ms between releases (p10 156.6, p90 160.4); 4104 B per frame on the wire, 324351 B per release (p10 324351, p90 328447); the first frame waited 227.4 ms",
            "frame_size=60B interval=50ms frames=25: 4.17 frames/read; 4.0 releases per stream of 4 frames (p10 4, p90 4); the oldest frame waited 225.5 ms (p10 225.3, p90 225.9); 199.6 ms between releases (p10 199.2, p90 200.3); 66 B per frame on the wire, 264 B per release (p10 264, p90 264); the first frame waited 226.5 ms",
            "frame_size=60B interval=10ms frames=120: 15.00 frames/read; 6.0 releases per stream of 16 frames (p10 16, p90 16); the oldest frame waited 225.2 ms (p10 225.2, p90 225.2); 160.0 ms between releases (p10 160.0, p90 160.2); 66 B per frame on the wire, 1056 B per release (p10 1056, p90 1056); the first frame waited 225.2 ms",
            "frame_size=1024B interval=20ms frames=60: 8.57 frames/read; 5.0 releases per stream of 8 frames (p10 8, p90 8); the oldest frame waited 225.3 ms (p10 225.3, p90 225.3); 160.0 ms between releases (p10 158.6, p90 160.2); 1031 B per frame on the wire, 8255 B per release (p10 8255, p90 8255); the first frame waited 226.9 ms");
    Stage[] pair =
        ChainStages.of(
            FittedPairs.matching("157 then 225", cells, "timer=[0-9.]+ms -> timer=[0-9.]+ms")
                .chain());
    assertThat(pair[0].value()).isCloseTo(157, within(157 * 0.05));
    assertThat(pair[1].value()).isCloseTo(225, within(225 * 0.05));
  }

  /**
   * Two clocks, the cells `flushlab map --shape timer=281ms,periodic=true --shape
   * timer=187ms,periodic=true --client browser` measured (2026-12-07): every gap 187.2 ms or twice
   * that. The two clocks were fitted as 256 then 126.4 ms, which ranked above the hidden pair on
   * sizes and waits and ticks at no whole part of the gaps; a clock last must divide the cells'
   * pace ({@link ClockPace}), which also gives the period the 4 % grid passes over.
   */
  @Test
  void aClockLastTicksAtTheCellsPace() {
    List<CellEvidence> cells =
        EvidenceLine.parseAll(
            "frame_size=60B interval=2ms frames=600: 150.00 frames/read; 2.0 releases per stream of 140 frames (p10 140, p90 142); the oldest frame waited 372.7 ms (p10 372.7, p90 467.1); 187.2 ms between releases (p10 187.2, p90 375.9); 66 B per frame on the wire, 9247 B per release (p10 9247, p90 9375); the first frame waited 373.2 ms",
            "frame_size=4096B interval=2ms frames=600: 15.39 frames/read; 3.0 releases per stream of 142 frames (p10 141, p90 142); the oldest frame waited 329.4 ms (p10 325.0, p90 421.4); 188.0 ms between releases (p10 187.4, p90 375.1); 4104 B per frame on the wire, 583167 B per release (p10 579071, p90 583167); the first frame waited 420.4 ms",
            "frame_size=60B interval=50ms frames=25: 6.25 frames/read; 2.0 releases per stream of 5 frames (p10 5, p90 6); the oldest frame waited 334.9 ms (p10 334.9, p90 447.7); 187.3 ms between releases (p10 187.3, p90 374.6); 66 B per frame on the wire, 330 B per release (p10 330, p90 396); the first frame waited 373.2 ms",
            "frame_size=60B interval=10ms frames=120: 30.00 frames/read; 2.0 releases per stream of 28 frames (p10 28, p90 28); the oldest frame waited 366.1 ms (p10 366.1, p90 458.7); 187.3 ms between releases (p10 187.3, p90 374.3); 66 B per frame on the wire, 1848 B per release (p10 1848, p90 1848); the first frame waited 374.5 ms",
            "frame_size=1024B interval=20ms frames=60: 15.00 frames/read; 2.0 releases per stream of 14 frames (p10 14, p90 15); the oldest frame waited 354.6 ms (p10 354.6, p90 467.3); 187.2 ms between releases (p10 187.2, p90 374.6); 1031 B per frame on the wire, 14439 B per release (p10 14439, p90 15471); the first frame waited 373.2 ms",
            "frame_size=60B interval=300ms frames=15: 1.00 frames/read; 13.0 releases per stream of 1 frames (p10 1, p90 1); the oldest frame waited 294.3 ms (p10 180.3, p90 409.6); 374.3 ms between releases (p10 187.3, p90 374.6); 66 B per frame on the wire, 66 B per release (p10 66, p90 66); the first frame waited 373.5 ms",
            "frame_size=60B interval=200ms frames=15: 1.50 frames/read; 8.0 releases per stream of 1 frames (p10 1, p90 2); the oldest frame waited 222.6 ms (p10 86.8, p90 337.8); 189.8 ms between releases (p10 187.3, p90 374.3); 66 B per frame on the wire, 66 B per release (p10 66, p90 132); the first frame waited 376.1 ms",
            "frame_size=60B interval=100ms frames=25: 3.13 frames/read; 6.0 releases per stream of 3 frames (p10 2, p90 3); the oldest frame waited 359.3 ms (p10 297.7, p90 447.7); 187.3 ms between releases (p10 186.9, p90 375.9); 66 B per frame on the wire, 198 B per release (p10 132, p90 198); the first frame waited 373.5 ms");
    Stage[] pair =
        ChainStages.of(
            FittedPairs.matching(
                    "two clocks",
                    cells,
                    "timer=[0-9.]+ms,periodic=true -> timer=[0-9.]+ms,periodic=true")
                .chain());
    assertThat(pair[1].value()).isCloseTo(187, within(187 * 0.01));
    List<CellEvidence> paced =
        cells.stream().filter(c -> !Double.isNaN(ClockPace.pace(c))).toList();
    assertThat(paced).hasSizeGreaterThanOrEqualTo(5);
    for (CellEvidence c : paced) {
      assertThat(ClockPace.allows(c, 126.4)).as(c.label()).isFalse();
      assertThat(ClockPace.allows(c, 187.2)).as(c.label()).isTrue();
      assertThat(ClockPace.allows(c, 93.6)).as(c.label()).isTrue();
    }
  }

  /**
   * `one-late -> byte-threshold=5853B`, as its map printed its held cells (a chain bench,
   * 2026-12-07): their whole-frame releases leave the threshold 5851 to 5874 B, which the 4 % grid
   * stepped over, so no pair of one-late and a threshold fitted and the map was inconclusive. The
   * cells' release edges are tried too.
   */
  @Test
  void oneLateInFrontOfAThresholdIsFittedInTheWindowItsCellsLeave() {
    List<CellEvidence> cells =
        EvidenceLine.parseAll(
            "frame_size=60B interval=2ms frames=600: 85.71 frames/read; 5.0 releases per stream of 89 frames (p10 89, p90 89); the oldest frame waited 178.0 ms (p10 178.0, p90 178.2); 178.0 ms between releases (p10 178.0, p90 178.1); 66 B per frame on the wire, 5875 B per release (p10 5875, p90 5875); the first frame waited 174.1 ms",
            "frame_size=4096B interval=2ms frames=600: 2.01 frames/read; 297.0 releases per stream of 2 frames (p10 2, p90 2); the oldest frame waited 4.1 ms (p10 4.0, p90 4.1); 4.0 ms between releases (p10 4.0, p90 4.0); 4104 B per frame on the wire, 8215 B per release (p10 8215, p90 8215); the first frame waited 4.9 ms",
            "frame_size=8192B interval=50ms frames=25: 1.04 frames/read; 22.0 releases per stream of 1 frames (p10 1, p90 1); the oldest frame waited 50.2 ms (p10 50.2, p90 50.3); 50.0 ms between releases (p10 49.9, p90 50.1); 8200 B per frame on the wire, 8207 B per release (p10 8207, p90 8207); the first frame waited 50.4 ms",
            "frame_size=453B interval=10ms frames=128: 12.80 frames/read; 8.0 releases per stream of 13 frames (p10 13, p90 13); the oldest frame waited 130.2 ms (p10 130.1, p90 130.2); 130.0 ms between releases (p10 129.9, p90 130.0); 460 B per frame on the wire, 5983 B per release (p10 5983, p90 5983); the first frame waited 130.3 ms",
            "frame_size=357B interval=10ms frames=160: 16.00 frames/read; 8.0 releases per stream of 17 frames (p10 17, p90 17); the oldest frame waited 170.1 ms (p10 170.1, p90 170.2); 170.0 ms between releases (p10 170.0, p90 170.1); 364 B per frame on the wire, 6191 B per release (p10 6191, p90 6191); the first frame waited 160.2 ms",
            "frame_size=219B interval=10ms frames=248: 24.80 frames/read; 8.0 releases per stream of 27 frames (p10 27, p90 27); the oldest frame waited 270.2 ms (p10 270.2, p90 270.5); 270.0 ms between releases (p10 270.0, p90 270.3); 225 B per frame on the wire, 6075 B per release (p10 6075, p90 6075); the first frame waited 260.1 ms");
    TwoStageCandidate pair =
        HoldingPairFit.candidates("x", cells, NetworkPath.LOOPBACK).stream()
            .filter(c -> c.chain().matches("one-late -> byte-threshold=\\d+B"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no one-late then a threshold fitted"));
    System.out.println("HoldingPairFitTest: " + pair.chain());
    // the simulation lets a release be a frame more or less, so the span it allows is a little
    // wider than the window; the value within 2 % of the hidden one
    assertThat(ChainStages.of(pair.chain())[1].value()).isCloseTo(5853.0, withinPercentage(2));
  }

  /**
   * A threshold in front of a 92 ms hold, as the browser read it (`flushlab map --shape
   * byte-threshold=8173B --shape timer=92ms --client browser`, 2026-12-07): its 60 B frames went
   * 124 at a time, as the threshold let them (their oldest had waited the hold out in it), which
   * bounds the threshold to 66 B, and the 4 % grid stepped over that: no candidate, inconclusive.
   * At the cells' release edges the pair is fitted, both values within 5 %.
   */
  @Test
  void aThresholdInFrontOfAHoldIsFittedAtItsReleaseEdges() {
    List<CellEvidence> cells =
        new ArrayList<>(
            EvidenceLine.parseAll(
                "frame_size=60B interval=2ms frames=600: 120.00 frames/read; 3.0 releases per stream of 124 frames (p10 124, p90 124); the oldest frame waited 246.3 ms (p10 246.2, p90 246.3); 248.0 ms between releases (p10 247.1, p90 248.3); 66 B per frame on the wire, 8187 B per release (p10 8187, p90 8187); the first frame waited 243.0 ms",
                "frame_size=4096B interval=2ms frames=600: 15.00 frames/read; 12.0 releases per stream of 46 frames (p10 46, p90 46); the oldest frame waited 92.1 ms (p10 92.1, p90 92.2); 92.0 ms between releases (p10 91.9, p90 92.1); 4104 B per frame on the wire, 188799 B per release (p10 188799, p90 188799); the first frame waited 92.2 ms",
                "frame_size=1024B interval=20ms frames=60: 7.50 frames/read; 6.0 releases per stream of 8 frames (p10 8, p90 8); the oldest frame waited 140.3 ms (p10 140.3, p90 140.4); 160.0 ms between releases (p10 159.9, p90 160.2); 1031 B per frame on the wire, 8255 B per release (p10 8255, p90 8255); the first frame waited 140.3 ms",
                "frame_size=60B interval=2ms frames=1800: 120.00 frames/read; 13.0 releases per stream of 124 frames (p10 124, p90 124); the oldest frame waited 246.2 ms (p10 246.2, p90 246.3); 248.1 ms between releases (p10 248.0, p90 248.1); 66 B per frame on the wire, 8187 B per release (p10 8187, p90 8187); the first frame waited 242.1 ms"));
    cells.add(TriggerInferenceTest.drained(66, 50, 25));
    cells.add(TriggerInferenceTest.drained(66, 10, 120));
    List<TwoStageCandidate> pairs = HoldingPairFit.candidates("x", cells, NetworkPath.LOOPBACK);
    TwoStageCandidate pair =
        pairs.stream()
            .filter(p -> p.chain().startsWith("byte-threshold="))
            .findFirst()
            .orElse(null);
    assertThat(pair).as(pairs.toString()).isNotNull();
    Stage[] stages = ChainStages.of(pair.chain());
    assertThat(stages[1].kind()).as(pair.chain()).isEqualTo(Kind.HOLD);
    assertThat(stages[0].value()).as(pair.chain()).isCloseTo(8173.0, withinPercentage(5));
    assertThat(stages[1].value()).as(pair.chain()).isCloseTo(92.0, withinPercentage(5));
  }
}
