package flushlab.run;

import flushlab.client.MeteredClient;
import flushlab.http.Header;
import flushlab.map.CellEvidence;
import flushlab.map.FlushTrigger;
import flushlab.map.TriggerInference;
import flushlab.netpath.NetworkPath;
import flushlab.netpath.ServerSites;
import flushlab.netpath.VethLink;
import flushlab.scenario.Cell;
import flushlab.scenario.Scenario;
import flushlab.targets.RunningTargets;
import flushlab.targets.Target;
import flushlab.targets.TargetContext;
import flushlab.targets.TargetStartFailure;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Runs a scenario in one process: its emitter, its targets, the metered client. The steps, in
 * order: start the emitter and the targets, warm up (unreported), certify the direct path, measure
 * every cell (each target, {@code runs} times, one attempt each, never a retry; a run the pacing
 * guard excludes is counted and reported), infer the flush-trigger map, bisect. What a step needs
 * of the ones before it is passed on, not kept in fields.
 */
public final class ScenarioRunner {
  private final Scenario scenario;
  private final Vertx vertx;
  private final AtomicBoolean interrupted = new AtomicBoolean();
  private volatile String progress = "starting";
  private volatile MeteredClient currentClient;

  /**
   * The map's pass as a client that does not accept compression: Accept-Encoding: identity replaces
   * the user's.
   */
  private volatile boolean identityPass;

  /**
   * The local lab's sites while it runs (a replay starts its model relay there); null on a remote
   * lab.
   */
  private volatile ServerSites localSites;

  /** The replay of the model a map's answer gives, cell by cell (set once the map is done). */
  private volatile List<ReplayedCell> replayedCells = List.of();

  private boolean verify;
  private RunHook beforeRun = (target, cell, run, emitterLoop) -> {};

  /**
   * When a budget ends (System.nanoTime), for `flushlab map`: no request waits past it;
   * Long.MAX_VALUE: none.
   */
  private volatile long deadlineNanos = Long.MAX_VALUE;

  /** Non-null: the servers and the client run on a lab's agents, opened by this. */
  private RemoteLab.Opener remote;

  /**
   * The remote lab while a run or map measures through it (a replay places its model relay there),
   * and how it measures.
   */
  private RemoteLab remoteLab;

  private Measure remoteMeasure;

  /**
   * Called before each measured run (tests use it to disturb a run on purpose); the emitter's loop
   * is null on a lab's agents.
   */
  public interface RunHook {
    void beforeRun(String target, int cell, int run, Context emitterLoop);
  }

  public ScenarioRunner(Scenario scenario, Vertx vertx) {
    this.scenario = scenario;
    this.vertx = vertx;
  }

  /**
   * `map` (unless --no-verify): the answer's model is replayed on a built-in relay, cell by cell,
   * before it is given.
   */
  public ScenarioRunner verifyByReplay(boolean on) {
    this.verify = on;
    return this;
  }

  /** Runs the scenario's servers and clients on a lab's agents instead of this host. */
  public ScenarioRunner onRemoteLab(RemoteLab.Opener opener) {
    this.remote = opener;
    return this;
  }

  public ScenarioRunner beforeRun(RunHook hook) {
    this.beforeRun = hook;
    return this;
  }

  /**
   * Stops the scenario now (Ctrl-C, SIGTERM): the run in progress is aborted and left out (it would
   * be a partial measurement); every run that finished is kept.
   */
  public void interrupt() {
    interrupted.set(true);
    MeteredClient c = currentClient;
    if (c != null) c.abort();
  }

  public String progress() {
    return progress;
  }

  /** The budget (map's --budget) is spent: nothing more is started. */
  private boolean budgetSpent() {
    return deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos >= 0;
  }

  private long msLeft() {
    return deadlineNanos == Long.MAX_VALUE
        ? Long.MAX_VALUE / 4
        : Math.max(0, (deadlineNanos - System.nanoTime()) / 1_000_000);
  }

