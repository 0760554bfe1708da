package flushlab.run;

import flushlab.map.CellEvidence;
import flushlab.map.CellPlan;
import flushlab.scenario.Cell;
import flushlab.targets.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What one map measures with and within, once the host is certified: the target, the cells measured
 * on it so far (a telling or pinning cell joins them, so every later replay compares it too), how a
 * run is measured, the host's certification, where progress is said, and the budget's end
 * (System.nanoTime). The map's replay path passed these six through every step.
 */
record MapContext(
    Target target,
    List<TargetCellResult> results,
    Measure measure,
    Certification cert,
    Consumer<String> announce,
    long deadline) {

  /** A cell measured beyond the passes: as the target showed it, and read as evidence. */
  record OneMore(TargetCellResult onTarget, CellEvidence seen) {}

  /**
   * {@code plan} measured on the target as {@code base}'s client, added to the results and
   * described; null when the lab was interrupted, or the cell left no data (said, with {@code
   * purpose}: what it would have done).
   */
  OneMore oneCellMore(MapLab lab, Cell base, CellPlan plan, String purpose) throws Exception {
    return tryOneCellMore(lab, base, plan, purpose).more();
  }

  /**
   * A cell measured beyond the passes ({@code more}, null where it gave nothing), and why it gave
   * nothing where this host's stalls spoiled every run of it ({@code stalledOut}: the last run's
   * exclusion; null otherwise).
   */
  record Tried(OneMore more, String stalledOut) {}

  /** As {@link #oneCellMore}, saying when this host's stalls spoiled every run of the cell. */
  Tried tryOneCellMore(MapLab lab, Cell base, CellPlan plan, String purpose) throws Exception {
    Cell cell = MapPass.cellOf(base, plan, results.size());
    lab.progress("map: " + plan);
    List<RunRecord> runs = new ArrayList<>();
    if (!measure.runOnceMoreIfExcluded(
        target, cell, cell.index(), 0, plan.toString(), runs, announce))
      return new Tried(null, null);
    TargetCellResult onTarget = TargetCellResult.of(target.name(), cell, runs);
    CellEvidence seen = MapPass.asProbed(onTarget, cert.emitToRecvMs());
    if (seen == null) {
      announce.accept("map: " + plan + " left no data to " + purpose);
      boolean stalled = !runs.isEmpty() && runs.stream().allMatch(RunRecord::spoiledByHostStall);
      return new Tried(
          null, stalled ? plan + ": " + runs.get(runs.size() - 1).exclusionReason() : null);
    }
    results.add(onTarget);
    announce.accept(seen.describe());
    return new Tried(new OneMore(onTarget, seen), null);
  }
}
