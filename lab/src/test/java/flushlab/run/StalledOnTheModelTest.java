package flushlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.core.StallFigures;
import flushlab.map.CellEvidence;
import flushlab.map.Replay;
import flushlab.netpath.NetworkPath;
import flushlab.relay.shaper.ShaperRegistry;
import flushlab.targets.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The mirror of {@link StalledCellsAgainTest}: a hold of 20 ms on the target, its model's replay of
 * the cell read through a 54 ms stall of this host (the first release 54 ms late). The cell is
 * replayed on the model once more and that run compared; with no stall of this host in the model's
 * run, the difference is the model's and nothing is measured again.
 */
class StalledOnTheModelTest {
  static final Target.Relay MODEL =
      new Target.Relay(
          "model",
          ShaperRegistry.parseChain(StalledCellsAgainTest.MODEL),
          false,
          NetworkPath.LOOPBACK);

  static final CellEvidence ON_TARGET =
      TargetCellResult.of(
              "t",
              StalledCellsAgainTest.CELL,
              List.of(StalledCellsAgainTest.run(StalledCellsAgainTest::held, StallFigures.NONE, 0)))
          .evidence(0);

  static final Function<CellEvidence, String> DIFFERENCE =
      c ->
          Replay.compare(StalledCellsAgainTest.MODEL, List.of(ON_TARGET), List.of(c))
              .cells()
              .get(0)
              .difference();

  /** The model's first replay of the cell, this host stalled as {@code stalls} say. */
  static StalledOnTheModel.Again replayedThrough(StallFigures stalls, List<String> said)
      throws Exception {
    TargetCellResult onIt =
        TargetCellResult.of(
            "model",
            StalledCellsAgainTest.CELL,
            List.of(
                StalledCellsAgainTest.run(StalledCellsAgainTest::heldThroughAStall, stalls, 0)));
    CellEvidence replayed = onIt.evidence(0);
    assertThat(DIFFERENCE.apply(replayed)).as("the late release differs").isNotNull();
    Measure again =
        (target, cell, index, n) ->
            StalledCellsAgainTest.run(StalledCellsAgainTest::held, StallFigures.NONE, n);
    return StalledOnTheModel.measure(
        again,
        MODEL,
        StalledCellsAgainTest.CELL,
        onIt,
        ON_TARGET,
        replayed,
        0,
        said::add,
        System.nanoTime() + 60_000_000_000L,
        DIFFERENCE);
  }

  @Test
  void aReplayThatDifferedWhereThisHostStalledOnTheModelIsReplayedAgainAndAgrees()
      throws Exception {
    List<String> said = new ArrayList<>();
    StalledOnTheModel.Again again = replayedThrough(StalledCellsAgainTest.STALLED_54_MS, said);
    assertThat(again).as(String.join("\n", said)).isNotNull();
    assertThat(DIFFERENCE.apply(again.cell())).isNull();
    assertThat(said).anyMatch(l -> l.contains("differed where this host stalled on the model"));
  }

  @Test
  void aReplayThatDifferedWithoutAStallIsTheModels() throws Exception {
    List<String> said = new ArrayList<>();
    assertThat(replayedThrough(new StallFigures(1, 0, 0, 6, 20), said)).isNull();
    assertThat(said).isEmpty();
  }
}