  /** The cell with its request timeout the smaller of its own and what is left of the budget. */
  private Cell withinBudget(Cell cell) {
    if (deadlineNanos == Long.MAX_VALUE) return cell;
    long left = Math.max(1_000_000L, deadlineNanos - System.nanoTime());
    return left >= cell.client().timeoutNanos()
        ? cell
        : cell.withClient(cell.client().withTimeoutNanos(left));
  }

  /** Rough seconds the scenario will take, for the line printed before it starts. */
  public static double expectedSeconds(Scenario s) {
    double total = runSeconds(s.guards().certifyCell()) * s.guards().certifyRuns() + 1.0;
    for (Cell c : s.cells()) total += runSeconds(c) * s.runs() * s.targets().size();
    if (s.adaptive() != null)
      total += runSeconds(s.cells().get(0)) * s.runs() * s.adaptive().maxCells();
    return total;
  }

  /** Rough seconds one run of a cell takes (its batches of streams). */
  public static double runSeconds(Cell c) {
    double stream = c.stream().streamNanos() / 1e9;
    double batches = Math.ceil((double) c.client().requests() / c.client().concurrency());
    double slow =
        c.client().slowReaderPauseNanos()
            / 1e9
            * (c.stream().bulk() ? c.stream().totalBytes() / 65536.0 : 1);
    return (stream + slow + 0.05) * batches;
  }

  public Outcome run(Consumer<String> announce) throws Exception {
    return certifiedThen(
        announce,
        (measure, cert) -> {
          List<TargetCellResult> results = measureCells(measure, announce);
          return new Measured(
              results, inferTriggers(results, cert.emitToRecvMs()), bisect(measure, announce));
        });
  }

  /** What a run or a map measured once the host was certified. */
  private record Measured(
      List<TargetCellResult> results, Map<String, FlushTrigger> triggers, Bisection bisection) {
    static final Measured NOTHING = new Measured(List.of(), Map.of(), null);
  }

  /** A run's or a map's measuring, given the targets up and the host certified. */
  private interface AfterCertification {
    Measured measure(Measure measure, Certification cert) throws Exception;
  }

  /**
   * The steps a run and a map share: start the sites and targets, warm up, certify; then measure
   * (only on a certified host); stop everything; and the outcome, with how long it all took.
   */
  private Outcome certifiedThen(Consumer<String> announce, AfterCertification then)
      throws Exception {
    long started = System.nanoTime();
    long startedMillis = System.currentTimeMillis();
    if (remote != null) {
      try (RemoteLab lab = remote.open(scenario, announce)) {
        Measure measure =
            (target, cell, cellIndex, run) -> {
              if (interrupted.get() || budgetSpent() || lab.lost() != null) return null;
              beforeRun.beforeRun(target.name(), cellIndex, run, null);
              return lab.run(
                  target,
                  withinBudget(cell),
                  cellIndex,
                  run,
                  headersFor(identityPass),
                  scenario.guards().pacingToleranceNanos());
            };
        remoteLab = lab;
        remoteMeasure = measure;
        Certification cert = certify(measure, lab::certifying, announce);
        Measured m = cert.certified() ? then.measure(measure, cert) : Measured.NOTHING;
        String lost = lab.lost();
        if (lost != null)
          announce.accept(
              "cluster: "
                  + lost
                  + "; the runs after it are not measured (a split of the load over fewer "
                  + "agents would not be the run the scenario asked for)");
        return new Outcome(
            cert,
            m.results(),
            m.triggers(),
            m.bisection(),
            interrupted.get(),
            startedMillis,
            System.nanoTime() - started,
            Map.of(),
            replayedCells,
            lab.onAgents(),
            lost);
      } finally {
        remoteLab = null;
        remoteMeasure = null;
      }
    }
    try (ServerSites sites = openSites(announce);
        RunningTargets targets =
            RunningTargets.start(
                scenario.targets(),
                t -> new TargetContext(vertx, sites.site(t.path()), announce))) {
      LocalMeasurer measure = new LocalMeasurer(new RunnerForTheMeasurer(), sites, targets);
      localSites = sites;
      warmUp(announce);
      Certification cert = certify(measure, c -> c, announce);
      Measured m = cert.certified() ? then.measure(measure, cert) : Measured.NOTHING;
      return new Outcome(
          cert,
          m.results(),
          m.triggers(),
          m.bisection(),
          interrupted.get(),
          startedMillis,
          System.nanoTime() - started,
          targets.processes(),
          replayedCells,
          null,
          null);
    }
  }

