package flushlab.report;

import flushlab.run.ProbeOutcome;
import java.util.Locale;

/** summary.md of a probe scenario: what ran where, then each server's table and answer. */
public final class ProbeSummaryMarkdown {
  private ProbeSummaryMarkdown() {}

  public static String render(ProbeReport r) {
    StringBuilder md = new StringBuilder();
    md.append("# ").append(r.scenario()).append(" (probe: ").append(r.probe()).append(")\n\n");
    if (!r.description().isBlank()) md.append(r.description().strip()).append("\n\n");
    md.append("Started ")
        .append(r.started())
        .append(String.format(Locale.ROOT, ", %.1f s", r.seconds()))
        .append(r.interrupted() ? ", **interrupted**: only the servers that finished are here" : "")
        .append(".\n\n");
    md.append(
        "## Servers\n\n| server | path | MTU | SO_RCVBUF asked | granted | read delay | TCP_NODELAY |\n|---|---|---:|---:|---:|---:|---|\n");
    for (ProbeOutcome.ServerResult s : r.servers()) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %d | %s | %s | %.1f ms | %s |%n",
              s.name(),
              s.path(),
              s.mtu(),
              s.rcvbufAsked() == null ? "kernel's" : s.rcvbufAsked() + " B",
              s.rcvbufGranted() == null ? "?" : s.rcvbufGranted() + " B",
              s.readDelayMs(),
              s.nodelay() ? "on" : "off"));
    }
    md.append('\n');
    for (ProbeOutcome.ServerResult s : r.servers()) {
      md.append("## ").append(s.name()).append("\n\n");
      if (s.error() != null) {
        md.append("Not measured: ").append(s.error()).append("\n\n");
        continue;
      }
      if (s.upload() != null) upload(md, s.upload());
      if (s.keepalive() != null) keepAlive(md, s.keepalive());
    }
    md.append("## Reproduce\n\n")
        .append(r.environment().describe())
        .append("- command: `")
        .append(r.commandLine())
        .append("`\n\nScenario file `")
        .append(r.scenarioFile())
        .append("`:\n\n```yaml\n")
        .append(r.scenarioText().strip())
        .append("\n```\n");
    return md.toString();
  }

  private static void upload(StringBuilder md, ProbeOutcome.UploadResult u) {
    md.append(
        "| body bytes | time to response head p50 ms | min | max | retransmits (sum) | rtt p50 ms |\n|---:|---:|---:|---:|---:|---:|\n");
    for (ProbeOutcome.SizeRow row : u.sweep()) md.append(row(row, ""));
    for (ProbeOutcome.SizeRow row : u.bisection()) md.append(row(row, " (bisection)"));
    md.append('\n').append(u.verdict()).append("\n\n");
  }

  private static String row(ProbeOutcome.SizeRow r, String note) {
    return String.format(
        Locale.ROOT,
        "| %d%s | %s | %s | %s | %s | %s |%n",
        r.bodyBytes(),
        note,
        ms(r.p50Ms()),
        ms(r.minMs()),
        ms(r.maxMs()),
        r.retransmits() == null ? "n/a" : r.retransmits().toString(),
        r.rttP50Ms() == null ? "n/a" : String.format(Locale.ROOT, "%.3f", r.rttP50Ms()));
  }

  private static String ms(Double v) {
    return v == null ? "failed" : String.format(Locale.ROOT, "%.2f", v);
  }

  private static void keepAlive(StringBuilder md, ProbeOutcome.KeepAliveResult k) {
    md.append(
        "| client TCP_NODELAY | requests | mean ms | p50 ms | p99 ms | max ms | stalls | total ms |\n"
            + "|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (ProbeOutcome.KeepAliveRow r : k.rows()) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %.3f | %.3f | %.3f | %.3f | %d | %.1f |%n",
              r.clientNodelay() ? "on" : "off",
              r.requests(),
              r.meanMs(),
              r.p50Ms(),
              r.p99Ms(),
              r.maxMs(),
              r.stalls(),
              r.totalMs()));
    }
    md.append(
        String.format(
            Locale.ROOT,
            "%nA stall: a request slower than the probe's fastest (%.3f ms) by more than %.0f ms.%n%n",
            k.fastestMs(),
            k.stallOverMs()));
  }
}
