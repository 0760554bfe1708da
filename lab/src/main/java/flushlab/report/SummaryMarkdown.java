package flushlab.report;

import flushlab.client.BatchResult;
import flushlab.core.Units;
import flushlab.map.FlushTrigger;
import flushlab.run.AgentShare;
import flushlab.run.Bisection;
import flushlab.run.Exclusion;
import flushlab.run.OnAgents;
import flushlab.scenario.Cell;
import flushlab.stream.Endpoint;
import flushlab.stream.StreamSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The tables a person pastes into a bug report, and how to reproduce them, rendered from a {@link
 * RunReport}.
 */
public final class SummaryMarkdown {
  private SummaryMarkdown() {}

  /** The whole summary.md: the findings, then how to reproduce them. */
  public static String render(RunReport r) {
    return findings(r) + reproduce(r);
  }

  /** Everything but the reproduction section (what a terminal shows at the end of a run). */
  public static String findings(RunReport r) {
    StringBuilder md = new StringBuilder();
    md.append("# flushlab: ").append(r.scenario()).append("\n\n");
    if (!r.description().isBlank()) md.append(r.description().trim()).append("\n\n");
    if (r.interrupted())
      md.append(
          "**Interrupted:** the run was stopped; the tables hold what was measured before that.\n\n");
    md.append(
        String.format(
            "Direct-path certification: %.3f frames per read (ceiling %.2f) -> %s.%n%n",
            r.certification().directFramesPerRead(),
            r.guards().certifyMaxFramesPerRead(),
            r.certified() ? "certified" : "**NOT certified**"));
    if (!r.certified()) {
      md.append("This host is ")
          .append(r.certification().verdict())
          .append(
              ", so nothing measured here can be blamed on a proxy. "
                  + "No target was measured; no finding is published.\n\n");
    }
    md.append(
        String.format(
            "Guards: a run is excluded when the emitter was late by more than %.3f ms (its own pacing audit), or when "
                + "every frame it read together was read while this host was stalled (its hiccup meter); an excluded run is measured once "
                + "more, once, and both are kept. %d run(s) per cell.%n%n",
            r.guards().pacingToleranceMs(), r.scenarioResolved().runs()));
    hostStalls(md, r);
    if (r.onAgents() != null) onAgents(md, r);
    md.append("Targets (network path: ")
        .append(pathText(r.certification().path(), r.certification().mtu()))
        .append(" unless a target names its own):\n\n");
    for (RunReport.TargetReport t : r.targets()) {
      md.append("- `").append(t.name()).append("`: ").append(t.description());
      if (t.upstreamHttp() != null) md.append("; upstream ").append(t.upstreamHttp().text());
      md.append('\n');
    }
    md.append('\n');
    for (RunReport.CellReport first : r.cellsMeasured()) {
      Cell cell = first.settings();
      md.append("## ").append(cell.swept().isEmpty() ? "results" : cell.label()).append("\n\n");
      md.append(streamDescription(cell, r.rows(first.cell()))).append(".\n\n");
      md.append(
          "| target | time to head (p50) | time to first frame (p50) | gap between frames (p50) | frames per read | max gap | emit->recv (p50) | excluded runs | errors |\n");
      md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      for (RunReport.CellReport row : r.rows(first.cell())) {
        BatchResult b = row.metrics();
        String none = row.noMeasurement();
        if (none != null) {
          md.append(
              String.format(
                  "| %s | %s | - | - | - | - | - | %d of %d | %s |%n",
                  row.target(), none, row.runsExcluded(), row.runsTotal(), errors(row)));
          continue;
        }
        md.append(
            String.format(
                "| %s | %.1fms | %.1fms | %.1fms | %.2f | %.1fms | %.2fms | %d of %d | %s |%n",
                row.target(),
                b.timeToHeadMs().p50(),
                b.ttftMs().p50(),
                b.gapMs().p50(),
                b.framesPerRead(),
                b.gapMs().max(),
                b.emitToRecvMs().p50(),
                row.runsExcluded(),
                row.runsTotal(),
                errors(row)));
      }
      md.append('\n');
      overheadTable(md, r, first.cell());
    }
    if (!r.flushTriggerMap().isEmpty()) {
      md.append("## Flush-trigger map\n\n");
      for (FlushTrigger t : r.flushTriggerMap().values()) {
        md.append("- **").append(t.target()).append("**: ").append(t.verdict()).append('\n');
      }
      md.append("\nEvidence (a byte trigger scales with frame size, a timer with interval):\n\n");
      for (FlushTrigger t : r.flushTriggerMap().values()) {
        md.append("`").append(t.target()).append("`\n\n");
        for (String e : t.evidence()) md.append("- ").append(e).append('\n');
        md.append('\n');
      }
    }
    Bisection b = r.adaptive();
    if (b != null) {
      md.append("## Adaptive bisection\n\n")
          .append(b.verdict())
          .append("\n\n| ")
          .append(b.parameter())
          .append(" | frames per read | excluded runs |\n|---:|---:|---:|\n");
      for (Bisection.Step step : b.steps()) {
        md.append(
            String.format(
                "| %s | %.2f | %d |%n", step.value(), step.framesPerRead(), step.excludedRuns()));
      }
      md.append('\n');
    }
    return md.toString();
  }

