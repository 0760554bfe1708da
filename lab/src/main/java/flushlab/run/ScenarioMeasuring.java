package flushlab.run;

import flushlab.map.CellEvidence;
import flushlab.map.FlushTrigger;
import flushlab.map.TriggerInference;
import flushlab.scenario.Cell;
import flushlab.scenario.Scenario;
import flushlab.targets.Target;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * What a run or a map measures through one {@link Measure}: the direct path certified first; then,
 * for `flushlab run`, every cell on every target, the flush-trigger map over them, and the adaptive
 * bisection (the map measures through {@code MapSession}); an interrupt keeps what finished.
 *
 * @param interrupted whether the run was stopped
 * @param progress where the step under way is said (the console's progress line)
 * @param measure the measure every step runs through
 */
record ScenarioMeasuring(
    Scenario scenario,
    BooleanSupplier interrupted,
    Consumer<String> progress,
    Measure measure,
    Consumer<String> announce) {

  /**
   * The direct path must be clean on this host before any target row counts. A run excluded (the
   * emitter late, or every frame it read together read in a stall of this host) is measured once
   * more, once. Failing only inside host stalls (no run kept) is named as such: the host, not the
   * path, was not fit to measure. {@code asRun}: the certifying cell as the runs measure it (on a
   * cluster, its share); {@code budgetSpent}: whether the map's budget is spent.
   */
  Certification certify(UnaryOperator<Cell> asRun, BooleanSupplier budgetSpent) throws Exception {
    List<RunRecord> runs = new ArrayList<>();
    Target direct = new Target.Direct("direct", scenario.path());
    Cell certifying = asRun.apply(scenario.guards().certifyCell());
    for (int i = 0; i < scenario.guards().certifyRuns() && !interrupted.getAsBoolean(); i++) {
      progress.accept(
          "certifying the direct path, run " + (i + 1) + "/" + scenario.guards().certifyRuns());
      if (!measure.runOnceMoreIfExcluded(
          direct, certifying, -1, i, "certification run " + (i + 1), runs, announce)) {
        break;
      }
    }
    Certification judged =
        Certification.judged(
            runs,
            scenario.guards().certifyMaxFramesPerRead(),
            interrupted.getAsBoolean(),
            budgetSpent.getAsBoolean());
    announce.accept(judged.line(scenario.guards().certifyMaxFramesPerRead()));
    return judged;
  }

  /**
   * Every cell, every target, {@code runs} times; an interrupt keeps what finished. A run the
   * pacing guard excluded (the emitter was late: the host stalled, the run says nothing of the
   * target) is measured once more, once, as the map does; both are kept and the exclusion is named.
   */
  List<TargetCellResult> cells() throws Exception {
    List<TargetCellResult> results = new ArrayList<>();
    for (Cell cell : scenario.cells()) {
      for (Target t : scenario.targets()) {
        List<RunRecord> runs = new ArrayList<>();
        for (int r = 0; r < scenario.runs(); r++) {
          progress.accept(
              String.format(
                  "cell %d/%d [%s], target %s, run %d/%d",
                  cell.index() + 1,
                  scenario.cells().size(),
                  cell.label(),
                  t.name(),
                  r + 1,
                  scenario.runs()));
          if (interrupted.getAsBoolean()
              || !measure.runOnceMoreIfExcluded(
                  t,
                  cell,
                  cell.index(),
                  r,
                  t.name() + " [" + cell.label() + "] run " + (r + 1),
                  runs,
                  announce)) {
            if (!runs.isEmpty()) results.add(TargetCellResult.of(t.name(), cell, runs));
            return results;
          }
        }
        results.add(TargetCellResult.of(t.name(), cell, runs));
      }
    }
    return results;
  }

  /** The flush-trigger map: the same inference `flushlab map` uses, over this scenario's cells. */
  Map<String, FlushTrigger> triggers(List<TargetCellResult> results, double baselineMs) {
    Map<String, FlushTrigger> triggers = new LinkedHashMap<>();
    if (!scenario.flushTriggerMap() || interrupted.getAsBoolean()) return triggers;
    for (Target t : scenario.targets()) {
      List<CellEvidence> mine =
          results.stream()
              .filter(r -> r.target().equals(t.name()))
              .map(r -> r.evidence(baselineMs))
              .toList();
      triggers.put(t.name(), TriggerInference.infer(t.name(), mine, t.path()));
    }
    return triggers;
  }

  Bisection bisection() throws Exception {
    Scenario.Adaptive a = scenario.adaptive();
    if (a == null || interrupted.getAsBoolean()) return null;
    return new Bisector(
            a,
            scenario.target(a.target()),
            scenario.cells().get(0),
            (target, cell) -> {
              progress.accept("adaptive: " + cell.label());
              List<RunRecord> runs = new ArrayList<>();
              for (int r = 0; r < scenario.runs(); r++) {
                if (interrupted.getAsBoolean()
                    || !measure.runOnceMoreIfExcluded(
                        target,
                        cell,
                        -1,
                        r,
                        "adaptive " + cell.label() + " run " + (r + 1),
                        runs,
                        announce)) {
                  return null;
                }
              }
              return TargetCellResult.of(target.name(), cell, runs);
            })
        .run();
  }
}