  /**
   * `flushlab map`: start, warm up and certify as a run does, then let the prober choose and
   * measure the cells of the scenario's one target, one run each (a run the pacing guard excluded
   * is measured once more, and both are kept in the results). The outcome carries the cells and the
   * trigger, under the target's name.
   */
  public Outcome map(Consumer<String> announce, double budgetSeconds) throws Exception {
    Target target = scenario.targets().get(0);
    long deadline = System.nanoTime() + (long) (budgetSeconds * 1e9);
    deadlineNanos = deadline;
    MapLab lab = new LabForTheMap();
    return certifiedThen(
        announce,
        (measure, cert) -> {
          // beside every cell, one stream that says nothing for as long as the map measures: an
          // idle timeout cuts it
          SilentStream silent =
              lab.silentStream(measure, target, scenario.cells().get(0), deadline);
          if (silent == null)
            announce.accept(
                "map: no silent stream beside the cells ("
                    + (remote != null
                        ? "not yet on a cluster's agents"
                        : "the target is the emitter itself")
                    + "): an idle timeout is not looked for");
          MapSession session = new MapSession(lab, verify);
          try {
            MapSession.Mapped m =
                session.measure(target, measure, cert, silent, announce, deadline);
            return new Measured(m.results(), Map.of(target.name(), m.answer()), null);
          } finally {
            replayedCells = session.replayedCells();
            if (silent != null) silent.close();
          }
        });
  }

  /** The runner as a map sees it: its scenario, its sites or agents, its client's headers. */
  private final class LabForTheMap implements MapLab {
    @Override
    public Scenario scenario() {
      return scenario;
    }

    @Override
    public boolean interrupted() {
      return interrupted.get();
    }

    @Override
    public void progress(String what) {
      progress = what;
    }

    @Override
    public void identityPass(boolean on) {
      identityPass = on;
    }

    @Override
    public List<Header> headersFor(boolean identity) {
      return ScenarioRunner.this.headersFor(identity);
    }

    @Override
    public PlacedModel placeModel(Target.Relay model, Target like, Consumer<String> announce)
        throws Exception {
      if (remoteLab != null) {
        remoteLab.placeModel(model, like);
        return new PlacedModel(remoteMeasure, null);
      }
      RunningTargets running =
          RunningTargets.start(
              List.of(model), t -> new TargetContext(vertx, localSites.site(t.path()), announce));
      return new PlacedModel(
          new LocalMeasurer(new RunnerForTheMeasurer(), localSites, running), running);
    }

    @Override
    public SilentStream silentStream(Measure on, Target target, Cell base, long deadline) {
      return on instanceof LocalMeasurer m ? m.silentStream(target, base, deadline) : null;
    }
  }

  /**
   * The scenario's request headers; for the pass as a client that does not accept compression,
   * Accept-Encoding: identity.
   */
  private List<Header> headersFor(boolean identity) {
    List<Header> h = scenario.requestHeaders().toSend();
    return identity ? CellRequest.identityEncoding(h) : h;
  }

  /**
   * The emitter (and namespace) of every network path this scenario's targets use, the scenario's
   * own first.
   */
  private ServerSites openSites(Consumer<String> announce) throws TargetStartFailure {
    List<NetworkPath> paths = new ArrayList<>();
    paths.add(scenario.path());
    for (Target t : scenario.targets()) paths.add(t.path());
    try {
      return ServerSites.open(vertx, scenario.emitterListen(), paths, announce);
    } catch (VethLink.Unavailable e) {
      throw new TargetStartFailure(e.getMessage(), e);
    } catch (TargetStartFailure | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new TargetStartFailure(e.getMessage(), e);
    }
  }

  private void warmUp(Consumer<String> announce) throws Exception {
    progress = "warm-up";
    boolean tls = scenario.targets().stream().anyMatch(Target::speaksTls);
    announce.accept("warm-up: " + Warmup.runOnce(vertx, tls));
  }

