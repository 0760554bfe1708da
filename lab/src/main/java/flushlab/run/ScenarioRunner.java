package flushlab.run;

import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.ClientProfile;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import flushlab.client.Staircase;
import flushlab.client.StreamResult;
import flushlab.client.StreamError;
import flushlab.coding.ContentCoding;
import flushlab.core.HiccupMeter;
import flushlab.core.HostQuiet;
import flushlab.core.HostPort;
import flushlab.core.ThreadWaits;
import flushlab.core.Units;
import flushlab.emitter.PacingAudit;
import flushlab.map.CellEvidence;
import flushlab.map.CellPlan;
import flushlab.map.BesideACompressor;
import flushlab.map.ClientsApart;
import flushlab.map.CompressionFinding;
import flushlab.map.CorkAfterFit;
import flushlab.map.FlushTrigger;
import flushlab.map.HoldingPairFit;
import flushlab.map.IdleCut;
import flushlab.map.MapProber;
import flushlab.map.OneLateAfterFit;
import flushlab.map.Replay;
import flushlab.map.ShaperModel;
import flushlab.map.SocketStageFit;
import flushlab.map.TriggerInference;
import flushlab.map.TriggerKind;
import flushlab.map.TwoStageCandidate;
import flushlab.netpath.NetworkPath;
import flushlab.netpath.ServerSite;
import flushlab.netpath.ServerSites;
import flushlab.netpath.VethLink;
import flushlab.run.Warmup;
import flushlab.scenario.Cell;
import flushlab.scenario.Scenario;
import flushlab.relay.shaper.ShaperRegistry;
import flushlab.scenario.Setting;
import flushlab.stream.ResponseShape;
import flushlab.stream.StreamSpec;
import flushlab.stream.Transfer;
import flushlab.targets.RunningTargets;
import flushlab.targets.Target;
import flushlab.targets.TargetContext;
import flushlab.targets.TargetStartFailure;
import flushlab.tls.ClientTls;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
  /** The map's pass as a client that does not accept compression: Accept-Encoding: identity replaces the user's. */
  private volatile boolean identityPass;
  /** The local lab's sites while it runs (a replay starts its model relay there); null on a remote lab. */
  private volatile ServerSites localSites;
  /** The replay of the model a map's answer gives, cell by cell (set once that replay is attached to the answer). */
  private volatile List<ReplayedCell> replayedCells = List.of();
  /** The replay that verified the answer's model, while a map runs: what a silent stream replayed later adds to. */
  private Replay.Verdict givenVerdict;
  private boolean verify;
  private RunHook beforeRun = (target, cell, run, emitterLoop) -> {};
  /** When a budget ends (System.nanoTime), for `flushlab map`: no request waits past it; Long.MAX_VALUE: none. */
  private volatile long deadlineNanos = Long.MAX_VALUE;
  /** Non-null: the servers and the client run on a lab's agents, opened by this. */
  private RemoteLab.Opener remote;
  /** The remote lab while a run or map measures through it (a replay places its model relay there), and how it measures. */
  private RemoteLab remoteLab;
  private Measure remoteMeasure;

  /** Called before each measured run (tests use it to disturb a run on purpose); the emitter's loop is null on a lab's agents. */
  public interface RunHook {
    void beforeRun(String target, int cell, int run, io.vertx.core.Context emitterLoop);
  }

  public ScenarioRunner(Scenario scenario, Vertx vertx) {
    this.scenario = scenario;
    this.vertx = vertx;
  }

  /** `map` (unless --no-verify): the answer's model is replayed on a built-in relay, cell by cell, before it is given. */
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
   * Stops the scenario now (Ctrl-C, SIGTERM): the run in progress is aborted and left out (it
   * would be a partial measurement); every run that finished is kept.
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
    return deadlineNanos == Long.MAX_VALUE ? Long.MAX_VALUE / 4 : Math.max(0, (deadlineNanos - System.nanoTime()) / 1_000_000);
  }

  /** The cell with its request timeout the smaller of its own and what is left of the budget. */
  private Cell withinBudget(Cell cell) {
    if (deadlineNanos == Long.MAX_VALUE) return cell;
    long left = Math.max(1_000_000L, deadlineNanos - System.nanoTime());
    return left >= cell.client().timeoutNanos() ? cell : cell.withClient(cell.client().withTimeoutNanos(left));
  }

  /** Rough seconds the scenario will take, for the line printed before it starts. */
  public static double expectedSeconds(Scenario s) {
    double total = runSeconds(s.guards().certifyCell()) * s.guards().certifyRuns() + 1.0;
    for (Cell c : s.cells()) total += runSeconds(c) * s.runs() * s.targets().size();
    if (s.adaptive() != null) total += runSeconds(s.cells().get(0)) * s.runs() * s.adaptive().maxCells();
    return total;
  }

  /** Rough seconds one run of a cell takes (its batches of streams). */
  public static double runSeconds(Cell c) {
    double stream = c.stream().streamNanos() / 1e9;
    double batches = Math.ceil((double) c.client().requests() / c.client().concurrency());
    double slow = c.client().slowReaderPauseNanos() / 1e9 * (c.stream().bulk() ? c.stream().totalBytes() / 65536.0 : 1);
    return (stream + slow + 0.05) * batches;
  }

  public Outcome run(Consumer<String> announce) throws Exception {
    return certifiedThen(announce, (measure, cert) -> {
      List<TargetCellResult> results = measureCells(measure, announce);
      return new Measured(results, inferTriggers(results, cert.emitToRecvMs()), bisect(measure, announce));
    });
  }

  /** What a run or a map measured once the host was certified. */
  private record Measured(List<TargetCellResult> results, Map<String, FlushTrigger> triggers, Bisection bisection) {
    static final Measured NOTHING = new Measured(List.of(), Map.of(), null);
  }

  /** A run's or a map's measuring, given the targets up and the host certified. */
  private interface AfterCertification {
    Measured measure(Measure measure, Certification cert) throws Exception;
  }

  /** One run of a cell against a target; null when interrupted (a partial run is not a measurement). */
  private interface Measure {
    RunRecord run(Target target, Cell cell, int cellIndex, int run) throws Exception;

    /**
     * One run, measured once more, once, when a guard excluded it (the emitter was late, or the
     * reader's host stalled through every merged read): both records go to {@code into} and the
     * exclusion is announced under {@code label}. False when interrupted.
     */
    default boolean runOnceMoreIfExcluded(Target target, Cell cell, int cellIndex, int run, String label, List<RunRecord> into,
        Consumer<String> announce) throws Exception {
      for (int attempt = 0; attempt < 2; attempt++) {
        RunRecord rec = run(target, cell, cellIndex, run);
        if (rec == null) return false;
        into.add(rec);
        if (!rec.excluded()) return true;
        if (attempt == 1) {
          announce.accept(label + ": excluded (" + rec.exclusionReason() + ")");
        } else if (rec.spoiledByHostStall()) {
          // measured once more all the same; only not in the same burst of this host's other work
          announce.accept(label + ": excluded (" + rec.exclusionReason() + "); measured again " + HostQuiet.await(HiccupMeter.get()).text());
        } else {
          announce.accept(label + ": excluded (" + rec.exclusionReason() + "); measured again");
        }
      }
      return true;
    }
  }

  /**
   * The steps a run and a map share: start the sites and targets, warm up, certify; then measure
   * (only on a certified host); stop everything; and the outcome, with how long it all took.
   */
  private Outcome certifiedThen(Consumer<String> announce, AfterCertification then) throws Exception {
    long started = System.nanoTime();
    long startedMillis = System.currentTimeMillis();
    if (remote != null) {
      try (RemoteLab lab = remote.open(scenario, announce)) {
        Measure measure = (target, cell, cellIndex, run) -> {
          if (interrupted.get() || budgetSpent() || lab.lost() != null) return null;
          beforeRun.beforeRun(target.name(), cellIndex, run, null);
          return lab.run(target, withinBudget(cell), cellIndex, run, headersFor(identityPass), scenario.guards().pacingToleranceNanos());
        };
        remoteLab = lab;
        remoteMeasure = measure;
        Certification cert = certify(measure, lab::certifying, announce);
        Measured m = cert.certified() ? then.measure(measure, cert) : Measured.NOTHING;
        String lost = lab.lost();
        if (lost != null) announce.accept("cluster: " + lost + "; the runs after it are not measured (a split of the load over fewer "
            + "agents would not be the run the scenario asked for)");
        return new Outcome(cert, m.results(), m.triggers(), m.bisection(), interrupted.get(), startedMillis,
            System.nanoTime() - started, Map.of(), replayedCells, lab.onAgents(), lost);
      } finally {
        remoteLab = null;
        remoteMeasure = null;
      }
    }
    try (ServerSites sites = openSites(announce);
        RunningTargets targets = RunningTargets.start(scenario.targets(), t -> new TargetContext(vertx, sites.site(t.path()), announce))) {
      Measurer measure = new Measurer(sites, targets);
      localSites = sites;
      warmUp(announce);
      Certification cert = certify(measure, c -> c, announce);
      Measured m = cert.certified() ? then.measure(measure, cert) : Measured.NOTHING;
      return new Outcome(cert, m.results(), m.triggers(), m.bisection(), interrupted.get(), startedMillis,
          System.nanoTime() - started, targets.processes(), replayedCells, null, null);
    }
  }

  /**
   * `flushlab map`: start, warm up and certify as a run does, then let the prober choose and
   * measure the cells of the scenario's one target, one run each (a run the pacing guard excluded
   * is measured once more, and both are kept in the results). The outcome carries the cells and
   * the trigger, under the target's name.
   */
  public Outcome map(Consumer<String> announce, double budgetSeconds) throws Exception {
    Target target = scenario.targets().get(0);
    long deadline = System.nanoTime() + (long) (budgetSeconds * 1e9);
    deadlineNanos = deadline;
    return certifiedThen(announce, (measure, cert) -> {
      // beside every cell, one stream that says nothing for as long as the map measures: an idle timeout cuts it
      SilentStream silent = measure instanceof Measurer m ? m.silentStream(target, scenario.cells().get(0), deadline) : null;
      if (silent == null) announce.accept("map: no silent stream beside the cells (" + (remote != null ? "not yet on a cluster's agents"
          : "the target is the emitter itself") + "): an idle timeout is not looked for");
      try {
        return mapMeasured(target, measure, cert, silent, announce, deadline);
      } finally {
        if (silent != null) silent.close();
      }
    });
  }

  /** The map once the host is certified: the passes, the silent stream's finding, the models of two stages, the replay. */
  private Measured mapMeasured(Target target, Measure measure, Certification cert, SilentStream silent, Consumer<String> announce,
      long deadline) throws Exception {
    List<TargetCellResult> results = new ArrayList<>();
    Cell base = scenario.cells().get(0);
    boolean accepts = !CellRequest.plan(base, HostPort.parse("-", "127.0.0.1:1", false), null, scenario.requestHeaders().toSend())
        .acceptedCodings().isEmpty();
    FlushTrigger mine = mapAs(target, base, false, measure, cert, results, announce, secondsLeft(deadline));
    if (interrupted.get() || mine.kind() == TriggerKind.INCONCLUSIVE && mine.verdict().contains("the target failed")) {
      return new Measured(results, Map.of(target.name(), mine), null);
    }
    List<TargetCellResult> firstPass = List.copyOf(results);
    // the compression step: the same target asked as the other kind of client
    String coding = codingSeen(results);
    FlushTrigger answer = mine;
    // the pass of the client the target sent the stream as it is (to which a model of two stages is fitted), and its answer
    List<TargetCellResult> asItIs = coding == null ? firstPass : List.of();
    FlushTrigger asItIsAnswer = coding == null ? mine : null;
    String heldOnly = null;
    if (accepts) {
      String client = clientText(base, false);
      if (coding == null) {
        answer = mine.withCompression(CompressionFinding.of(null, client, mine, null, null, null));
      } else {
        announce.accept("map: " + target.name() + " answered " + client + " in " + coding + "; now as a client that does not "
            + "accept compression (" + ClientProfile.BARE.text() + ")");
        int before = results.size();
        FlushTrigger plain = mapAs(target, base.withProfile(ClientProfile.BARE), true, measure, cert, results, announce,
            secondsLeft(deadline));
        if (results.size() == before) plain = null;
        heldOnly = heldOnlyCompressed(results.subList(0, before), results.subList(before, results.size()));
        answer = mine.withCompression(CompressionFinding.of(coding, client, mine, ClientProfile.BARE.text(), plain, heldOnly));
        asItIs = List.copyOf(results.subList(before, results.size()));
        asItIsAnswer = plain;
      }
    } else {
      Cell asBrowser = base.withProfile(ClientProfile.BROWSER);
      String client = clientText(asBrowser, false);
      // one short cell first: a target that does not compress for this client costs the map half a second, not a second pass
      Cell probe = (base.stream().endpoint().isOpenAi() ? asBrowser : asBrowser.with(Setting.FRAME_SIZE, COMPRESSION_PROBE.frameSizeBytes()
          + "B")).with(Setting.INTERVAL, Units.formatDuration(COMPRESSION_PROBE.intervalNanos()))
          .with(Setting.FRAMES, Integer.toString(COMPRESSION_PROBE.frames())).withIndex(results.size());
      RunRecord rec = interrupted.get() || secondsLeft(deadline) < 2 ? null : measure.run(target, probe, probe.index(), 0);
      if (rec != null) results.add(TargetCellResult.of(target.name(), probe, List.of(rec)));
      // the coding from every run, one the pacing guard excluded too: the response head said it, whatever the pacing
      BatchResult answered = rec == null ? null : results.get(results.size() - 1).everyStream();
      if (answered != null && answered.streamsOk() == 0) {
        // no answer, no finding: "without compression" would be a fact read from nothing
        announce.accept("map: asked as " + client + ": no stream was answered (" + answered.firstError() + "); compression not checked");
      } else if (answered != null) {
        ContentCoding seen = answered.dominantCoding();
        announce.accept("map: asked as " + client + ": " + (seen == null ? "answered without compression"
            : "answered in " + seen.text() + "; mapping it as that client"));
        if (seen == null) {
          answer = mine.withCompression(CompressionFinding.of(null, client, null, clientText(base, false), mine, null));
        } else {
          int before = results.size();
          FlushTrigger accepting = mapAs(target, asBrowser, false, measure, cert, results, announce, secondsLeft(deadline));
          if (results.size() == before) accepting = null;
          heldOnly = heldOnlyCompressed(results.subList(before - 1, results.size()), results.subList(0, before - 1));
          answer = mine.withCompression(CompressionFinding.of(seen.text(), client, accepting, clientText(base, false), mine, heldOnly));
        }
      }
    }
    // a silent stream already cut joins the answer, and its model's replay; one still open is watched through the replay too
    IdleCut idle = silent == null ? null : silent.endedSoFar();
    if (idle != null) {
      announce.accept("map: " + idle.describe());
      answer = answer.withIdle(idle);
    }
    givenVerdict = null;
    // tried when no one mechanism explained the stream as it is, or (below) when the answer's model failed its replay;
    // for a target that compressed for the other client, each candidate joins the compressor that client saw
    List<CellEvidence> probed = asItIs.stream().map(r -> asProbed(r, cert.emitToRecvMs())).toList();
    boolean unexplained = asItIsAnswer != null && asItIsAnswer.kind() == TriggerKind.INCONCLUSIVE;
    boolean twoStages = !interrupted.get() && asItIsAnswer != null && !probed.isEmpty() && !probed.contains(null) && (verify || unexplained);
    List<TwoStageCandidate> two = twoStages ? twoStageCandidates(target, probed) : List.of();
    // a threshold and a timer in series, simulated on the stream as it is (never beside a compressor: its cells are another client's)
    List<CellEvidence> pairCells = twoStages && (answer.compression() == null || answer.compression().coding() == null) ? probed : List.of();
    if (twoStages && answer.compression() != null && answer.compression().coding() != null) {
      two = new ArrayList<>(BesideACompressor.joined(two, answer, asItIsAnswer == mine, heldOnly));
      TwoStageCandidate decoded = BesideACompressor.decodedOnDelivery(answer, asItIsAnswer, asItIsAnswer == mine, heldOnly);
      if (decoded != null) two.add(decoded);
    }
    if (unexplained && !(two.isEmpty() && pairCells.isEmpty())) {
      answer = twoMechanisms(target, answer, two, pairCells, results, cert, announce, deadline);
      two = List.of();
      pairCells = List.of();
    }
    if (verify && !interrupted.get() && answer.kind() != TriggerKind.INCONCLUSIVE && answer.replay() == null) {
      answer = replayed(target, answer, results, cert, announce, deadline);
      // the one mechanism's model did not reproduce the target: the next candidates are two at once, never the refused one
      boolean refused = answer.kind() == TriggerKind.INCONCLUSIVE && answer.replay() != null;
      // (not two holding stages in series: those are simulated only for cells no one mechanism explained)
      if (refused && !two.isEmpty() && !interrupted.get()) {
        answer = twoMechanisms(target, answer, two, List.of(), results, cert, announce, deadline);
      }
    }
    if (silent != null && idle == null) {
      idle = silent.stop(0);
      boolean replayedWithoutIt = givenVerdict != null && answer.kind() != TriggerKind.INCONCLUSIVE;
      if (idle.isCut() && replayedWithoutIt && !interrupted.get()) {
        answer = silentStreamReplayed(target, answer, idle, announce, deadline);
      } else {
        announce.accept("map: " + idle.describe());
        answer = answer.withIdle(idle);
      }
    }
    if (!interrupted.get() && answer.kind() == TriggerKind.INCONCLUSIVE && answer.replay() == null
        && !answer.verdict().contains("this host stalled")) {
      String stalled = hostStallsDuring(firstPass);
      if (stalled != null) answer = answer.withHostStalls(stalled);
    }
    return new Measured(results, Map.of(target.name(), answer), null);
  }

  /** A host stall this long in a kept run moves a held cell's waits by as much, past what a fit allows of one mechanism. */
  static final double NOISY_STALL_MS = 10;

  /**
   * The longest host stall during a kept run of the pass, where one reached {@link #NOISY_STALL_MS}:
   * the cell and the figures; null otherwise. A pass that no one mechanism explained under such a
   * stall may have been spread by the host, not the target: under a CPU hog a hold of 102 ms then
   * one-late, whose cells fit it 6 of 6 on a quiet host, was answered inconclusive from three cells,
   * one with waits spread 206-217 ms (a fresh-clone suite with a hog, 2026-12-04).
   */
  static String hostStallsDuring(List<TargetCellResult> pass) {
    String worst = null;
    double longest = 0;
    for (TargetCellResult r : pass) {
      for (RunRecord run : r.runs()) {
        if (run.excluded() || run.stalls() == null) continue;
        double ms = run.stalls().host().maxMs();
        if (ms >= NOISY_STALL_MS && ms > longest) {
          longest = ms;
          worst = r.cell().label() + ": " + run.stalls().host().describe();
        }
      }
    }
    return worst;
  }

  /**
   * `map` (unless --no-verify): the answer's model runs as a built-in relay on the target's path, and every
   * cell measured on the target is measured once on it (as the same client), then compared
   * ({@link Replay}). An answer whose model differs in a cell becomes inconclusive, saying where;
   * cells the budget leaves no room for are not replayed, and the sentence says how many were.
   */
  private FlushTrigger replayed(Target target, FlushTrigger answer, List<TargetCellResult> results, Certification cert,
      Consumer<String> announce, long deadline) throws Exception {
    ShaperModel model = ShaperModel.of(answer);
    if (model.chain() == null) {
      announce.accept("replay: nothing to replay, the answer has no model (" + model.note() + ")");
      return answer;
    }
    boolean socketStage = answer.kind() == TriggerKind.NAGLE || answer.then() == TriggerKind.NAGLE;
    ReplayOutcome o = replay(target, model.chain(), socketStage, answer.idle(), results, cert, announce, deadline);
    if (o.unfinished() != null) return answer.withReplayUnfinished(o.unfinished(), o.tryNext());
    if (o.verdict() == null) return answer;
    announce.accept("replay: " + o.text());
    replayedCells = o.cells();
    if (o.verdict().verified()) givenVerdict = o.verdict();
    FlushTrigger replayedAnswer = answer.withReplay(o.verdict());
    return o.clientsApart() == null ? replayedAnswer : replayedAnswer.withClientsApart(o.clientsApart());
  }

  /**
   * An answer whose model reproduced every cell before its silent stream was cut on the target:
   * the model with its idle stage runs as a relay once more, for the silent stream alone, which
   * must be cut as long after its request; the replay's verdict gains that comparison. The budget
   * too short for it leaves the answer not verified, saying so.
   */
  private FlushTrigger silentStreamReplayed(Target target, FlushTrigger answer, IdleCut idle, Consumer<String> announce, long deadline)
      throws Exception {
    String chain = ShaperModel.of(answer.withIdle(idle)).chain();
    double needMs = idle.cutMs() * 1.1 + 1000;
    if (secondsLeft(deadline) * 1000 < needMs) {
      // the cells' model stands, replayed; the cut is said, not modelled unreplayed
      IdleCut said = idle.leftOutOfTheModel(String.format(java.util.Locale.ROOT, "it came after the cells' replay had begun, and the "
          + "budget leaves no room to replay a silent stream of %.1f s on the model (a longer --budget, or `flushlab probe idle`)",
          idle.cutMs() / 1000));
      announce.accept("map: " + said.describe());
      return answer.withIdle(said);
    }
    announce.accept("map: " + idle.describe() + "; replaying it on the model " + chain);
    Target.Relay replica = new Target.Relay("model", ShaperRegistry.parseChain(chain), false, target.path());
    IdleCut onModel;
    try (RunningTargets running = RunningTargets.start(List.of(replica), t -> new TargetContext(vertx, localSites.site(t.path()), announce));
        SilentStream silent = new Measurer(localSites, running).silentStream(replica, scenario.cells().get(0), deadline)) {
      onModel = silent.stop(idle.cutMs() * 1.1 + 200);
    }
    Replay.Verdict v = new Replay.Verdict(chain, givenVerdict.cells()).with(new Replay.CellMatch(IdleCut.LABEL, IdleCut.difference(idle, onModel)));
    announce.accept("replay: " + v.text());
    givenVerdict = v;
    return answer.withIdle(idle).withReplay(v);
  }

  /** Models of two stages the first pass's cells allow, simplest first: a holding stage then Nagle, one-late or the cork. */
  private static List<TwoStageCandidate> twoStageCandidates(Target target, List<CellEvidence> cells) {
    List<TwoStageCandidate> two = new ArrayList<>(SocketStageFit.candidates(target.name(), cells, target.path()));
    two.addAll(OneLateAfterFit.candidates(target.name(), cells));
    two.addAll(CorkAfterFit.candidates(target.name(), cells, target.path()));
    return two;
  }

  /**
   * No one mechanism explained every cell (or its model's replay did not reproduce them), but one
   * did with a second stage after it: the client socket's Nagle ({@link SocketStageFit}), one-late
   * ({@link OneLateAfterFit}) or the cork ({@link CorkAfterFit}): each such model is replayed on every cell, and the one that
   * reproduces them all, alone, is the answer. Two that both do are named, neither given; none
   * leaves the answer inconclusive, saying how each differed. A model the budget cut short is not given.
   */
  private FlushTrigger twoMechanisms(Target target, FlushTrigger answer, List<TwoStageCandidate> candidates, List<CellEvidence> pairCells,
      List<TargetCellResult> results, Certification cert, Consumer<String> announce, long deadline) throws Exception {
    List<String> tried = new ArrayList<>();
    List<String> cells = new ArrayList<>();
    List<TwoStageCandidate> reproduced = new ArrayList<>();
    Replay.Verdict last = null;
    List<ReplayedCell> lastCells = List.of();
    // two holding stages in series, found by simulation, come last, and only when no simpler pair reproduced the target
    List<TwoStageCandidate> all = new ArrayList<>(candidates);
    for (int i = 0; i < all.size() || i == candidates.size() && reproduced.isEmpty() && !pairCells.isEmpty(); i++) {
      if (i == candidates.size()) {
        all.addAll(HoldingPairFit.candidates(target.name(), pairCells, target.path()));
        if (i == all.size()) break;
      }
      TwoStageCandidate c = all.get(i);
      String chain = answer.idle() == null ? c.chain() : answer.idle().appliedTo(c.chain());
      announce.accept("map: no one mechanism explains every cell; replaying two at once: " + chain);
      ReplayOutcome o = replay(target, chain, c.socketStage(), answer.idle(), results, cert, announce, deadline);
      if (o.unfinished() != null) {
        tried.add(c.chain() + ": not verified: " + o.unfinished());
      } else if (o.verdict() == null || o.notReplayed() > 0) {
        tried.add(c.chain() + ": not replayed on every cell (budget)");
      } else if (o.verdict().verified()) {
        announce.accept("replay: " + o.text());
        reproduced.add(c);
        last = o.verdict();
        lastCells = o.cells();
      } else {
        announce.accept("replay: " + o.text());
        tried.add(o.verdict().text().replaceFirst("^not verified: the model ", ""));
        for (Replay.CellMatch m : o.verdict().cells()) {
          cells.add("replay of " + m.label() + " on " + c.chain() + ": " + (m.difference() == null ? "agrees" : m.difference()));
        }
      }
    }
    if (reproduced.size() == 1) {
      FlushTrigger both = reproduced.get(0).answer().withIdle(answer.idle());
      // a candidate beside a compressor carries its finding already; the others say what compression showed
      if (both.compression() == null && answer.compression() != null) both = both.withCompression(answer.compression());
      replayedCells = lastCells;
      givenVerdict = last;
      return both.withReplay(last);
    }
    if (reproduced.size() > 1) {
      List<String> chains = reproduced.stream().map(c -> answer.idle() == null ? c.chain() : answer.idle().appliedTo(c.chain())).toList();
      // two holding stages in series can be simulated on a cell not measured: the one that would tell them apart
      CellPlan telling = reproduced.size() == 2 ? HoldingPairFit.tellingCell(reproduced.get(0).chain(), reproduced.get(1).chain()) : null;
      FlushTrigger alike = FlushTrigger.inconclusive(target.name(), "two models of two mechanisms each reproduce every cell alike: "
          + String.join(" and ", chains) + (telling == null ? "" : " (a cell of " + telling + " would tell them apart)"), answer.evidence(),
          telling == null ? List.of() : List.of(telling.toString()));
      return answer.compression() == null ? alike : alike.withCompression(answer.compression());
    }
    return answer.withUnverifiedModels(tried, cells);
  }

  /**
   * The cell as the model's relay should receive it: a target whose upstream request got frames
   * without chunk framing (an HTTP/1.0 request, as nginx sends by default, gets a close-delimited
   * body) counted its buffer in those bytes, so the relay, which asks in HTTP/1.1, is sent the
   * body close-delimited too; a 4080 B buffer then holds 68 frames of 60 B on both, not 68 on the
   * target and 62 of 66 B on the model.
   */
  private static Cell asTheTargetsUpstreamReadIt(Cell cell, CellEvidence onTarget) {
    boolean unframed = onTarget.coding() == null && onTarget.frameBytes() > 0 && onTarget.frameBytes() == onTarget.bodyBytes();
    return unframed && cell.stream().transfer() == Transfer.CHUNKED ? cell.with(Setting.TRANSFER, Transfer.CLOSE.text()) : cell;
  }

  /**
   * A cell as the prober reads it, the one rule for the prober and the two-stage fits: its kept
   * runs, or, when both runs were excluded because this host stalled and outside the stalls each
   * frame came alone, those streams ({@link #streamedOutsideStalls}); null for a cell that is no
   * data (every stream failed, frames lost, nothing read or kept). The two-stage fits once read
   * such a streamed cell from its kept runs alone, found none, and left the pass without its
   * candidates (CI, 2026-12-04: a byte threshold of ~3.7 KB then one-late was answered inconclusive).
   */
  static CellEvidence asProbed(TargetCellResult r, double baselineMs) {
    if (r.runs().stream().allMatch(RunRecord::excluded)) return streamedOutsideStalls(r, r.runs(), baselineMs);
    BatchResult kept = r.included();
    if (kept.streamsOk() == 0 && kept.errorCount() > 0 || kept.lostFrames() > 0 || kept.frames() == 0) return null;
    return r.evidence(baselineMs);
  }

  /**
   * A model's replay: its verdict, or why it has none ({@code unfinished}, with what to try), and
   * how many cells the budget left out; with a verdict, each compared cell's stream on both sides.
   */
  private record ReplayOutcome(Replay.Verdict verdict, String unfinished, String tryNext, int notReplayed, List<ReplayedCell> cells,
      ClientsApart clientsApart) {
    ReplayOutcome(Replay.Verdict verdict, String unfinished, String tryNext, int notReplayed) {
      this(verdict, unfinished, tryNext, notReplayed, List.of(), null);
    }

    String text() {
      return verdict.text() + (notReplayed > 0 ? " (" + notReplayed + " not replayed: budget)" : "");
    }
  }

  /**
   * The model {@code chain} runs as a built-in relay on the target's path, and every cell measured
   * on the target is measured once on it (as the same client), then compared ({@link Replay}, its
   * socket-stage rule when {@code socketStage}); cells the budget leaves no room for are not
   * replayed, and a cell with no frame kept on the target (every run excluded) is no data to
   * compare with.
   */
  private ReplayOutcome replay(Target target, String chain, boolean socketStage, IdleCut idle, List<TargetCellResult> results,
      Certification cert, Consumer<String> announce, long deadline) throws Exception {
    Target.Relay replica = new Target.Relay("model", ShaperRegistry.parseChain(chain), false, target.path());
    List<ComparedCell> compared = new ArrayList<>();
    int noData = 0;
    IdleCut idleOnModel = null;
    // the model's relay runs where the target did: on this host, or on the agent that runs the target
    try (RunningTargets running = remoteLab != null ? null
        : RunningTargets.start(List.of(replica), t -> new TargetContext(vertx, localSites.site(t.path()), announce))) {
      Measure onModel;
      if (running == null) {
        remoteLab.placeModel(replica, target);
        onModel = remoteMeasure;
      } else {
        onModel = new Measurer(localSites, running);
      }
      // the target cut its silent stream: so must the model, as long after its request
      try (SilentStream silent = idle != null && idle.isCut() && onModel instanceof Measurer m
          ? m.silentStream(replica, results.get(0).cell(), deadline) : null) {
      for (TargetCellResult r : results) {
        if (interrupted.get() || secondsLeft(deadline) < r.cell().stream().streamNanos() / 1e9 + 1) {
          announce.accept("replay: the budget leaves no room for " + (results.size() - compared.size() - noData) + " more cell(s)");
          break;
        }
        if (r.included().frames() == 0) {
          announce.accept("replay: " + r.cell().label() + " kept no frame on the target (every run excluded): no data, not compared");
          noData++;
          continue;
        }
        progress = "map: replaying " + r.cell().label() + " on the model " + chain;
        CellEvidence onTarget = r.evidence(cert.emitToRecvMs());
        Cell cell = asTheTargetsUpstreamReadIt(r.cell(), onTarget);
        List<RunRecord> runs = new ArrayList<>();
        identityPass = r.requestHeaders() != null;
        boolean done;
        try {
          done = onModel.runOnceMoreIfExcluded(replica, cell, cell.index(), 0, "replay of " + r.cell().label(), runs, announce);
        } finally {
          identityPass = false;
        }
        if (!done) break;
        String label = r.cell().label();
        if (runs.stream().allMatch(RunRecord::excluded)) {
          String why = runs.get(runs.size() - 1).exclusionReason();
          String unfinished = runs.stream().allMatch(RunRecord::spoiledByHostStall)
              ? "this host stalled in both runs of the replay of " + label + " (" + why + "); nothing is compared from it"
              : "both runs of the replay of " + label + " were excluded (" + why + "); nothing is compared from it";
          announce.accept("replay: " + unfinished);
          return new ReplayOutcome(null, unfinished, "map again on a quieter host", 0);
        }
        TargetCellResult onIt = TargetCellResult.of(replica.name(), cell, runs);
        Staircase onItStairs = Staircase.of(onIt.included(), ReplayedCell.MAX_FRAMES);
        if (onIt.included().frames() == 0) {
          String unfinished = "the replay of " + label + " read no frame from the model (" + onIt.included().firstError() + ")";
          announce.accept("replay: " + unfinished);
          return new ReplayOutcome(null, unfinished, "map again; a built-in relay that answers no stream is worth reporting", 0);
        }
        CellEvidence replayedCell = onIt.evidence(cert.emitToRecvMs());
        if (socketStage && Replay.nagleEngagedOnOneOnly(onTarget, replayedCell) && secondsLeft(deadline) >= r.cell().stream().streamNanos() / 1e9 + 1) {
          // the client's kernel decides per connection whether Nagle engages: a second connection, once
          announce.accept("replay: " + label + ": Nagle " + (replayedCell.held() ? "held on the model, not on the target" : "held on the target, not on the model")
              + " (whether it engages is the client kernel's choice, per connection); measured on the model once more");
          List<RunRecord> more = new ArrayList<>();
          if (onModel.runOnceMoreIfExcluded(replica, cell, cell.index(), 1, "replay of " + label, more, announce)
              && !more.stream().allMatch(RunRecord::excluded)) {
            TargetCellResult second = TargetCellResult.of(replica.name(), cell, more);
            if (second.included().frames() > 0) {
              replayedCell = second.evidence(cert.emitToRecvMs());
              onItStairs = Staircase.of(second.included(), ReplayedCell.MAX_FRAMES);
            }
          }
        }
        compared.add(new ComparedCell(onTarget, replayedCell, Staircase.of(r.included(), ReplayedCell.MAX_FRAMES), onItStairs,
            new ClientsApart.AskedAs(r.cell().profile(), r.included().h2() != null)));
      }
      if (silent != null) {
        double allowedMs = Math.min(idle.cutMs() * 1.1 + 200, secondsLeft(deadline) * 1000 - 500);
        progress = "map: watching the silent stream on the model " + chain;
        idleOnModel = silent.stop(allowedMs);
      }
      }
    }
    if (compared.isEmpty() && noData == results.size()) {
      return new ReplayOutcome(null, "no cell kept a frame on the target: nothing to compare", "map again on a quieter host", 0);
    }
    if (compared.isEmpty()) return new ReplayOutcome(null, null, null, results.size() - noData);
    Replay.Tolerance tolerance = Replay.Tolerance.fromDirectPath(cert.spreadMs());
    if (tolerance.widened()) announce.accept("replay: " + tolerance.describe());
    Replay.Verdict verdict = Replay.compare(chain, compared.stream().map(ComparedCell::onTarget).toList(),
        compared.stream().map(ComparedCell::onModel).toList(), socketStage, tolerance);
    List<ReplayedCell> cells = new ArrayList<>();
    for (int i = 0; i < verdict.cells().size(); i++) {
      Replay.CellMatch m = verdict.cells().get(i);
      cells.add(new ReplayedCell(m.label(), m.difference(), compared.get(i).targetStairs(), compared.get(i).modelStairs()));
    }
    if (idleOnModel != null) verdict = verdict.with(new Replay.CellMatch(IdleCut.LABEL, IdleCut.difference(idle, idleOnModel)));
    ClientsApart apart = verdict.verified() ? null : ClientsApart.of(verdict.cells(), compared.stream().map(ComparedCell::asked).toList());
    return new ReplayOutcome(verdict, null, null, results.size() - compared.size() - noData, List.copyOf(cells), apart);
  }

  /** One cell measured on the target and again on the model: its signature and its stream on each. */
  private record ComparedCell(CellEvidence onTarget, CellEvidence onModel, Staircase targetStairs, Staircase modelStairs,
      ClientsApart.AskedAs asked) {}


  /**
   * A stream both kinds of client read (same frames, size, interval) that came compressed and held
   * (whole at its end, or at least twice the frames per read) to one and streamed to the other:
   * described, or null when there is none.
   */
  private static String heldOnlyCompressed(List<TargetCellResult> accepting, List<TargetCellResult> others) {
    for (TargetCellResult a : accepting) {
      BatchResult ab = a.included();
      if (ab.dominantCoding() == null || ab.frames() == 0) continue;
      for (TargetCellResult o : others) {
        BatchResult ob = o.included();
        if (!o.cell().stream().equals(a.cell().stream()) || ob.frames() == 0 || ob.dominantCoding() != null) continue;
        if (ob.framesPerRead() <= 1.25 && ab.framesPerRead() >= 2 * ob.framesPerRead()) {
          return String.format("the same stream, %d frames of %d B every %s, read %.2f frames per read in %s and %.2f without it",
              a.cell().frames(), a.cell().stream().frameBytes(), Units.formatDuration(a.cell().stream().intervalNanos()),
              ab.framesPerRead(), ab.dominantCoding().text(), ob.framesPerRead());
        }
      }
    }
    return null;
  }

  /** The one cell that asks whether a target compresses for a client that accepts it: 200 frames of 60 B every 2 ms. */
  private static final CellPlan COMPRESSION_PROBE = new CellPlan(60, 2_000_000L, 200);

  private static double secondsLeft(long deadlineNanos) {
    return Math.max(0, (deadlineNanos - System.nanoTime()) / 1e9);
  }

  /** The coding most cells' bodies arrived in, or null when none was compressed. */
  private static String codingSeen(List<TargetCellResult> results) {
    Map<String, Integer> n = new LinkedHashMap<>();
    for (TargetCellResult r : results) {
      ContentCoding c = r.everyStream().dominantCoding();
      if (c != null) n.merge(c.text(), 1, Integer::sum);
    }
    return n.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
  }

  private String clientText(Cell cell, boolean identity) {
    RequestPlan p = CellRequest.plan(cell, HostPort.parse("-", "127.0.0.1:1", false), null, headersFor(identity));
    String ae = String.join(", ", p.acceptedCodings().stream().map(ContentCoding::text).toList());
    return cell.profile().text() + (ae.isEmpty() ? ", no Accept-Encoding" : ", accepting " + ae);
  }

  /** The scenario's request headers; for the pass as a client that does not accept compression, Accept-Encoding: identity. */
  private List<String[]> headersFor(boolean identity) {
    List<String[]> h = scenario.requestHeaders().toSend();
    return identity ? CellRequest.identityEncoding(h) : h;
  }

  /**
   * A cell whose runs were both excluded because every frame read together was read in a stall of
   * this host: outside the stalls each frame came alone, which is what a streamed cell shows. When
   * the runs' reads together also pass as streamed (one frame per release at the median, the oldest
   * waiting under 5 ms, at most 1.25 frames per read, stalls and all), the cell is evidence that
   * the target streams it, labelled as such; otherwise (a target that held frames, which a host's
   * run-queue waits could have hidden) null, and nothing is inferred from the cell.
   */
  static CellEvidence streamedOutsideStalls(TargetCellResult r, List<RunRecord> runs, double baselineMs) {
    if (runs.isEmpty() || !runs.stream().allMatch(RunRecord::excludedForHostStall)) return null;
    List<StreamResult> read = new ArrayList<>();
    for (RunRecord run : runs) read.addAll(run.result().streamResults());
    BatchResult b = new BatchResult(read);
    if (b.streamsOk() == 0 || b.lostFrames() > 0 || b.frames() == 0) return null;
    CellEvidence e = new TargetCellResult(r.target(), r.cell(), r.runs(), b, r.requestHeaders()).evidence(baselineMs);
    return e.streamed() ? e.withLabel(e.label() + " (streamed outside this host's stalls)") : null;
  }

  /**
   * One pass of the prober as one kind of client: the cells it chooses, one run each (a run the
   * pacing guard excluded is measured once more, and both are kept). A cell whose every stream
   * failed, or in which frames were lost, ends the pass inconclusive: the map infers nothing from
   * data it did not get.
   */
  private FlushTrigger mapAs(Target target, Cell base, boolean identity, Measure measure, Certification cert,
      List<TargetCellResult> results, Consumer<String> announce, double budgetSeconds) throws Exception {
    PassEnd[] failed = new PassEnd[1];
    // an OpenAI stream's events are sized by their JSON: the map varies only the interval
    boolean openAi = base.stream().endpoint().isOpenAi();
    String who = base.profile() == ClientProfile.DEFAULT && !identity ? "" : " as " + base.profile().text();
    boolean eventStream = new ResponseShape(base.stream().contentType(), base.stream().transfer()).eventStream();
    MapProber prober = new MapProber(target.name(), target.path(), openAi, eventStream, plan -> {
      Cell cell = openAi ? base : base.with(Setting.FRAME_SIZE, plan.frameSizeBytes() + "B");
      cell = cell.with(Setting.INTERVAL, Units.formatDuration(plan.intervalNanos()))
          .with(Setting.FRAMES, Integer.toString(plan.frames()));
      if (plan.thinkNanos() > 0) {
        cell = cell.with(Setting.THINK, Units.formatDuration(plan.thinkNanos()))
            .with(Setting.SSE_KEEPALIVE, Units.formatDuration(plan.keepAliveNanos()));
      }
      cell = cell.withIndex(results.size());
      progress = "map: " + plan + who;
      List<RunRecord> runs = new ArrayList<>();
      identityPass = identity;
      boolean done;
      try {
        done = !interrupted.get() && measure.runOnceMoreIfExcluded(target, cell, cell.index(), 0, plan.toString(), runs, announce);
      } finally {
        identityPass = false;
      }
      if (!done) return null;
      TargetCellResult r = TargetCellResult.of(target.name(), cell, runs);
      if (identity) r = r.withRequestHeaders(headersFor(true));
      results.add(r);
      BatchResult b = r.included();
      boolean bothExcluded = runs.stream().allMatch(RunRecord::excluded);
      CellEvidence probed = asProbed(r, cert.emitToRecvMs());
      if (probed != null) {
        if (bothExcluded) {
          announce.accept("map: " + plan + who + ": both runs' merged reads all fell in this host's stalls, and outside them each "
              + "frame came alone: the cell streamed (" + runs.get(runs.size() - 1).exclusionReason() + ")");
        }
        return probed;
      }
      // no data: why
      if (bothExcluded) {
        String why = runs.get(runs.size() - 1).exclusionReason();
        failed[0] = runs.stream().allMatch(RunRecord::spoiledByHostStall)
            ? new PassEnd("this host stalled in both runs of " + plan + who + " (" + why + "); nothing is inferred from it", PassEnd.Kind.HOST_STALLED)
            : new PassEnd("both runs of " + plan + who + " were excluded (" + why + ") with no stall of this host to account for it; "
                + "nothing is inferred from it", PassEnd.Kind.EXCLUDED);
        return null;
      }
      if (b.streamsOk() == 0 && b.errorCount() > 0) {
        failed[0] = new PassEnd("every stream of " + plan + who + " failed: " + b.firstError(),
            b.failedWith(StreamError.HTTP2_ONLY) ? PassEnd.Kind.SPEAKS_HTTP2_ONLY : PassEnd.Kind.TARGET_FAILED);
        return null; // a target that answers no stream has no trigger to map: stop here
      }
      failed[0] = new PassEnd((b.frames() == 0 ? "no frame of " + plan + who + " was read" : b.lostFrames() + " frames of " + plan
          + who + " were lost") + "; nothing is inferred from it", PassEnd.Kind.TARGET_FAILED);
      return null;
    }, budgetSeconds, announce);
    FlushTrigger trigger = prober.run();
    if (failed[0] != null && failed[0].kind() == PassEnd.Kind.HOST_STALLED) {
      trigger = FlushTrigger.inconclusive(target.name(), failed[0].why(), List.of(),
          List.of("map again on a quieter host: the reads merged while this host was stopped, not by the target"));
    } else if (failed[0] != null && failed[0].kind() == PassEnd.Kind.EXCLUDED) {
      trigger = FlushTrigger.inconclusive(target.name(), failed[0].why(), List.of(),
          List.of("map again; an emitter late with no stall of this host was held by the lab's own code on its loop (worth reporting)"));
    } else if (failed[0] != null) {
      // a peer that answered an HTTP/1.1 request with HTTP/2's frames (an h2c-only listener) is asked the way it speaks
      String next = failed[0].kind() == PassEnd.Kind.SPEAKS_HTTP2_ONLY ? "map it over HTTP/2 by prior knowledge: --http h2c"
          : "check that the target forwards every byte of the stream (flushlab client --target ... prints what each stream lost)";
      trigger = FlushTrigger.inconclusive(target.name(), "the target failed: " + failed[0].why(), List.of(), List.of(next));
    }
    return trigger;
  }

  /** Why a pass of the map stopped before its prober was done: the target failed it, this host stalled, or a guard excluded both runs. */
  private record PassEnd(String why, Kind kind) {
    enum Kind { TARGET_FAILED, SPEAKS_HTTP2_ONLY, HOST_STALLED, EXCLUDED }
  }

  /** The emitter (and namespace) of every network path this scenario's targets use, the scenario's own first. */
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
  private Certification certify(Measure measure, java.util.function.UnaryOperator<Cell> asRun, Consumer<String> announce)
      throws Exception {
    List<RunRecord> runs = new ArrayList<>();
    Target direct = new Target.Direct("direct", scenario.path());
    Cell certifying = asRun.apply(scenario.guards().certifyCell());
    for (int i = 0; i < scenario.guards().certifyRuns() && !interrupted.get(); i++) {
      progress = "certifying the direct path, run " + (i + 1) + "/" + scenario.guards().certifyRuns();
      if (!measure.runOnceMoreIfExcluded(direct, certifying, -1, i, "certification run " + (i + 1), runs, announce)) {
        break;
      }
    }
    List<StreamResult> kept = new ArrayList<>();
    for (RunRecord r : runs) if (!r.excluded()) kept.addAll(r.result().streamResults());
    BatchResult all = new BatchResult(kept);
    long excluded = runs.stream().filter(RunRecord::excluded).count();
    boolean certified = !interrupted.get() && all.streamsOk() > 0 && all.errorCount() == 0
        && all.framesPerRead() <= scenario.guards().certifyMaxFramesPerRead();
    String verdict;
    if (certified) {
      verdict = "certified";
    } else if ((kept.isEmpty() || all.errorCount() > 0 || all.streamsOk() == 0) && budgetSpent()) {
      // a request's timeout is what is left of the budget: one cut at the budget's end says nothing of the direct path
      // (s119: two runs excluded for this host's stalls, the third cut after 319 ms, and the path was blamed); a budget
      // spent before the first run began leaves no run at all, which says nothing of this host either (CI at f41475e)
      boolean stalled = runs.stream().anyMatch(RunRecord::spoiledByHostStall);
      String cut = runs.isEmpty() ? "before its first run began"
          : kept.isEmpty() ? "its last run cut at the budget's end (" + runs.get(runs.size() - 1).exclusionReason() + ")"
          : "its last request cut at the budget's end (" + all.firstError() + ")";
      verdict = "not certified: --budget ran out during certification, " + cut
          + (stalled ? "; this host stalled during certification, " + hostStalls(runs) + ", and each run it excluded was measured "
          + "once more" : "") + ": map again with a longer --budget" + (stalled ? " or on a quieter host" : "");
    } else if (kept.isEmpty() && !runs.isEmpty() && runs.stream().allMatch(RunRecord::spoiledByHostStall)) {
      verdict = "not certified: this host stalled during certification, " + hostStalls(runs) + "; every run it excluded was "
          + "measured once more and stalled again (no proxy is involved in the direct path: try again on a quieter host)";
    } else if (kept.isEmpty()) {
      verdict = "not certified: no run was kept (" + (runs.isEmpty() ? "none finished" : runs.get(runs.size() - 1).exclusionReason()) + ")";
    } else if (all.errorCount() > 0 || all.streamsOk() == 0) {
      verdict = "not certified: the direct path's streams failed (" + all.firstError() + ")";
    } else {
      verdict = String.format("not certified: the direct path read %.3f frames per read, over the ceiling of %.2f, outside any stall "
          + "of this host (the direct path is not clean)", all.framesPerRead(), scenario.guards().certifyMaxFramesPerRead());
    }
    announce.accept(String.format("certification: direct path %.3f frames per read over %d kept runs (ceiling %.2f, %d excluded): %s",
        all.framesPerRead(), runs.size() - excluded, scenario.guards().certifyMaxFramesPerRead(), excluded, verdict));
    return new Certification(certified, all.framesPerRead(), all.emitToRecvMs().p50(), all.emitToRecvMs().p99(), List.copyOf(runs), verdict);
  }

  /** The host stalls of the runs excluded for them: "2 over 20 ms; longest 48.2 ms". */
  private static String hostStalls(List<RunRecord> runs) {
    int over20 = 0;
    double max = 0;
    for (RunRecord r : runs) {
      if (r.stalls() == null) continue;
      over20 += r.stalls().host().over20Ms();
      max = Math.max(max, r.stalls().host().maxMs());
    }
    return String.format("%d time(s) over 20 ms, the longest %.1f ms", over20, max);
  }

  /**
   * Every cell, every target, {@code runs} times; an interrupt keeps what finished. A run the pacing
   * guard excluded (the emitter was late: the host stalled, the run says nothing of the target) is
   * measured once more, once, as the map does; both are kept and the exclusion is named.
   */
  private List<TargetCellResult> measureCells(Measure measure, Consumer<String> announce) throws Exception {
    List<TargetCellResult> results = new ArrayList<>();
    for (Cell cell : scenario.cells()) {
      for (Target t : scenario.targets()) {
        List<RunRecord> runs = new ArrayList<>();
        for (int r = 0; r < scenario.runs(); r++) {
          progress = String.format("cell %d/%d [%s], target %s, run %d/%d", cell.index() + 1, scenario.cells().size(),
              cell.label(), t.name(), r + 1, scenario.runs());
          if (interrupted.get() || !measure.runOnceMoreIfExcluded(t, cell, cell.index(), r, t.name() + " [" + cell.label() + "] run "
              + (r + 1), runs, announce)) {
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
  private Map<String, FlushTrigger> inferTriggers(List<TargetCellResult> results, double baselineMs) {
    Map<String, FlushTrigger> triggers = new LinkedHashMap<>();
    if (!scenario.flushTriggerMap() || interrupted.get()) return triggers;
    for (Target t : scenario.targets()) {
      List<CellEvidence> mine = results.stream().filter(r -> r.target().equals(t.name())).map(r -> r.evidence(baselineMs)).toList();
      triggers.put(t.name(), TriggerInference.infer(t.name(), mine, t.path()));
    }
    return triggers;
  }

  private Bisection bisect(Measure measure, Consumer<String> announce) throws Exception {
    Scenario.Adaptive a = scenario.adaptive();
    if (a == null || interrupted.get()) return null;
    return new Bisector(a, scenario.target(a.target()), scenario.cells().get(0), (target, cell) -> {
      progress = "adaptive: " + cell.label();
      List<RunRecord> runs = new ArrayList<>();
      for (int r = 0; r < scenario.runs(); r++) {
        if (interrupted.get() || !measure.runOnceMoreIfExcluded(target, cell, -1, r, "adaptive " + cell.label() + " run " + (r + 1), runs,
            announce)) {
          return null;
        }
      }
      return TargetCellResult.of(target.name(), cell, runs);
    }).run();
  }

  /** One run: one client batch, then the pacing guard over every stream the emitter served. */
  private final class Measurer implements Measure {
    private final ServerSites sites;
    private final RunningTargets targets;

    Measurer(ServerSites sites, RunningTargets targets) {
      this.sites = sites;
      this.targets = targets;
    }

    /** Null when the run was aborted by {@link #interrupt()} (a partial run is not a measurement). */
    @Override
    public RunRecord run(Target target, Cell cell, int cellIndex, int run) throws Exception {
      ServerSite site = sites.site(target.path());
      boolean plainDirect = target instanceof Target.Direct d && !d.speaksTls();
      HostPort at = plainDirect ? site.emitter() : targets.address(target);
      ClientTls tls = plainDirect ? null : targets.tls(target);
      if (budgetSpent()) return null;
      ClientOptions options = withinBudget(cell).client();
      beforeRun.beforeRun(target.name(), cellIndex, run, site.emitterLoop());
      MeteredClient client = new MeteredClient(vertx, options);
      currentClient = client;
      List<Long> pathPids = pathProcesses(target, site, plainDirect);
      ThreadWaits waitsBefore = ThreadWaits.of(pathPids);
      BatchResult result;
      long started = System.currentTimeMillis();
      long startedNanos = System.nanoTime();
      try {
        if (interrupted.get()) return null;
        long waitMs = Math.min(options.timeoutNanos() / 1_000_000 * options.requests() + 10_000, msLeft() + 2_000);
        try {
          result = client.run(CellRequest.plan(cell, at, tls, headersFor(identityPass))).await(waitMs, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
          throw new IllegalStateException(String.format("%d request(s) to %s at %s were still not done after %d ms, past their own "
              + "timeout and what was left of the budget: the target kept them open, or kept this client too busy to time them out "
              + "(a server flooding the connection); no figure is taken from them", options.requests(), target.name(), at, waitMs));
        }
      } finally {
        currentClient = null;
        client.close();
      }
      if (client.aborted()) return null;
      long endedNanos = System.nanoTime();
      StallJudge.PathWait pathWait = pathPids.isEmpty() ? StallJudge.PathWait.NONE
          : new StallJudge.PathWait(pathName(target, site, plainDirect), ThreadWaits.of(pathPids).longestSince(waitsBefore));
      RunStalls stalls = StallJudge.judge(result, startedNanos, endedNanos, "client", cell.stream().intervalNanos(), pathWait);
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
      long thinkNanos = Math.min(StreamSpec.MAX_THINK_NANOS, Math.max(0, deadline - System.nanoTime()) + 10_000_000_000L);
      Cell silent = base.with(Setting.FRAMES, "2").with(Setting.THINK, Units.formatDuration(thinkNanos));
      RequestPlan plan = CellRequest.plan(silent, targets.address(target), targets.tls(target), headersFor(false));
      return SilentStream.start(vertx, plan, base.client(), thinkNanos);
    }

    /** The processes of the path other than this one: the proxy the lab started for the target, a namespace's emitter. */
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
     * Excludes the run if the emitter was late for any stream it served (its own pacing audit), or
     * if every frame it read together was read in a stall of this host (the reader stopped, not the
     * target: {@link StallJudge}).
     */
    private RunRecord guard(Target target, ServerSite site, int cellIndex, int run, BatchResult result, long started, long ended,
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
      long tolerance = scenario.guards().pacingToleranceNanos();
      boolean late = maxLateness > tolerance;
      Exclusion exclusion = late ? Exclusion.emitterLate(maxLateness, tolerance, latest.judged(HiccupMeter.get().loopLedger()).held())
          : stalls.excusedByHost() ? Exclusion.hostStall(stalls.hostStall()) : null;
      return new RunRecord(target.name(), cellIndex, run, result, exclusion, maxLateness, unaudited, frameBytes, frames,
          started, ended, stalls);
    }
  }
}
