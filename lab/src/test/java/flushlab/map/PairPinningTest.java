package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.map.PairSimulation.Kind;
import flushlab.map.PairSimulation.Stage;
import flushlab.netpath.NetworkPath;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A threshold behind a hold, which the map's cells bound only to a hold's batch: the cell the
 * simulation plans splits that span, and with it (two at most) the threshold is read within 5 %.
 * The cells are the hidden chain simulated as the meter would read it, at the frame sizes and
 * intervals a map of `timer=196ms -> byte-threshold=6338B` measured (2026-12-06: it fitted every
 * cell alike anywhere in about 5280..6534 B and gave 5921 B, 6.6 % off).
 */
class PairPinningTest {
  static final Stage HOLD = new Stage(Kind.HOLD, 196);
  static final Stage THRESHOLD = new Stage(Kind.THRESHOLD, 6338);

  static List<CellEvidence> mapped() {
    return HoldingPairFitTest.measured(
        HOLD,
        THRESHOLD,
        new double[] {66, 2, 600},
        new double[] {4104, 2, 600},
        new double[] {1031, 20, 60},
        new double[] {66, 10, 360},
        new double[] {4104, 200, 15});
  }

  static final Pattern HOLD_THEN_THRESHOLD =
      Pattern.compile("timer=[0-9.]+ms -> byte-threshold=(\\d+)B");

  /** The threshold the hold-then-threshold candidate fitted on {@code cells} gives. */
  static double threshold(List<CellEvidence> cells) {
    for (TwoStageCandidate c : HoldingPairFit.candidates("t", cells, NetworkPath.LOOPBACK)) {
      Matcher m = HOLD_THEN_THRESHOLD.matcher(c.chain());
      if (m.matches()) return Double.parseDouble(m.group(1));
    }
    throw new AssertionError("no hold then threshold among the candidates");
  }

  @Test
  void theMapsCellsLeaveTheThresholdLooseAndThePlannedCellsPinIt() {
    List<CellEvidence> cells = new ArrayList<>(mapped());
    List<TwoStageCandidate> first = HoldingPairFit.candidates("t", cells, NetworkPath.LOOPBACK);
    CellPlan plan = PairPinning.next(first, cells);
    assertThat(plan).as("the span is loose: a cell is planned").isNotNull();
    List<CellPlan> measured = new ArrayList<>();
    for (int round = 0; plan != null && round < PairPinning.MAX_PINNING_CELLS; round++) {
      measured.add(plan);
      cells.add(
          HoldingPairFitTest.measured(
              plan.frameSizeBytes() + 6,
              plan.intervalNanos() / 1e6,
              plan.frames(),
              HOLD,
              THRESHOLD));
      plan = PairPinning.next(HoldingPairFit.candidates("t", cells, NetworkPath.LOOPBACK), cells);
    }
    double t = threshold(cells);
    System.out.println(
        "PairPinningTest: cells measured to pin it " + measured + ", threshold " + t);
    assertThat(t).as("with %s", measured).isBetween(6338 * 0.95, 6338 * 1.05);
    for (CellPlan p : measured)
      assertThat(p.streamMs()).as("%s", p).isLessThanOrEqualTo(PairPinning.MAX_STREAM_MS);
  }

  @Test
  void aThresholdTheCellsPinAlreadyPlansNoCell() {
    Stage hold = new Stage(Kind.HOLD, 150);
    Stage threshold = new Stage(Kind.THRESHOLD, 3000);
    List<CellEvidence> cells =
        HoldingPairFitTest.measured(
            hold,
            threshold,
            new double[] {66, 2, 600},
            new double[] {66, 50, 100},
            new double[] {263, 20, 120});
    assertThat(PairPinning.next(HoldingPairFit.candidates("t", cells, NetworkPath.LOOPBACK), cells))
        .isNull();
  }
}
