package flushlab.report;

import flushlab.cluster.ClockOffset;
import flushlab.cluster.ClusterOutcome;
import flushlab.cluster.ClusterOutcome.Figures;
import flushlab.cluster.ClusterOutcome.RunRow;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** summary.md of a cluster run: placement, clocks, then every run's merged figures with each agent's under it. */
public final class ClusterSummaryMarkdown {
  private ClusterSummaryMarkdown() {}

  public static String render(ClusterReport r) {
    ClusterOutcome o = r.outcome();
    StringBuilder md = new StringBuilder();
    md.append("# ").append(r.scenario()).append(" (on a lab's agents)\n\n");
    if (!r.description().isEmpty()) md.append(r.description()).append("\n\n");
    md.append("Run `").append(o.runId()).append("`, started ").append(r.started()).append(String.format(Locale.ROOT, ", %.1f s", o.seconds()));
    if (o.interrupted()) md.append(", **interrupted**");
    if (o.partial()) md.append(", **partial** (an agent's share did not come back; see the runs)");
    md.append(".\n\n## Placement\n\n| role | agent |\n|---|---|\n");
    for (Map.Entry<String, String> e : o.placement().entrySet()) md.append("| ").append(e.getKey()).append(" | ").append(e.getValue()).append(" |\n");
    md.append("\n## Clocks (agent minus coordinator)\n\n| agent | before | after | round trips | from |\n|---|---|---|---|---|\n");
    for (ClusterOutcome.AgentClock c : o.clocks()) {
      String after = c.measuredAfter() ? String.format(Locale.ROOT, "%+.3f ms +- %.3f", c.offsetAfterNs() / 1e6, c.boundAfterNs() / 1e6)
          : "not measured (the agent was gone)";
      md.append(String.format(Locale.ROOT, "| %s | %+.3f ms +- %.3f | %s | %d | %s |%n", c.agent(), c.offsetBeforeNs() / 1e6,
          c.boundBeforeNs() / 1e6, after, c.samples(),
          c.basis() == ClockOffset.Basis.SHARED_MONOTONIC ? "one kernel's monotonic clock (exact)" : "round trips"));
    }
    md.append("\n## Certification\n\n");
    md.append(o.certified() ? "The direct path from the client agents was clean.\n\n" : "**Not certified**: " + o.certifyVerdict()
        + ". No finding is published.\n\n");
    table(md, o.certification());
    md.append("\n## Runs\n\n");
    if (o.rows().isEmpty()) md.append("No run was measured.\n");
    else table(md, o.rows());
    return md.toString();
  }

  private static void table(StringBuilder md, List<RunRow> rows) {
    md.append("| target | cell | run | agent | streams ok | frames | reads | frames/read | damaged | ttft p50 | emit->recv p50 | emit->recv p99 | note |\n")
        .append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (RunRow r : rows) {
      String note = (r.excluded() ? "excluded: " + r.exclusionReason() + "; " : "") + (r.partial() ? "partial: " + r.streamsLost() + " of "
          + r.streamsAsked() + " streams lost with " + String.join(", ", r.missing().keySet()) + " (" + r.missing() + ")" : "");
      if (r.merged() == null) {
        md.append("| ").append(r.target()).append(" | ").append(r.cellLabel()).append(" | ").append(r.run() + 1)
            .append(" | merged | no data | | | | | | | | ").append(note).append(" |\n");
        continue;
      }
      row(md, r, r.merged(), note);
      for (Figures f : r.perAgent()) row(md, r, f, "");
    }
  }

  private static void row(StringBuilder md, RunRow r, Figures f, String note) {
    ClusterOutcome.OneWay e = f.emitToRecv();
    String p50 = e.withheld() != null ? "withheld" : String.format(Locale.ROOT, "%.3f ms +- %.3f", e.p50Ms(), e.boundMs());
    String p99 = e.withheld() != null ? "withheld" : String.format(Locale.ROOT, "%.3f ms +- %.3f", e.p99Ms(), e.boundMs());
    if (e.withheld() != null) note = (note.isEmpty() ? "" : note + "; ") + "emit->recv withheld: " + e.withheld();
    md.append(String.format(Locale.ROOT, "| %s | %s | %d | %s | %d/%d | %d | %d | %.2f | %d | %.3f ms | %s | %s | %s |%n", r.target(),
        r.cellLabel(), r.run() + 1, f.agent(), f.streamsOk(), f.streams(), f.frames(), f.reads(), f.framesPerRead(), f.damaged(),
        f.ttftP50Ms(), p50, p99, note));
  }
}
