package flushlab;

import com.fasterxml.jackson.databind.JsonNode;
import flushlab.core.HiccupMeter;
import flushlab.core.StallFigures;
import flushlab.core.StallLog;
import flushlab.map.FlushTrigger;
import flushlab.run.Outcome;
import flushlab.run.RunRecord;
import flushlab.run.TargetCellResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * What a timing test does when this host stalled twice in a row under it: the lab measured the run
 * once more, as it must, and the host stalled again, so the test has no result to judge. It is
 * reported as a host stall (an assumption that skips the test, with the figures the lab printed),
 * never as a wrong result and never retried further. A stall of the lab's own loops is no excuse.
 */
public final class HostStalls {
  private HostStalls() {}

  /**
   * The words the lab uses, in a verdict or a message, when it stopped because this host stalled.
   */
  public static final String PHRASE = "this host stalled";

  /**
   * Skips the test with {@code message}, printed first: a skip in a class's set-up reaches the
   * report as "0 tests run" with no message, and a skip must say why with its figures.
   */
  public static void skip(String message) {
    System.out.println("SKIPPED (" + message + ")");
    Assumptions.abort(message);
  }

  /**
   * Skips the test when this text (a map's verdict, a command's output) says this host stalled
   * through a measurement.
   */
  public static void skipIfSaidIn(String text) {
    if (text != null && text.contains(PHRASE)) {
      skip("host stall, not a result (" + since() + "): " + text);
    }
  }

  /**
   * Skips the test when certification, a cell, a map's answer or a bisection's step of {@code o}
   * was spoiled by this host's stalls twice.
   */
  public static void skipIfStalled(Outcome o) {
    skipIfSaidIn(o.certification().verdict());
    for (TargetCellResult r : o.results()) {
      if (!r.runs().isEmpty() && r.runs().stream().allMatch(RunRecord::spoiledByHostStall)) {
        skip(
            "host stall, not a result: every run of "
                + r.target()
                + " ["
                + r.cell().label()
                + "] was excluded ("
                + r.runs().get(r.runs().size() - 1).exclusionReason()
                + ")");
      }
    }
    for (FlushTrigger t : o.triggers().values()) skipIfSaidIn(t.verdict());
    if (o.bisection() != null) skipIfSaidIn(o.bisection().verdict());
  }

  /**
   * The share of a span this host may stand still (its meter's logged stalls summed) and still time
   * a hop to the millisecond.
   */
  static final double BUSY_SHARE = 0.05;

  /**
   * Skips the test when this host stood still for {@link #BUSY_SHARE} or more of the span from
   * {@code startNanos} to {@code endNanos} (System.nanoTime): {@code result}, which the test is
   * about to fail, is then this host's doing. Called only for a result that would fail, so a good
   * result on a busy host still counts.
   */
  public static void skipIfBusy(long startNanos, long endNanos, String result) {
    List<StallLog.Stall> stalls = HiccupMeter.get().host().between(startNanos, endNanos);
    long stood = 0;
    for (StallLog.Stall st : stalls) stood += st.nanos();
    double share = stood / (double) Math.max(1, endNanos - startNanos);
    if (share >= BUSY_SHARE) {
      skip(
          String.format(
              "host stall, not a result: this host stood still %.0f %% of the measurement (%s): %s",
              share * 100, StallFigures.of(stalls, startNanos).describe(), result));
    }
  }

  /**
   * Skips the test when a target's first token came {@code excessMs} later than the test allows and
   * the host can account for all of it in every kept run of {@code r}: the reader's longest host
   * stall plus the longest wait for a core of a thread of the path's processes (the proxy the lab
   * started). The lab judges merged reads against stalls, not a late first token, so a test that
   * times the first token judges it here. Called only for a result that would fail; a late start
   * the host cannot account for still fails (a cork adds its 200 ms on an idle host too).
   */
  public static void skipIfLateStartIsTheHosts(TargetCellResult r, double excessMs) {
    List<RunRecord> kept =
        r.runs().stream().filter(run -> !run.excluded() && run.stalls() != null).toList();
    if (kept.isEmpty() || excessMs <= 0) return;
    StringBuilder figures = new StringBuilder();
    for (RunRecord run : kept) {
      double hostMs = run.stalls().host().maxMs();
      double pathMs = run.stalls().path().longestThreadWaitNanos() / 1e6;
      if (hostMs + pathMs < excessMs) return;
      figures.append(
          String.format(
              "; run %d: the client's host stalled up to %.0f ms, %s waited for a core up to %.0f ms",
              run.run() + 1,
              hostMs,
              run.stalls().path().who().isEmpty() ? "the path" : run.stalls().path().who(),
              pathMs));
    }
    skip(
        String.format(
            "host stall, not a result: %s [%s]'s first token came %.0f ms past what the test allows, all of which this host "
                + "took from the path%s",
            r.target(), r.cell().label(), excessMs, figures));
  }

  /**
   * A row of a results.json whose every run was excluded has no figures (its metrics read 0: no
   * data, never a result to compare): when each run was spoiled by this host (a host stall, an
   * emitter its loop's host stall held, or one late by at most twice the longest stall), the test
   * has no result to judge (see the class comment); otherwise the row is judged, and fails.
   */
  public static void skipIfEveryRunWasSpoiledByThisHost(JsonNode row) {
    List<String> reasons = new ArrayList<>();
    for (JsonNode run : row.get("runs")) {
      if (!run.get("excluded").asBoolean()) return;
      double hostMaxMs = 0;
      for (JsonNode h : run.path("hiccups"))
        hostMaxMs = Math.max(hostMaxMs, h.path("host").path("max_ms").asDouble());
      boolean spoiled =
          run.get("exclusion_cause").asText().equals("host-stall")
              || run.get("exclusion_cause").asText().equals("emitter-held-by-host")
              || run.get("exclusion_cause").asText().equals("emitter-late")
                  && hostMaxMs >= run.get("emitter_max_lateness_ms").asDouble() / 2;
      if (!spoiled) return;
      reasons.add(
          run.get("exclusion_reason").asText() + " (host stalled up to " + hostMaxMs + " ms)");
    }
    if (!reasons.isEmpty())
      skip(
          "host stall, not a result: every run of "
              + row.get("target").asText()
              + " was excluded: "
              + reasons);
  }

  /**
   * Skips the test when a kept run of {@code row} (a results.json row) was read through a stall of
   * this host longer than {@code ms}: frames sent through it are read together, which moves frames
   * per read as a proxy would, so the row is not the path's own figure ({@code what}: the figure
   * the test could not judge, for the message).
   */
  public static void skipIfAKeptRunStalledOver(JsonNode row, double ms, String what) {
    for (JsonNode run : row.path("runs")) {
      if (run.path("excluded").asBoolean()) continue;
      double hostMaxMs = 0;
      for (JsonNode h : run.path("hiccups"))
        hostMaxMs = Math.max(hostMaxMs, h.path("host").path("max_ms").asDouble());
      if (hostMaxMs > ms)
        skip(
            String.format(
                "host stall, not a result: %s; run %d of %s [%s] was read through a %.1f ms stall"
                    + " of this host (over %.0f ms)",
                what,
                run.path("run").asInt(),
                row.path("target").asText(),
                row.path("cell_label").asText(),
                hostMaxMs,
                ms));
    }
  }

  /** The process's stalls so far, for a skip message. */
  public static String since() {
    HiccupMeter m = HiccupMeter.get();
    return "host stalls logged by this process: "
        + m.host().count()
        + ", loop stalls: "
        + m.loops().count();
  }
}