  /**
   * A run on a lab's agents: where each role ran, the agents' clocks, and each client agent's share
   * of every run beside the merged figures above (which are those shares' streams together).
   */
  private static void onAgents(StringBuilder md, RunReport r) {
    OnAgents a = r.onAgents();
    md.append("## On lab '").append(a.lab()).append("'\n\n");
    if (r.stoppedEarly() != null)
      md.append("**Stopped early:** ")
          .append(r.stoppedEarly())
          .append("; the runs after it were not measured.\n\n");
    md.append("| role | agent |\n|---|---|\n");
    a.placement().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e ->
                md.append("| ")
                    .append(e.getKey())
                    .append(" | ")
                    .append(e.getValue())
                    .append(" |\n"));
    md.append(
        "\nClocks (agent minus coordinator):\n\n| agent | before | after | round trips | from |\n|---|---|---|---:|---|\n");
    for (OnAgents.AgentClock c : a.clocks()) {
      String after =
          c.afterMs() == null
              ? "not measured (the agent was gone)"
              : String.format(Locale.ROOT, "%+.3f ms +- %.3f", c.afterMs(), c.boundAfterMs());
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %+.3f ms +- %.3f | %s | %d | %s |%n",
              c.agent(),
              c.beforeMs(),
              c.boundBeforeMs(),
              after,
              c.samples(),
              c.oneKernel() ? "one kernel's monotonic clock (exact)" : "round trips"));
    }
    md.append(
            "\nEach client agent's share (emit->recv moved by its clock's offset to the emitter's agent, plus or minus its bound):\n\n")
        .append(
            "| target | cell | run | agent | streams ok | frames | reads | frames/read | emit->recv p50 | emit->recv p99 | note |\n")
        .append("|---|---|---:|---|---:|---:|---:|---:|---|---|---|\n");
    for (RunReport.CellReport cell : r.cells()) {
      for (RunReport.RunEntry run : cell.runs()) {
        for (AgentShare s : run.agents()) {
          String p50 =
              s.withheld() != null
                  ? "withheld"
                  : String.format(
                      Locale.ROOT, "%.3f ms +- %.3f", s.emitToRecvP50Ms(), s.clockBoundMs());
          String p99 =
              s.withheld() != null
                  ? "withheld"
                  : String.format(
                      Locale.ROOT, "%.3f ms +- %.3f", s.emitToRecvP99Ms(), s.clockBoundMs());
          String note =
              (run.excluded() ? "run excluded: " + run.exclusionReason() : "")
                  + (s.withheld() == null
                      ? ""
                      : (run.excluded() ? "; " : "") + "emit->recv withheld: " + s.withheld());
          md.append(
              String.format(
                  Locale.ROOT,
                  "| %s | %s | %d | %s | %d/%d | %d | %d | %.2f | %s | %s | %s |%n",
                  cell.target(),
                  cell.cellLabel(),
                  run.run() + 1,
                  s.agent(),
                  s.streamsOk(),
                  s.streams(),
                  s.frames(),
                  s.reads(),
                  s.framesPerRead(),
                  p50,
                  p99,
                  note));
        }
      }
    }
    md.append('\n');
  }

  private static String pathText(String path, int mtu) {
    return path.equals("veth") ? "veth, MTU " + mtu : path + " (MTU " + mtu + ")";
  }

  /** How to run it again, on what, with which scenario text. */
  static String reproduce(RunReport r) {
    Environment env = r.environment();
    StringBuilder md = new StringBuilder("## Reproduce\n\n");
    md.append(env.describe());
    md.append("- command: `")
        .append(r.command())
        .append("` (in ")
        .append(env.workingDirectory())
        .append(")\n\n");
    md.append("Scenario file `")
        .append(r.scenarioFile())
        .append("`:\n\n```yaml\n")
        .append(r.scenarioText().strip())
        .append("\n```\n");
    return md.toString();
  }

  /**
   * Each target minus the direct path in the same cell: what the target adds (the direct path is
   * the calibration).
   */
  private static void overheadTable(StringBuilder md, RunReport r, int cell) {
    RunReport.TargetReport direct =
        r.targets().stream().filter(RunReport.TargetReport::isDirect).findFirst().orElse(null);
    if (direct == null || r.targets().size() < 2) return;
    List<RunReport.CellReport> rows = r.rows(cell);
    BatchResult d =
        rows.stream()
            .filter(c -> c.target().equals(direct.name()))
            .map(RunReport.CellReport::metrics)
            .findFirst()
            .orElse(null);
    if (d == null || d.streamsOk() == 0) return;
    md.append("Difference to `")
        .append(direct.name())
        .append("` (target minus direct; negative = direct was noisier):\n\n");
    md.append(
        "| target | TTFT p50 | emit->recv first frame p50 | emit->recv p50 | emit->recv p99 | gap p50 | gap p99 |\n");
    md.append("|---|---:|---:|---:|---:|---:|---:|\n");
    for (RunReport.CellReport row : rows) {
      if (row.target().equals(direct.name()) || row.metrics().streamsOk() == 0) continue;
      BatchResult b = row.metrics();
      md.append(
          String.format(
              "| %s | %+.3fms | %+.3fms | %+.3fms | %+.3fms | %+.3fms | %+.3fms |%n",
              row.target(),
              b.ttftMs().p50() - d.ttftMs().p50(),
              b.firstEmitToRecvMs().p50() - d.firstEmitToRecvMs().p50(),
              b.emitToRecvMs().p50() - d.emitToRecvMs().p50(),
              b.emitToRecvMs().p99() - d.emitToRecvMs().p99(),
              b.gapMs().p50() - d.gapMs().p50(),
              b.gapMs().p99() - d.gapMs().p99()));
    }
    md.append('\n');
  }

  /**
   * A line for each run a host stall excluded or a loop stall merged reads in; nothing when there
   * was none.
   */
  private static void hostStalls(StringBuilder md, RunReport r) {
    List<String> lines = new ArrayList<>();
    for (RunReport.RunEntry e : r.certification().runs())
      stallLines(lines, "certification run " + (e.run() + 1), e);
    for (RunReport.CellReport c : r.cells()) {
      for (RunReport.RunEntry e : c.runs())
        stallLines(lines, c.target() + " [" + c.cellLabel() + "] run " + (e.run() + 1), e);
    }
    if (lines.isEmpty()) return;
    md.append("Host stalls (this host's hiccup meter):\n\n");
    for (String l : lines) md.append("- ").append(l).append('\n');
    md.append('\n');
  }

  private static void stallLines(List<String> lines, String run, RunReport.RunEntry e) {
    if (e.exclusionCause() == Exclusion.Cause.EMITTER_HELD_BY_HOST)
      lines.add(run + ": excluded, " + e.exclusionReason());
    for (RunReport.Hiccups h : e.hiccups()) {
      if (e.exclusionCause() == Exclusion.Cause.HOST_STALL) {
        lines.add(run + ": excluded, " + h.hostStall());
      } else if (h.extraFramesInHostStalls() > 0) {
        lines.add(
            String.format(
                "%s: kept, %d of its %d extra frames (of %d read) read in host stalls: %s",
                run, h.extraFramesInHostStalls(), h.extraFrames(), h.frames(), h.hostStall()));
      }
      if (h.loopStall() != null) lines.add(run + ": " + h.loopStall());
    }
  }

  /** Errors over every run of the row (excluded runs too: an error is never hidden by a guard). */
  private static String errors(RunReport.CellReport row) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (RunReport.RunEntry run : row.runs()) {
      for (Map<String, Object> e : run.metrics().errors())
        counts.merge((String) e.get("kind"), (Integer) e.get("count"), Integer::sum);
    }
    if (counts.isEmpty()) return "0";
    StringBuilder sb = new StringBuilder();
    counts.forEach(
        (kind, n) -> sb.append(sb.length() == 0 ? "" : ", ").append(n).append(' ').append(kind));
    return sb.toString();
  }

  /**
   * The stream a cell asked for, in words; a chat stream is tokens (its events are sized by their
   * JSON), not frames of frame_size.
   */
  public static String streamDescription(Cell cell, List<RunReport.CellReport> rows) {
    StreamSpec s = cell.stream();
    String interval = Units.formatDuration(s.intervalNanos());
    String extras =
        (cell.client().slowReaderPauseNanos() > 0
                ? ", client pausing "
                    + Units.formatDuration(cell.client().slowReaderPauseNanos())
                    + " after each read"
                : "")
            + (s.headers().isEmpty() ? "" : ", headers " + s.headers());
    if (s.endpoint().isOpenAi()) {
      double wire =
          rows.stream()
              .filter(r -> r.metrics().frames() > 0)
              .mapToDouble(r -> r.metrics().wireBytesPerFrame())
              .findFirst()
              .orElse(0);
      return String.format(
          "OpenAI %s, %d tokens every %s%s%s",
          s.endpoint() == Endpoint.CHAT ? "chat" : "Responses",
          s.frames(),
          interval,
          wire > 0 ? String.format(" (events of ~%.0f B on the wire)", wire) : "",
          extras);
    }
    return String.format(
        "SSE, %s frames of %dB every %s%s",
        s.bulk() ? Units.formatBytes(s.totalBytes()) + " in" : Integer.toString(s.frames()),
        s.frameBytes(),
        interval,
        extras);
  }
}
