package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.Seeds;
import flushlab.map.PairSimulation.Kind;
import flushlab.map.PairSimulation.Stage;
import flushlab.netpath.NetworkPath;
import flushlab.relay.shaper.ByteThreshold;
import flushlab.relay.shaper.ShaperRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Two byte thresholds in series, simulated as the map measures them: the cells a map measures by
 * default show one threshold of a multiple of the first, so a threshold answered alone is held to a
 * cell where its releases' frames are counted exactly, and two fitted are pinned by cells that
 * split the pairs of every multiple that fit alike until both values are known to within a few
 * percent. (`flushlab map --shape 'byte-threshold=3857B -> byte-threshold=5364B'`, 2026-12-07: the
 * one threshold 7755 B verified on 6 cells, its telling cell of 743 B frames 12 frames a release on
 * the target and 11 on the model, then `byte-threshold=3869B -> byte-threshold=5271B`, verified 10
 * of 10.)
 */
class ThresholdsInSeriesTest {
  /** The cells a map of a threshold measures: small and large frames fast, small ones slow. */
  private static final double[][] MAP_CELLS = {
    {66, 2, 600}, {4104, 2, 600}, {66, 50, 25}, {10248, 2, 120}
  };

  private static Stage threshold(double bytes) {
    return new Stage(Kind.THRESHOLD, bytes);
  }

  private static CellEvidence measured(CellPlan plan, Stage first, Stage second) {
    return HoldingPairFitTest.measured(
        plan.frameSizeBytes() + 6, plan.intervalNanos() / 1e6, plan.frames(), first, second);
  }

  private static FlushTrigger alone(double bytes) {
    return new FlushTrigger(
        "x", TriggerKind.BYTE_THRESHOLD, bytes, null, null, null, "one", List.of(), List.of());
  }

  /** The pair read as the map reads it: its cells, the one threshold they fit, and its twin. */
  private record AsOne(List<CellEvidence> cells, Span one, Twin twin) {
    static AsOne of(Stage first, Stage second) {
      List<CellEvidence> cells = HoldingPairFitTest.measured(first, second, MAP_CELLS);
      Span one = ByteThresholdFit.fit(cells, new ArrayList<>());
      assertThat(one).as("the pair reads as one threshold on the map's cells").isNotNull();
      return new AsOne(cells, one, Twin.of(alone(one.mid()), cells));
    }

    /** The twin's cell through the one threshold, and through {@code first} then {@code second}. */
    Simulated[] onTheCell(Stage first, Stage second) {
      assertThat(twin).isNotNull();
      CellEvidence plan =
          HoldingPairFit.planned(
              twin.cell().frameSizeBytes(), ThresholdsInSeries.INTERVAL_MS, twin.cell().frames());
      return new Simulated[] {
        PairSimulation.simulate(plan, threshold(one.mid()), threshold(0)),
        PairSimulation.simulate(plan, first, second)
      };
    }
  }

  @Test
  void aThresholdAnsweredAloneIsHeldToACellWhereItsReleasesAreCountedExactly() {
    Stage first = threshold(3857);
    Stage second = threshold(5364);
    AsOne read = AsOne.of(first, second);
    assertThat(read.one().mid()).isBetween(7700.0, 7800.0);
    Twin twin = read.twin();
    assertThat(twin).isNotNull();
    assertThat(twin.why()).contains("two byte thresholds in series");
    assertThat(twin.held()).isEqualTo(Twin.Held.TO_ITS_FRAMES);
    assertThat(twin.answer()).as("the pairs are fitted again, not named by the cell").isNull();
    // the threshold holds a whole number and a half-ish of the cell's frames: one more a release
    // whichever way the fit is a few % off
    double perFrame = read.one().mid() / (twin.cell().frameSizeBytes() + 6.0);
    assertThat(perFrame - Math.floor(perFrame)).isBetween(0.25, 0.75);
    Simulated[] sims = read.onTheCell(first, second);
    assertThat(sims[0].framesP50()).isEqualTo(Math.ceil(perFrame));
    assertThat(sims[1].framesP50()).isNotEqualTo(sims[0].framesP50());
    assertThat(ThresholdsInSeries.apart(sims[0], sims[1])).isTrue();
    // and a replay's quarter would have called them alike, which the exact count does not
    assertThat(Replay.heldToItsFrames("byte-threshold=7755B", releasing(6), releasing(5)))
        .contains("frames per release 6 and 5, counted exactly");
    assertThat(Replay.heldToItsFrames("byte-threshold=7755B", releasing(5), releasing(5))).isNull();
  }

  /** A cell of 1723 B frames every 10 ms whose releases carry {@code frames} each. */
  private static CellEvidence releasing(int frames) {
    CellPlan plan = new CellPlan(1717, 10_000_000L, 50);
    return measured(plan, threshold(frames * 1723.0 - 1), threshold(0));
  }

