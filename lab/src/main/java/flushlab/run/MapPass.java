package flushlab.run;

import flushlab.client.BatchResult;
import flushlab.client.ClientProfile;
import flushlab.client.StreamError;
import flushlab.client.StreamResult;
import flushlab.core.HiccupMeter;
import flushlab.core.HostQuiet;
import flushlab.core.Units;
import flushlab.map.CellEvidence;
import flushlab.map.CellPlan;
import flushlab.map.FlushTrigger;
import flushlab.map.MapProber;
import flushlab.scenario.Cell;
import flushlab.scenario.Setting;
import flushlab.stream.ResponseShape;
import flushlab.targets.Target;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One pass of the map as one kind of client: the prober chooses the cells and this measures each
 * (one run, a run a guard excluded measured once more), and says how a pass that got no data ended
 * (the target failed, this host stalled, or a guard excluded both runs), so the map infers nothing
 * from a cell it did not get.
 */
final class MapPass {
  private final MapLab lab;

  MapPass(MapLab lab) {
    this.lab = lab;
  }

  /**
   * A cell as the prober reads it, the one rule for the prober and the two-stage fits: its kept
   * runs, or, when both runs were excluded because this host stalled and outside the stalls each
   * frame came alone, those streams ({@link #streamedOutsideStalls}); null for a cell that is no
   * data (every stream failed, frames lost, nothing read or kept). The two-stage fits once read
   * such a streamed cell from its kept runs alone, found none, and left the pass without its
   * candidates (CI, 2026-12-04: a byte threshold of ~3.7 KB then one-late was answered
   * inconclusive).
   */
  static CellEvidence asProbed(TargetCellResult r, double baselineMs) {
    if (r.runs().stream().allMatch(RunRecord::excluded))
      return streamedOutsideStalls(r, r.runs(), baselineMs);
    BatchResult kept = r.included();
    if (kept.streamsOk() == 0 && kept.errorCount() > 0
        || kept.lostFrames() > 0
        || kept.frames() == 0) return null;
    return r.evidence(baselineMs);
  }

  /**
   * A cell whose runs were both excluded because every frame read together was read in a stall of
   * this host: outside the stalls each frame came alone, which is what a streamed cell shows. When
   * the runs' reads together also pass as streamed (one frame per release at the median, the oldest
   * waiting under 5 ms, at most 1.25 frames per read, stalls and all), the cell is evidence that
   * the target streams it, labelled as such; otherwise (a target that held frames, which a host's
   * run-queue waits could have hidden) null, and nothing is inferred from the cell.
   */
  static CellEvidence streamedOutsideStalls(
      TargetCellResult r, List<RunRecord> runs, double baselineMs) {
    if (runs.isEmpty() || !runs.stream().allMatch(RunRecord::excludedForHostStall)) return null;
    List<StreamResult> read = new ArrayList<>();
    for (RunRecord run : runs) read.addAll(run.result().streamResults());
    BatchResult b = new BatchResult(read);
    if (b.streamsOk() == 0 || b.lostFrames() > 0 || b.frames() == 0) return null;
    CellEvidence e =
        new TargetCellResult(r.target(), r.cell(), r.runs(), b, r.requestHeaders())
            .evidence(baselineMs);
    return e.streamed() ? e.withLabel(e.label() + " (streamed outside this host's stalls)") : null;
  }

  /**
   * The cell {@code plan} asks for, as {@code base}'s client and endpoint (an OpenAI stream's
   * events are sized by their JSON: only its interval and count change), numbered {@code index}.
   */
  static Cell cellOf(Cell base, CellPlan plan, int index) {
    Cell cell =
        base.stream().endpoint().isOpenAi()
            ? base
            : base.with(Setting.FRAME_SIZE, plan.frameSizeBytes() + "B");
    cell =
        cell.with(Setting.INTERVAL, Units.formatDuration(plan.intervalNanos()))
            .with(Setting.FRAMES, Integer.toString(plan.frames()));
    if (plan.thinkNanos() > 0) {
      cell =
          cell.with(Setting.THINK, Units.formatDuration(plan.thinkNanos()))
              .with(Setting.SSE_KEEPALIVE, Units.formatDuration(plan.keepAliveNanos()));
    }
    return cell.withIndex(index);
  }

