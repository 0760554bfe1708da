package flushlab.report;

import flushlab.client.BatchResult;
import flushlab.scenario.Cell;
import flushlab.scenario.FlushTrigger;
import flushlab.scenario.Scenario;
import flushlab.scenario.ScenarioRunner;
import flushlab.scenario.TargetCellResult;
import flushlab.scenario.TargetSpec;
import java.util.Map;

/** The tables a person pastes into a bug report, and how to reproduce them. */
public final class SummaryMarkdown {
  private SummaryMarkdown() {}

  public static String render(Scenario s, ScenarioRunner.Outcome o, String command, Map<String, Object> env) {
    StringBuilder md = new StringBuilder();
    md.append("# flushlab: ").append(s.name()).append("\n\n");
    if (!s.description().isBlank()) md.append(s.description().trim()).append("\n\n");
    if (o.interrupted()) md.append("**Interrupted:** the run was stopped; the tables hold what was measured before that.\n\n");
    md.append(String.format("Direct-path certification: %.3f frames per read (ceiling %.2f) -> %s.%n%n",
        o.certifiedFramesPerRead(), s.guards().certifyMaxFramesPerRead(), o.certified() ? "certified" : "**NOT certified**"));
    if (!o.certified()) {
      md.append("This host's direct path is not clean, so nothing measured here can be blamed on a proxy. "
          + "No target was measured; no finding is published.\n\n");
    }
    md.append(String.format("Guards: a run is excluded when the emitter was late by more than %.3f ms (its own pacing audit); "
        + "%d run(s) per cell, one attempt each, never retried.%n%n", s.guards().pacingToleranceNanos() / 1e6, s.runs()));
    md.append("Targets:\n\n");
    for (TargetSpec t : s.targets()) md.append("- `").append(t.name()).append("`: ").append(t.describe()).append('\n');
    md.append('\n');
    for (Cell cell : s.cells()) {
      boolean any = o.results().stream().anyMatch(r -> r.cell().index() == cell.index());
      if (!any) continue;
      md.append("## ").append(s.cells().size() > 1 ? cell.label() : "results").append("\n\n");
      md.append(streamDescription(cell, o)).append(".\n\n");
      md.append("| target | time to first frame (p50) | gap between frames (p50) | frames per read | max gap | emit->recv (p50) | excluded runs | errors |\n");
      md.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
      for (TargetCellResult r : o.results()) {
        if (r.cell().index() != cell.index()) continue;
        BatchResult b = r.included();
        String none = noMeasurement(r);
        if (none != null) {
          md.append(String.format("| %s | %s | - | - | - | - | %d of %d | %s |%n", r.target(), none, r.excludedRuns(),
              r.runs().size(), errors(r)));
          continue;
        }
        md.append(String.format("| %s | %.1fms | %.1fms | %.2f | %.1fms | %.2fms | %d of %d | %s |%n", r.target(),
            b.ttftMs().p50(), b.gapMs().p50(), b.framesPerRead(), b.gapMs().max(), b.emitToRecvMs().p50(),
            r.excludedRuns(), r.runs().size(), errors(r)));
      }
      md.append('\n');
      overheadTable(md, s, o, cell);
    }
    if (!o.triggers().isEmpty()) {
      md.append("## Flush-trigger map\n\n");
      for (FlushTrigger t : o.triggers().values()) {
        md.append("- **").append(t.target()).append("**: ").append(t.verdict()).append('\n');
      }
      md.append("\nEvidence (a byte trigger scales with frame size, a timer with interval):\n\n");
      for (FlushTrigger t : o.triggers().values()) {
        md.append("`").append(t.target()).append("`\n\n");
        for (String e : t.evidence()) md.append("- ").append(e).append('\n');
        md.append('\n');
      }
    }
    if (o.bisection() != null) {
      md.append("## Adaptive bisection\n\n").append(o.bisection().verdict()).append("\n\n| ")
          .append(o.bisection().parameter()).append(" | frames per read | excluded runs |\n|---:|---:|---:|\n");
      for (String[] step : o.bisection().steps()) md.append("| ").append(String.join(" | ", step)).append(" |\n");
      md.append('\n');
    }
    md.append("## Reproduce\n\n");
    md.append("- flushlab ").append(env.get("flushlab_version")).append(", commit ").append(env.get("git_commit")).append('\n');
    md.append("- ").append(env.get("jvm")).append(", ").append(env.get("os")).append(", kernel ").append(env.get("kernel"))
        .append(", ").append(env.get("cpus")).append(" CPUs\n");
    md.append("- kernel TCP: ").append(env.get("kernel_tcp")).append('\n');
    md.append("- command: `").append(command).append("`\n\n");
    md.append("Scenario file `").append(s.file()).append("`:\n\n```yaml\n").append(s.text().strip()).append("\n```\n");
    return md.toString();
  }

