package flushlab.run;

import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import flushlab.core.HiccupMeter;
import flushlab.core.HostPort;
import flushlab.core.ThreadWaits;
import flushlab.core.Units;
import flushlab.emitter.PacingAudit;
import flushlab.http.Header;
import flushlab.netpath.ServerSite;
import flushlab.netpath.ServerSites;
import flushlab.scenario.Cell;
import flushlab.scenario.Setting;
import flushlab.stream.StreamSpec;
import flushlab.targets.RunningTargets;
import flushlab.targets.Target;
import flushlab.tls.ClientTls;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One run on this host: one client batch against a target the runner started, then the pacing guard
 * over every stream the emitter served and the reader's stalls over its reads.
 */
final class LocalMeasurer implements Measure {
  /** What a run on this host needs of the runner that started its sites and targets. */
  interface Runner {
    Vertx vertx();

    boolean interrupted();

    boolean budgetSpent();

    /** The cell with its request timeout the smaller of its own and what is left of the budget. */
    Cell withinBudget(Cell cell);

    long msLeft();

    void beforeRun(String target, int cell, int run, Context emitterLoop);

    /** The client of the run under way (an interrupt closes it), or null once it is done. */
    void running(MeteredClient client);

    /** The request headers: as the map's pass asks ({@code true}), or as the scenario has them. */
    List<Header> headers(boolean asThePassAsks);

    long pacingToleranceNanos();
  }

  private final Runner runner;
  private final ServerSites sites;
  private final RunningTargets targets;

  LocalMeasurer(Runner runner, ServerSites sites, RunningTargets targets) {
    this.runner = runner;
    this.sites = sites;
    this.targets = targets;
  }

  /**
   * Null when the run was aborted by the runner's interrupt (a partial run is not a measurement).
   */
  @Override
  public RunRecord run(Target target, Cell cell, int cellIndex, int run) throws Exception {
    ServerSite site = sites.site(target.path());
    boolean plainDirect = target instanceof Target.Direct d && !d.speaksTls();
    HostPort at = plainDirect ? site.emitter() : targets.address(target);
    ClientTls tls = plainDirect ? null : targets.tls(target);
    if (runner.budgetSpent()) return null;
    ClientOptions options = runner.withinBudget(cell).client();
    runner.beforeRun(target.name(), cellIndex, run, site.emitterLoop());
    MeteredClient client = new MeteredClient(runner.vertx(), options);
    runner.running(client);
    List<Long> pathPids = pathProcesses(target, site, plainDirect);
    ThreadWaits waitsBefore = ThreadWaits.of(pathPids);
    BatchResult result;
    long started = System.currentTimeMillis();
    long startedNanos = System.nanoTime();
    try {
      if (runner.interrupted()) return null;
      long waitMs =
          Math.min(
              options.timeoutNanos() / 1_000_000 * options.requests() + 10_000,
              runner.msLeft() + 2_000);
      try {
        result =
            client
                .run(CellRequest.plan(cell, at, tls, runner.headers(true)))
                .await(waitMs, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        throw new IllegalStateException(
            String.format(
                "%d request(s) to %s at %s were still not done after %d ms, past their own "
                    + "timeout and what was left of the budget: the target kept them open, or kept this client too busy to time them out "
                    + "(a server flooding the connection); no figure is taken from them",
                options.requests(), target.name(), at, waitMs));
      }
    } finally {
      runner.running(null);
      client.close();
    }
    if (client.aborted()) return null;
    long endedNanos = System.nanoTime();
    StallJudge.PathWait pathWait =
        pathPids.isEmpty()
            ? StallJudge.PathWait.NONE
            : new StallJudge.PathWait(
                pathName(target, site, plainDirect),
                ThreadWaits.of(pathPids).longestSince(waitsBefore));
    RunStalls stalls =
        StallJudge.judge(
            result, startedNanos, endedNanos, "client", cell.stream().intervalNanos(), pathWait);
    return guard(target, site, cellIndex, run, result, started, System.currentTimeMillis(), stalls);
  }

  /**
   * A silent stream through {@code target} as {@code base}'s client asks (its profile and headers,
   * the first pass's): the head, then a think past the map's {@code deadline}, then two frames;
   * null for the emitter itself, which has no idle timeout to find.
   */
  SilentStream silentStream(Target target, Cell base, long deadline) {
    if (target instanceof Target.Direct) return null;
    // the emitter thinks at most a minute: a longer map watches it for that long, and says so
    long thinkNanos =
        Math.min(
            StreamSpec.MAX_THINK_NANOS,
            Math.max(0, deadline - System.nanoTime()) + 10_000_000_000L);
    Cell silent =
        base.with(Setting.FRAMES, "2").with(Setting.THINK, Units.formatDuration(thinkNanos));
    RequestPlan plan =
        CellRequest.plan(
            silent, targets.address(target), targets.tls(target), runner.headers(false));
    return SilentStream.start(runner.vertx(), plan, base.client(), thinkNanos);
  }

  /**
   * The processes of the path other than this one: the proxy the lab started for the target, a
   * namespace's emitter.
   */
  private List<Long> pathProcesses(Target target, ServerSite site, boolean plainDirect) {
    List<Long> pids = new ArrayList<>();
    long proxy = plainDirect ? -1 : targets.pid(target);
    if (proxy > 0) pids.add(proxy);
    if (site.emitterPid() > 0) pids.add(site.emitterPid());
    return pids;
  }

  private String pathName(Target target, ServerSite site, boolean plainDirect) {
    long proxy = plainDirect ? -1 : targets.pid(target);
    String t = proxy > 0 ? target.name() + "'s process" : "";
    String e = site.emitterPid() > 0 ? "the namespace's emitter" : "";
    return t.isEmpty() ? e : e.isEmpty() ? t : t + " and " + e;
  }

  /**
   * Excludes the run if the emitter was late for any stream it served (its own pacing audit), or if
   * every frame it read together was read in a stall of this host (the reader stopped, not the
   * target: {@link StallJudge}).
   */
  private RunRecord guard(
      Target target,
      ServerSite site,
      int cellIndex,
      int run,
      BatchResult result,
      long started,
      long ended,
      RunStalls stalls) {
    long maxLateness = 0;
    PacingAudit.Summary latest = null;
    int unaudited = 0;
    long frameBytes = 0;
    long frames = 0;
    for (long id : result.streamIds()) {
      PacingAudit.Summary s = id < 0 ? null : site.audit(id);
      if (s == null) {
        unaudited++;
        continue;
      }
      if (s.paced() && s.latenessMaxNanos() > maxLateness) {
        maxLateness = s.latenessMaxNanos();
        latest = s;
      }
      frameBytes += s.frameBytes();
      frames += s.framesWritten();
    }
    long tolerance = runner.pacingToleranceNanos();
    boolean late = maxLateness > tolerance;
    Exclusion exclusion =
        late
            ? Exclusion.emitterLate(
                maxLateness, tolerance, latest.judged(HiccupMeter.get().loopLedger()).held())
            : stalls.excusedByHost() ? Exclusion.hostStall(stalls.hostStall()) : null;
    return new RunRecord(
        target.name(),
        cellIndex,
        run,
        result,
        exclusion,
        maxLateness,
        unaudited,
        frameBytes,
        frames,
        started,
        ended,
        stalls,
        List.of());
  }
}
