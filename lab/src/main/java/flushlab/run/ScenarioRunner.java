package flushlab.run;

import flushlab.client.MeteredClient;
import flushlab.http.Header;
import flushlab.map.FlushTrigger;
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
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

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

  /** `flushlab map`'s budget; none for a run. */
  private volatile RunBudget budget = RunBudget.NONE;

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

  public Outcome run(Consumer<String> announce) throws Exception {
    return certifiedThen(
        announce,
        (steps, cert) -> {
          List<TargetCellResult> results = steps.cells();
          return new Measured(
              results, steps.triggers(results, cert.emitToRecvMs()), steps.bisection());
        });
  }

  /** What a run or a map measured once the host was certified. */
  private record Measured(
      List<TargetCellResult> results, Map<String, FlushTrigger> triggers, Bisection bisection) {
    static final Measured NOTHING = new Measured(List.of(), Map.of(), null);
  }

  /** A run's or a map's measuring, given the targets up and the host certified. */
  private interface AfterCertification {
    Measured measure(ScenarioMeasuring steps, Certification cert) throws Exception;
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
              if (interrupted.get() || budget.spent() || lab.lost() != null) return null;
              beforeRun.beforeRun(target.name(), cellIndex, run, null);
              return lab.run(
                  target,
                  budget.within(cell),
                  cellIndex,
                  run,
                  headersFor(identityPass),
                  scenario.guards().pacingToleranceNanos());
            };
        remoteLab = lab;
        remoteMeasure = measure;
        ScenarioMeasuring steps = steps(measure, announce);
        Certification cert = steps.certify(lab::certifying, () -> budget.spent());
        Measured m = cert.certified() ? then.measure(steps, cert) : Measured.NOTHING;
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
      ScenarioMeasuring steps = steps(measure, announce);
      Certification cert = steps.certify(c -> c, () -> budget.spent());
      Measured m = cert.certified() ? then.measure(steps, cert) : Measured.NOTHING;
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
    budget = new RunBudget(deadline);
    MapLab lab = new LabForTheMap();
    return certifiedThen(
        announce,
        (steps, cert) -> {
          Measure measure = steps.measure();
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

  /** What this runner measures through {@code measure}, its progress line kept up to date. */
  private ScenarioMeasuring steps(Measure measure, Consumer<String> announce) {
    return new ScenarioMeasuring(
        scenario, interrupted::get, what -> progress = what, measure, announce);
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
      return budget.spent();
    }

    @Override
    public Cell withinBudget(Cell cell) {
      return budget.within(cell);
    }

    @Override
    public long msLeft() {
      return budget.msLeft();
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