  /** Each target minus the direct path in the same cell: what the target adds (the direct path is the calibration). */
  private static void overheadTable(StringBuilder md, Scenario s, ScenarioRunner.Outcome o, Cell cell) {
    TargetSpec direct = s.targets().stream().filter(t -> t.kind() == TargetSpec.Kind.DIRECT).findFirst().orElse(null);
    if (direct == null || s.targets().size() < 2) return;
    BatchResult d = o.results().stream().filter(r -> r.cell().index() == cell.index() && r.target().equals(direct.name()))
        .map(TargetCellResult::included).findFirst().orElse(null);
    if (d == null || d.streamsOk() == 0) return;
    md.append("Difference to `").append(direct.name()).append("` (target minus direct; negative = direct was noisier):\n\n");
    md.append("| target | TTFT p50 | emit->recv first frame p50 | emit->recv p50 | emit->recv p99 | gap p50 | gap p99 |\n");
    md.append("|---|---:|---:|---:|---:|---:|---:|\n");
    for (TargetCellResult r : o.results()) {
      if (r.cell().index() != cell.index() || r.target().equals(direct.name()) || r.included().streamsOk() == 0) continue;
      BatchResult b = r.included();
      md.append(String.format("| %s | %+.3fms | %+.3fms | %+.3fms | %+.3fms | %+.3fms | %+.3fms |%n", r.target(),
          b.ttftMs().p50() - d.ttftMs().p50(), b.firstEmitToRecvMs().p50() - d.firstEmitToRecvMs().p50(),
          b.emitToRecvMs().p50() - d.emitToRecvMs().p50(), b.emitToRecvMs().p99() - d.emitToRecvMs().p99(),
          b.gapMs().p50() - d.gapMs().p50(), b.gapMs().p99() - d.gapMs().p99()));
    }
    md.append('\n');
  }

  /**
   * Why a row has no numbers, or null when it has them: every run excluded by the pacing guard,
   * or no stream of the kept runs completed. A row of zeros would read as a measurement.
   */
  public static String noMeasurement(TargetCellResult r) {
    if (!r.runs().isEmpty() && r.excludedRuns() == r.runs().size()) return "excluded (every run)";
    if (r.included().streamsOk() == 0) return "no stream completed";
    return null;
  }

  /** Errors over every run of the row (excluded runs too: an error is never hidden by a guard). */
  private static String errors(TargetCellResult r) {
    Map<String, Integer> counts = new java.util.LinkedHashMap<>();
    for (var run : r.runs()) {
      for (Map<String, Object> e : run.result().errors()) counts.merge((String) e.get("kind"), (Integer) e.get("count"), Integer::sum);
    }
    if (counts.isEmpty()) return "0";
    StringBuilder sb = new StringBuilder();
    counts.forEach((kind, n) -> sb.append(sb.length() == 0 ? "" : ", ").append(n).append(' ').append(kind));
    return sb.toString();
  }

  /** The stream a cell asked for, in words; a chat stream is tokens (its events are sized by their JSON), not frames of frame_size. */
  public static String streamDescription(Cell cell, ScenarioRunner.Outcome o) {
    String extras = (cell.nanos("slow_reader") > 0 ? ", client pausing " + cell.get("slow_reader") + " after each read" : "")
        + (cell.headers().isEmpty() ? "" : ", headers " + cell.headers());
    if (cell.get("endpoint").equals("chat")) {
      double wire = o.results().stream().filter(r -> r.cell().index() == cell.index() && r.included().frames() > 0)
          .mapToDouble(TargetCellResult::wireBytesPerFrame).findFirst().orElse(0);
      return String.format("OpenAI chat, %s tokens every %s%s%s", cell.get("frames"), cell.get("interval"),
          wire > 0 ? String.format(" (events of ~%.0f B on the wire)", wire) : "", extras);
    }
    return String.format("SSE, %s frames of %s every %s%s", cell.has("total") ? cell.get("total") + " in" : cell.get("frames"),
        cell.get("frame_size"), cell.get("interval"), extras);
  }
}
