package flushlab.run;

import flushlab.map.FlushTrigger;
import flushlab.targets.ProcessInfo;
import java.util.List;
import java.util.Map;

/**
 * What a finished (or interrupted) run of a scenario produced; every report renders from it.
 *
 * @param results one per cell and target, in the order measured
 * @param triggers the flush-trigger map, by target name (empty when not asked for)
 * @param bisection the adaptive bisection, or null
 * @param processes what was recorded about each proxy process, by target name
 * @param replayedCells a map's replay of the model its answer gives, cell by cell (empty when none was replayed)
 */
public record Outcome(Certification certification, List<TargetCellResult> results, Map<String, FlushTrigger> triggers,
    Bisection bisection, boolean interrupted, long startedEpochMillis, long elapsedNanos, Map<String, ProcessInfo> processes,
    List<ReplayedCell> replayedCells) {

  /** An outcome with no replay (a scenario's run, a map that replayed nothing). */
  public Outcome(Certification certification, List<TargetCellResult> results, Map<String, FlushTrigger> triggers,
      Bisection bisection, boolean interrupted, long startedEpochMillis, long elapsedNanos, Map<String, ProcessInfo> processes) {
    this(certification, results, triggers, bisection, interrupted, startedEpochMillis, elapsedNanos, processes, List.of());
  }

  public boolean certified() {
    return certification.certified();
  }
}