  /**
   * One pass of the prober as one kind of client: the cells it chooses, one run each (a run the
   * pacing guard excluded is measured once more, and both are kept). A cell whose every stream
   * failed, or in which frames were lost, ends the pass inconclusive: the map infers nothing from
   * data it did not get.
   */
  FlushTrigger run(Asked asked, double budgetSeconds) throws Exception {
    Target target = asked.target();
    Cell base = asked.base();
    boolean identity = asked.identity();
    // an OpenAI stream's events are sized by their JSON: the map varies only the interval
    boolean openAi = base.stream().endpoint().isOpenAi();
    String who =
        base.profile() == ClientProfile.DEFAULT && !identity ? "" : " as " + base.profile().text();
    boolean eventStream =
        new ResponseShape(base.stream().contentType(), base.stream().transfer()).eventStream();
    PassProbe probe = new PassProbe(asked, who);
    MapProber prober =
        new MapProber(
            target.name(),
            target.path(),
            openAi,
            eventStream,
            probe,
            budgetSeconds,
            asked.announce());
    FlushTrigger trigger = prober.run();
    PassEnd failed = probe.failed;
    PassEnd.Kind ended = failed == null ? null : failed.kind();
    if (ended == PassEnd.Kind.HOST_STALLED || ended == PassEnd.Kind.EXCLUDED) {
      trigger =
          FlushTrigger.inconclusive(
              target.name(),
              failed.why(),
              List.of(),
              List.of(
                  ended == PassEnd.Kind.HOST_STALLED
                      ? "map again on a quieter host: the reads merged while this host was stopped, not by the target"
                      : "map again; an emitter late with no stall of this host was held by the lab's own code on its loop (worth reporting)"));
    } else if (failed != null) {
      // a peer that answered an HTTP/1.1 request with HTTP/2's frames (an h2c-only listener) is
      // asked the way it speaks
      String next =
          failed.kind() == PassEnd.Kind.SPEAKS_HTTP2_ONLY
              ? "map it over HTTP/2 by prior knowledge: --http h2c"
              : "check that the target forwards every byte of the stream (flushlab client --target ... prints what each stream lost)";
      trigger =
          FlushTrigger.inconclusive(
              target.name(), "the target failed: " + failed.why(), List.of(), List.of(next));
    }
    return trigger;
  }

  /**
   * What a pass measures and as whom: the target, the cell it varies ({@code base}, its client
   * profile included), whether it asks for no compression ({@code identity}), how each cell is
   * measured, the certified direct path, and where its cells and its lines go.
   */
  record Asked(
      Target target,
      Cell base,
      boolean identity,
      Measure measure,
      Certification cert,
      List<TargetCellResult> results,
      Consumer<String> announce) {}

  /**
   * Measures the prober's cells as one kind of client into the map's results: a cell it measures
   * again replaces its first measurement, whose runs this host stalled through are kept, excluded
   * for the stall.
   */
  private final class PassProbe implements MapProber.CellProbe {
    private final Asked asked;
    private final String who;

    /** Why the pass ends before the prober is done, once it does; null until then. */
    private PassEnd failed;

    /** Where in the pass's results each plan's cell is, by the plan's text. */
    private final Map<String, Integer> measuredAt = new HashMap<>();

    PassProbe(Asked asked, String who) {
      this.asked = asked;
      this.who = who;
    }

    @Override
    public CellEvidence measure(CellPlan plan) throws Exception {
      Cell cell = cellOf(asked.base(), plan, asked.results().size());
      lab.progress("map: " + plan + who);
      List<RunRecord> runs = new ArrayList<>();
      if (!measured(cell, plan.toString(), 0, runs)) return null;
      TargetCellResult r = TargetCellResult.of(asked.target().name(), cell, runs);
      if (asked.identity()) r = r.withRequestHeaders(lab.headersFor(true));
      measuredAt.put(plan.toString(), asked.results().size());
      asked.results().add(r);
      return probed(plan, r, runs);
    }

    @Override
    public String hostStalledIn(CellPlan plan) {
      Integer at = measuredAt.get(plan.toString());
      return at == null
          ? null
          : PassStalls.hostStallsDuring(
              List.of(asked.results().get(at)), PassStalls.AGAIN_STALL_MS);
    }