  /**
   * A first threshold a fifth of what the two release (`byte-threshold=1127B ->
   * byte-threshold=5615B`, answered as one of 5907 B, verified 7 of 7: a chain bench, 2026-12-07):
   * it parts from one threshold only where its batches overshoot it by most of a frame, and the
   * twin's cell is one of those.
   */
  @Test
  void aFirstThresholdAFifthOfTheOneAnsweredIsPartedFromItToo() {
    Stage first = threshold(1127);
    Stage second = threshold(5615);
    AsOne read = AsOne.of(first, second);
    Simulated[] sims = read.onTheCell(first, second);
    assertThat(ThresholdsInSeries.apart(sims[0], sims[1])).as("%s", read.twin().cell()).isTrue();
  }

  /**
   * Seed 70161847754795's first draw, `byte-threshold=857B -> byte-threshold=1771B`, read as one
   * threshold of 2541 B: the response head in its first block pins the first threshold to two bytes
   * (856..858 B) by when the first frame left, which the grid stepped over, so no pair matched and
   * no twin was looked for. Tried at its blocks' edges, the pairs are found.
   */
  @Test
  void aFirstThresholdTheHeadPinsToAFewBytesStillHasItsTwin() {
    Stage first = threshold(857);
    Stage second = threshold(1770.95);
    List<CellEvidence> cells = HoldingPairFitTest.measured(first, second, MAP_CELLS);
    Span one = ByteThresholdFit.fit(cells, new ArrayList<>());
    assertThat(one).isNotNull();
    assertThat(ThresholdsInSeries.alikePairs(HoldingStageFits.fittable(cells), one.mid()))
        .isNotEmpty();
    assertThat(Twin.of(alone(one.mid()), cells)).as("a twin of %.0f B", one.mid()).isNotNull();
  }

  @Test
  void otherAnswersAndCellsNoPairFitsHaveNoSuchTwin() {
    List<CellEvidence> cells =
        HoldingPairFitTest.measured(threshold(4096), threshold(0), MAP_CELLS);
    assertThat(Twin.of(alone(4098), List.of())).as("no cells, no pairs").isNull();
    assertThat(
            ThresholdsInSeries.twin(
                new FlushTrigger(
                    "x", TriggerKind.TIMER, null, null, 200.0, null, "one", List.of(), List.of()),
                cells))
        .isNull();
    assertThat(Twin.of(alone(4098), cells)).as("one threshold of 4 KiB").isNotNull();
    List<CellEvidence> oneUnread = new ArrayList<>(cells);
    oneUnread.add(null);
    assertThat(Twin.of(alone(4098), oneUnread)).as("a cell that could not be read").isNotNull();
  }

  /**
   * Pairs drawn at random (the seed printed; -Dflushlab.seed replays it), each read as the map
   * reads it: its cells, the one threshold's telling cell where one threshold fits them, then the
   * cells that split what still fits, as many as the map measures; the pair then fitted is the
   * hidden one to within 5 % in both values.
   */
  @Test
  void twoThresholdsArePinnedWithinFivePercentByTheCellsThatSplitThePairsLeft() {
    long seed = Seeds.seed("ThresholdsInSeriesTest");
    Random random = new Random(seed);
    for (int draw = 0; draw < 6; draw++) {
      double a = 800 + random.nextInt(4200);
      double b = a * (1.2 + 1.3 * random.nextDouble());
      Stage first = threshold(a);
      Stage second = threshold(b);
      List<CellEvidence> cells =
          new ArrayList<>(HoldingPairFitTest.measured(first, second, MAP_CELLS));
      Span one = ByteThresholdFit.fit(cells, new ArrayList<>());
      if (one != null) {
        Twin twin = Twin.of(alone(one.mid()), cells);
        assertThat(twin).as("a twin of %.0f B", one.mid()).isNotNull();
        cells.add(measured(twin.cell(), first, second));
      }
      List<TwoStageCandidate> pairs = HoldingPairFit.candidates("x", cells, NetworkPath.LOOPBACK);
      for (int round = 0; round < PairPinning.MAX_PINNING_CELLS; round++) {
        CellPlan plan = PairPinning.next(pairs, cells);
        if (plan == null) break;
        cells.add(measured(plan, first, second));
        pairs = HoldingPairFit.candidates("x", cells, NetworkPath.LOOPBACK);
      }
      String hidden = String.format("byte-threshold=%.0fB -> byte-threshold=%.0fB", a, b);
      TwoStageCandidate two =
          pairs.stream()
              .filter(p -> p.chain().matches("byte-threshold=\\d+B -> byte-threshold=\\d+B"))
              .findFirst()
              .orElse(null);
      System.out.printf(
          "ThresholdsInSeriesTest: seed %d: %s fitted as %s from %d cells%n",
          seed, hidden, two == null ? "nothing" : two.chain(), cells.size());
      assertThat(two).as(hidden).isNotNull();
      List<ShaperRegistry.Spec> stages = ShaperRegistry.parseChain(two.chain());
      assertThat((double) stages.get(0).values().get(ByteThreshold.BYTES.key()))
          .as("%s: the first of %s", seed, two.chain())
          .isBetween(a * 0.95, a * 1.05);
      assertThat((double) stages.get(1).values().get(ByteThreshold.BYTES.key()))
          .as("%s: the second of %s", seed, two.chain())
          .isBetween(b * 0.95, b * 1.05);
    }
  }
}
