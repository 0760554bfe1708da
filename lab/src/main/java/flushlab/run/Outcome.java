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
 * @param replayedCells a map's replay of the model its answer gives, cell by cell (empty when none
 *     was replayed)
 * @param onAgents where a run on a lab's agents ran and how their clocks stood; null for a run on
 *     this host
 * @param stoppedEarly why the runs stopped before the scenario's end other than an interruption (an
 *     agent left the lab), or null
 */
public record Outcome(
    Certification certification,
    List<TargetCellResult> results,
    Map<String, FlushTrigger> triggers,
    Bisection bisection,
    boolean interrupted,
    long startedEpochMillis,
    long elapsedNanos,
    Map<String, ProcessInfo> processes,
    List<ReplayedCell> replayedCells,
    OnAgents onAgents,
    String stoppedEarly) {

  /**
   * Whether some run lost a client agent's share (it is excluded, the agent named): what arrived is
   * kept.
   */
  public boolean partial() {
    for (RunRecord r : certification.runs())
      if (r.excluded() && r.exclusion().cause() == Exclusion.Cause.MISSING_SHARE) return true;
    for (TargetCellResult t : results) {
      for (RunRecord r : t.runs())
        if (r.excluded() && r.exclusion().cause() == Exclusion.Cause.MISSING_SHARE) return true;
    }
    return false;
  }

  public boolean certified() {
    return certification.certified();
  }
}