    @Override
    public CellEvidence measureAgain(CellPlan plan, String why) throws Exception {
      Integer at = measuredAt.get(plan.toString());
      if (at == null) return null;
      TargetCellResult old = asked.results().get(at);
      List<RunRecord> runs = new ArrayList<>();
      // a kept run this host stalled through is set aside for it; another kept run stays
      for (RunRecord r : old.runs())
        runs.add(
            r.excluded()
                    || r.stalls() == null
                    || r.stalls().host().maxMs() < PassStalls.AGAIN_STALL_MS
                ? r
                : r.withExclusion(
                    Exclusion.hostStall(
                        "this host stalled in it ("
                            + r.stalls().host().describe()
                            + ") and "
                            + why)));
      asked
          .announce()
          .accept("map: " + plan + who + " again " + HostQuiet.await(HiccupMeter.get()).text());
      List<RunRecord> fresh = new ArrayList<>();
      if (!measured(old.cell(), plan + " again", old.runs().size(), fresh)) return null;
      runs.addAll(fresh);
      TargetCellResult again = TargetCellResult.of(asked.target().name(), old.cell(), runs);
      if (old.requestHeaders() != null) again = again.withRequestHeaders(old.requestHeaders());
      asked.results().set(at, again);
      return probed(plan, again, fresh);
    }

    /** {@code cell} measured as this pass's client into {@code runs}; false when the map stops. */
    private boolean measured(Cell cell, String label, int run, List<RunRecord> runs)
        throws Exception {
      lab.identityPass(asked.identity());
      try {
        return !lab.interrupted()
            && asked
                .measure()
                .runOnceMoreIfExcluded(
                    asked.target(), cell, cell.index(), run, label, runs, asked.announce());
      } finally {
        lab.identityPass(false);
      }
    }

    /**
     * The cell as the prober reads it, or null with why the pass ends in {@link #failed}: {@code
     * runs} are the ones just measured.
     */
    private CellEvidence probed(CellPlan plan, TargetCellResult r, List<RunRecord> runs) {
      BatchResult b = r.included();
      boolean bothExcluded = runs.stream().allMatch(RunRecord::excluded);
      CellEvidence probed = asProbed(r, asked.cert().emitToRecvMs());
      if (probed != null) {
        if (bothExcluded) {
          asked
              .announce()
              .accept(
                  "map: "
                      + plan
                      + who
                      + ": both runs' merged reads all fell in this host's stalls, and outside them each "
                      + "frame came alone: the cell streamed ("
                      + runs.get(runs.size() - 1).exclusionReason()
                      + ")");
        }
        return probed;
      }
      // no data: why
      if (bothExcluded) {
        String why = runs.get(runs.size() - 1).exclusionReason();
        failed =
            runs.stream().allMatch(RunRecord::spoiledByHostStall)
                ? new PassEnd(
                    "this host stalled in both runs of "
                        + plan
                        + who
                        + " ("
                        + why
                        + "); nothing is inferred from it",
                    PassEnd.Kind.HOST_STALLED)
                : new PassEnd(
                    "both runs of "
                        + plan
                        + who
                        + " were excluded ("
                        + why
                        + ") with no stall of this host to account for it; "
                        + "nothing is inferred from it",
                    PassEnd.Kind.EXCLUDED);
        return null;
      }
      if (b.streamsOk() == 0 && b.errorCount() > 0) {
        failed =
            new PassEnd(
                "every stream of " + plan + who + " failed: " + b.firstError(),
                b.failedWith(StreamError.HTTP2_ONLY)
                    ? PassEnd.Kind.SPEAKS_HTTP2_ONLY
                    : PassEnd.Kind.TARGET_FAILED);
        return null; // a asked.target() that answers no stream has no trigger to map: stop here
      }
      failed =
          new PassEnd(
              (b.frames() == 0
                      ? "no frame of " + plan + who + " was read"
                      : b.lostFrames() + " frames of " + plan + who + " were lost")
                  + "; nothing is inferred from it",
              PassEnd.Kind.TARGET_FAILED);
      return null;
    }
  }

  /**
   * Why a pass of the map stopped before its prober was done: the target failed it, this host
   * stalled, or a guard excluded both runs.
   */
  private record PassEnd(String why, Kind kind) {
    enum Kind {
      TARGET_FAILED,
      SPEAKS_HTTP2_ONLY,
      HOST_STALLED,
      EXCLUDED
    }
  }
}
