package flushlab.scenario;

import flushlab.core.HostPort;
import flushlab.netpath.NetworkPath;
import flushlab.targets.Target;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A validated scenario: what to measure (cells of a sweep), across which targets, how many runs per
 * cell, under which guards; {@code cluster} (null on one host) places its roles on a lab's agents;
 * {@code expect} is what its flush-trigger answers must be. Immutable; made only by {@link
 * ScenarioLoader}.
 */
@RecordBuilder
public record Scenario(
    String name,
    String description,
    Path file,
    String text,
    Resolved resolved,
    List<Cell> cells,
    List<String> sweptKeys,
    List<Target> targets,
    int runs,
    Guards guards,
    boolean flushTriggerMap,
    Adaptive adaptive,
    HostPort emitterListen,
    NetworkPath path,
    RequestHeaders requestHeaders,
    ClusterPlacement cluster,
    Expectations expect)
    implements ScenarioFile, ScenarioBuilder.With {

  /**
   * The honesty guards, declared before the run.
   *
   * @param pacingToleranceNanos a run in which any stream's emitter lateness (max) exceeded this is
   *     excluded and counted, never blamed on a target
   * @param certifyRuns direct-path runs that certify the host before any target counts
   * @param certifyMaxFramesPerRead the ceiling the direct path must stay under
   */
  public record Guards(
      long pacingToleranceNanos,
      int certifyRuns,
      double certifyMaxFramesPerRead,
      Cell certifyCell) {}

  /**
   * The settings after defaults and the sweep, as results record them.
   *
   * @param requestHeaders client.headers as "Name: <redacted>": their values are never recorded
   */
  public record Resolved(
      Map<String, String> base,
      Map<String, String> headers,
      Map<String, List<String>> sweep,
      int runs,
      List<String> requestHeaders) {
    public Resolved(
        Map<String, String> base,
        Map<String, String> headers,
        Map<String, List<String>> sweep,
        int runs) {
      this(base, headers, sweep, runs, List.of());
    }
  }

  /** Bisect one setting of one target to find where it stops coalescing. */
  public record Adaptive(
      String target,
      Setting parameter,
      String low,
      String high,
      double tolerance,
      double coalescingAbove,
      int maxCells) {}

  /** This scenario placed on a lab's agents (what `flushlab map --cluster` makes of its flags). */
  public Scenario withCluster(ClusterPlacement c) {
    return new Scenario(
        name,
        description,
        file,
        text,
        resolved,
        cells,
        sweptKeys,
        targets,
        runs,
        guards,
        flushTriggerMap,
        adaptive,
        emitterListen,
        path,
        requestHeaders,
        c,
        expect);
  }

  public Target target(String name) {
    for (Target t : targets) if (t.name().equals(name)) return t;
    return null;
  }

  /** Rough seconds the scenario will take, for the line printed before it starts. */
  public double expectedSeconds() {
    double total = guards().certifyCell().runSeconds() * guards().certifyRuns() + 1.0;
    for (Cell c : cells()) total += c.runSeconds() * runs() * targets().size();
    if (adaptive() != null) total += cells().get(0).runSeconds() * runs() * adaptive().maxCells();
    return total;
  }
}
