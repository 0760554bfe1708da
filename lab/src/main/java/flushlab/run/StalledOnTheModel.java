package flushlab.run;

import flushlab.client.Staircase;
import flushlab.map.CellEvidence;
import flushlab.scenario.Cell;
import flushlab.targets.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A cell whose replay on a model differed where this host stalled 10 ms or more in the model's kept
 * run: the stall, not the model, may be what differed, as {@link StalledCellsAgain} says of the
 * target's side. The cell is replayed on the model once more, once this host has been quiet, and
 * that run is the one compared. A chain bench refused the hidden `byte-threshold=1196B ->
 * compress=gzip,flush=none`'s own model for one cell's first frame, 31.0 ms on the target and 43.6
 * on the model, which two maps of the same chain replayed at 30.9 and 30.8 (2026-12-07). A cell
 * that differs again refuses the model as before, on the new run.
 */
final class StalledOnTheModel {
  private StalledOnTheModel() {}

  /** The cell as the model's relay showed it the second time, and its stream. */
  record Again(CellEvidence cell, Staircase stairs) {}

  /**
   * {@code onIt}, the model's replay of {@code cell} read as {@code replayed}, once more where
   * {@code difference} (null where the two agree) finds it differs and this host stalled in it,
   * read less {@code baselineMs} as the first run was; null where it agrees, no stall of this host
   * was in it, the budget has no room, or the run came back excluded or empty.
   */
  static Again measure(
      Measure onModel,
      Target.Relay replica,
      Cell cell,
      TargetCellResult onIt,
      CellEvidence onTarget,
      CellEvidence replayed,
      double baselineMs,
      Consumer<String> announce,
      long deadline,
      Function<CellEvidence, String> difference)
      throws Exception {
    String stall = PassStalls.hostStallsDuring(List.of(onIt));
    if (stall == null
        || ModelReplay.secondsLeft(deadline) < cell.stream().streamNanos() / 1e9 + 1
        || difference.apply(replayed) == null) return null;
    String label = onTarget.label();
    announce.accept(
        PassStalls.differedWhereStalled(label, "the model", stall, "replayed on the model again"));
    List<RunRecord> runs = new ArrayList<>();
    if (!onModel.runOnceMoreIfExcluded(
            replica,
            cell,
            cell.index(),
            onIt.runs().size(),
            "replay of " + label + " again",
            runs,
            announce)
        || runs.stream().allMatch(RunRecord::excluded)) return null;
    TargetCellResult second = TargetCellResult.of(replica.name(), cell, runs);
    if (second.included().frames() == 0) return null;
    return new Again(
        second.evidence(baselineMs), Staircase.of(second.included(), ReplayedCell.MAX_FRAMES));
  }
}