  /**
   * The direct path must be clean on this host before any target row counts. A run excluded (the
   * emitter late, or every frame it read together read in a stall of this host) is measured once
   * more, once. Failing only inside host stalls (no run kept) is named as such: the host, not the
   * path, was not fit to measure.
   */
  private Certification certify(
      Measure measure, UnaryOperator<Cell> asRun, Consumer<String> announce) throws Exception {
    List<RunRecord> runs = new ArrayList<>();
    Target direct = new Target.Direct("direct", scenario.path());
    Cell certifying = asRun.apply(scenario.guards().certifyCell());
    for (int i = 0; i < scenario.guards().certifyRuns() && !interrupted.get(); i++) {
      progress =
          "certifying the direct path, run " + (i + 1) + "/" + scenario.guards().certifyRuns();
      if (!measure.runOnceMoreIfExcluded(
          direct, certifying, -1, i, "certification run " + (i + 1), runs, announce)) {
        break;
      }
    }
    Certification judged =
        Certification.judged(
            runs, scenario.guards().certifyMaxFramesPerRead(), interrupted.get(), budgetSpent());
    announce.accept(judged.line(scenario.guards().certifyMaxFramesPerRead()));
    return judged;
  }

  /**
   * Every cell, every target, {@code runs} times; an interrupt keeps what finished. A run the
   * pacing guard excluded (the emitter was late: the host stalled, the run says nothing of the
   * target) is measured once more, once, as the map does; both are kept and the exclusion is named.
   */
  private List<TargetCellResult> measureCells(Measure measure, Consumer<String> announce)
      throws Exception {
    List<TargetCellResult> results = new ArrayList<>();
    for (Cell cell : scenario.cells()) {
      for (Target t : scenario.targets()) {
        List<RunRecord> runs = new ArrayList<>();
        for (int r = 0; r < scenario.runs(); r++) {
          progress =
              String.format(
                  "cell %d/%d [%s], target %s, run %d/%d",
                  cell.index() + 1,
                  scenario.cells().size(),
                  cell.label(),
                  t.name(),
                  r + 1,
                  scenario.runs());
          if (interrupted.get()
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
  private Map<String, FlushTrigger> inferTriggers(
      List<TargetCellResult> results, double baselineMs) {
    Map<String, FlushTrigger> triggers = new LinkedHashMap<>();
    if (!scenario.flushTriggerMap() || interrupted.get()) return triggers;
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

  private Bisection bisect(Measure measure, Consumer<String> announce) throws Exception {
    Scenario.Adaptive a = scenario.adaptive();
    if (a == null || interrupted.get()) return null;
    return new Bisector(
            a,
            scenario.target(a.target()),
            scenario.cells().get(0),
            (target, cell) -> {
              progress = "adaptive: " + cell.label();
              List<RunRecord> runs = new ArrayList<>();
              for (int r = 0; r < scenario.runs(); r++) {
                if (interrupted.get()
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

  /**
   * The runner as a run on this host sees it: its budget, its stop switch, its client's headers.
   */
  private final class RunnerForTheMeasurer implements LocalMeasurer.Runner {
    @Override
    public Vertx vertx() {
      return vertx;
    }

    @Override
    public boolean interrupted() {
      return interrupted.get();
    }

    @Override
    public boolean budgetSpent() {
      return ScenarioRunner.this.budgetSpent();
    }

    @Override
    public Cell withinBudget(Cell cell) {
      return ScenarioRunner.this.withinBudget(cell);
    }

    @Override
    public long msLeft() {
      return ScenarioRunner.this.msLeft();
    }

    @Override
    public void beforeRun(String target, int cell, int run, Context emitterLoop) {
      beforeRun.beforeRun(target, cell, run, emitterLoop);
    }

    @Override
    public void running(MeteredClient client) {
      currentClient = client;
    }

    @Override
    public List<Header> headers(boolean asThePassAsks) {
      return headersFor(asThePassAsks && identityPass);
    }

    @Override
    public long pacingToleranceNanos() {
      return scenario.guards().pacingToleranceNanos();
    }
  }
}
