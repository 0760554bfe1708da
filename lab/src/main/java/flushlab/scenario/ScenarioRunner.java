package flushlab.scenario;

import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import flushlab.client.Warmup;
import flushlab.core.Units;
import flushlab.emitter.Emitter;
import flushlab.emitter.EmitterOptions;
import flushlab.emitter.PacingAudit;
import flushlab.proxy.ProxyProcess;
import flushlab.relay.Relay;
import flushlab.relay.RelayLog;
import flushlab.relay.RelayOptions;
import io.vertx.core.Vertx;
import java.io.PrintStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Runs a scenario in one process on loopback: the emitter, the built-in relays and the client.
 * Order: warm-up (unreported), certification of the direct path, then every cell one after
 * another, and in each cell every target, {@code runs} times. One attempt per run, never a retry;
 * a run the pacing guard excludes is counted and reported. Then the flush-trigger map and the
 * adaptive bisection, if asked for.
 */
public final class ScenarioRunner {
  private final Scenario scenario;
  private final Vertx vertx;
  private final AtomicBoolean interrupted = new AtomicBoolean();
  private Emitter emitter;
  private final Map<String, Relay> relays = new LinkedHashMap<>();
  private final Map<String, ProxyProcess> processes = new LinkedHashMap<>();
  private final Map<String, Map<String, Object>> processInfo = new LinkedHashMap<>();
  private volatile String progress = "starting";
  private volatile MeteredClient currentClient;
  private RunHook beforeRun = (target, cell, run, emitterLoop) -> {};

  /** Called before each measured run (tests use it to disturb a run on purpose). */
  public interface RunHook {
    void beforeRun(String target, int cell, int run, io.vertx.core.Context emitterLoop);
  }

  public ScenarioRunner beforeRun(RunHook hook) {
    this.beforeRun = hook;
    return this;
  }

  /** What a finished (or interrupted) run of a scenario produced. */
  public record Outcome(boolean certified, List<RunRecord> certification, double certifiedFramesPerRead,
      List<TargetCellResult> results, Map<String, FlushTrigger> triggers, Bisection bisection,
      boolean interrupted, long startedEpochMillis, long elapsedNanos, Map<String, Map<String, Object>> processes) {}

  /** A target the run could not start (a missing binary, a proxy that never listened). */
  public static final class TargetStartFailure extends Exception {
    private static final long serialVersionUID = 1L;

    public TargetStartFailure(String message) {
      super(message);
    }
  }

  /** The adaptive bisection's path and answer. */
  public record Bisection(String target, String parameter, List<String[]> steps, String coalescingAt,
      String streamingAt, String verdict) {}

  public ScenarioRunner(Scenario scenario, Vertx vertx, PrintStream out) {
    this.scenario = scenario;
    this.vertx = vertx;
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

  /** Rough seconds the scenario will take, for the line printed before it starts. */
  public static double expectedSeconds(Scenario s) {
    double total = runSeconds(s.guards().certifyCell()) * s.guards().certifyRuns() + 1.0;
    for (Cell c : s.cells()) total += runSeconds(c) * s.runs() * s.targets().size();
    if (s.adaptive() != null) total += runSeconds(s.cells().get(0)) * s.runs() * s.adaptive().maxCells();
    return total;
  }

  private static double runSeconds(Cell c) {
    double stream = (c.nanos("think") + c.nanos("interval") * (double) (frames(c) - 1)) / 1e9;
    double batches = Math.ceil((double) c.integer("requests") / c.integer("concurrency"));
    double slow = c.nanos("slow_reader") / 1e9 * (c.has("total") ? c.bytes("total") / 65536.0 : 1);
    return (stream + slow + 0.05) * batches;
  }

  static int frames(Cell c) {
    if (c.has("total") && c.get("endpoint").equals("sse")) {
      long size = c.bytes("frame_size");
      return (int) ((c.bytes("total") + size - 1) / size);
    }
    return c.integer("frames");
  }

  public Outcome run(Consumer<String> announce) throws Exception {
    long started = System.nanoTime();
    long startedMillis = System.currentTimeMillis();
    emitter = new Emitter(new EmitterOptions(scenario.emitterListen().host(), scenario.emitterListen().port(), true, 0));
    try {
      vertx.deployVerticle(emitter).await(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new TargetStartFailure("the emitter cannot listen on " + scenario.emitterListen() + ": " + e.getMessage());
    }
    try {
      for (TargetSpec t : scenario.targets()) {
        if (t.kind() == TargetSpec.Kind.EXTERNAL) {
          String refused = unreachable(t.host(), t.port());
          if (refused != null) {
            throw new TargetStartFailure("target " + t.name() + ": nothing accepts connections at " + t.host() + ":" + t.port()
                + " (" + refused + "); start it, or correct its address, before measuring it");
          }
        }
        if (t.kind() == TargetSpec.Kind.RELAY) {
          Relay r = new Relay(new RelayOptions("127.0.0.1", 0, "127.0.0.1", emitter.port(), t.shapers(), t.poolUpstream()),
              RelayLog.SILENT);
          vertx.deployVerticle(r).await(10, TimeUnit.SECONDS);
          relays.put(t.name(), r);
        } else if (t.kind() == TargetSpec.Kind.PROCESS) {
          ProxyProcess proc;
          try {
            proc = ProxyProcess.start(t.proxy(), t.config(), "127.0.0.1", emitter.port());
          } catch (ProxyProcess.StartFailure e) {
            throw new TargetStartFailure("target " + t.name() + ": " + e.getMessage());
          }
          processes.put(t.name(), proc);
          Map<String, Object> info = new LinkedHashMap<>();
          info.put("proxy", t.proxy().binaryName);
          info.put("version", proc.version());
          info.put("pid", proc.pid());
          info.put("config_template", t.config().toString());
          info.put("config_text", proc.configText());
          if (proc.effectiveConfig() != null) {
            info.put("effective_config", proc.effectiveConfig());
          } else {
            info.put("effective_config_note", t.proxy().binaryName + " cannot print the configuration it parsed; config_text is what it ran");
          }
          processInfo.put(t.name(), info);
          announce.accept("started " + t.name() + ": " + firstLine(proc.version()) + " (pid " + proc.pid() + ") on 127.0.0.1:"
              + proc.port() + " -> emitter 127.0.0.1:" + emitter.port());
        }
      }
      progress = "warm-up";
      Warmup.run(vertx);
      announce.accept("warm-up: 24 streams against a private loopback emitter and relay (not reported)");

      // Certification: the direct path must be clean on this host before any target row counts.
      List<RunRecord> cert = new ArrayList<>();
      TargetSpec direct = TargetSpec.direct("direct");
      for (int i = 0; i < scenario.guards().certifyRuns() && !interrupted.get(); i++) {
        progress = "certifying the direct path, run " + (i + 1) + "/" + scenario.guards().certifyRuns();
        RunRecord rec = measure(direct, scenario.guards().certifyCell(), -1, i);
        if (rec != null) cert.add(rec);
      }
      List<flushlab.client.StreamResult> certStreams = new ArrayList<>();
      for (RunRecord r : cert) if (!r.excluded()) certStreams.addAll(r.result().streamResults());
      BatchResult certAll = new BatchResult(certStreams);
      boolean certified = !interrupted.get() && certAll.streamsOk() > 0 && certAll.errorCount() == 0
          && certAll.framesPerRead() <= scenario.guards().certifyMaxFramesPerRead();
      announce.accept(String.format("certification: direct path %.3f frames per read over %d kept runs (ceiling %.2f, %d excluded by the pacing guard): %s",
          certAll.framesPerRead(), cert.size() - cert.stream().filter(RunRecord::excluded).count(),
          scenario.guards().certifyMaxFramesPerRead(), cert.stream().filter(RunRecord::excluded).count(),
          certified ? "certified" : "NOT certified"));
      if (!certified) {
        return new Outcome(false, cert, certAll.framesPerRead(), List.of(), Map.of(), null, interrupted.get(),
            startedMillis, System.nanoTime() - started, processInfo);
      }

      List<TargetCellResult> results = new ArrayList<>();
      outer:
      for (Cell cell : scenario.cells()) {
        for (TargetSpec t : scenario.targets()) {
          List<RunRecord> runs = new ArrayList<>();
          for (int r = 0; r < scenario.runs(); r++) {
            if (interrupted.get()) {
              if (!runs.isEmpty()) results.add(TargetCellResult.of(t.name(), cell, runs));
              break outer;
            }
            progress = String.format("cell %d/%d [%s], target %s, run %d/%d", cell.index() + 1, scenario.cells().size(),
                cell.label(), t.name(), r + 1, scenario.runs());
            RunRecord rec = measure(t, cell, cell.index(), r);
            if (rec == null) {
              if (!runs.isEmpty()) results.add(TargetCellResult.of(t.name(), cell, runs));
              break outer;
            }
            runs.add(rec);
          }
          results.add(TargetCellResult.of(t.name(), cell, runs));
        }
      }
      Map<String, FlushTrigger> triggers = new LinkedHashMap<>();
      if (scenario.flushTriggerMap() && !interrupted.get()) {
        for (TargetSpec t : scenario.targets()) {
          List<TargetCellResult> mine = results.stream().filter(r -> r.target().equals(t.name())).toList();
          triggers.put(t.name(), FlushTriggerInference.infer(t.name(), mine));
        }
      }
      Bisection bisection = scenario.adaptive() != null && !interrupted.get() ? bisect(scenario.adaptive()) : null;
      return new Outcome(true, cert, certAll.framesPerRead(), results, triggers, bisection, interrupted.get(),
          startedMillis, System.nanoTime() - started, processInfo);
    } finally {
      for (ProxyProcess p : processes.values()) p.close();
      vertx.undeploy(emitter.deploymentID()).await(10, TimeUnit.SECONDS);
      for (Relay r : relays.values()) vertx.undeploy(r.deploymentID()).await(10, TimeUnit.SECONDS);
    }
  }

  /**
   * One run: one client batch, then the pacing guard over every stream the emitter served.
   * Null when the run was aborted by {@link #interrupt()} (a partial run is not a measurement).
   */
  RunRecord measure(TargetSpec target, Cell cell, int cellIndex, int run) throws Exception {
    String host = "127.0.0.1";
    int port;
    switch (target.kind()) {
      case RELAY: port = relays.get(target.name()).port(); break;
      case EXTERNAL: host = target.host(); port = target.port(); break;
      case PROCESS: port = processes.get(target.name()).port(); break;
      default: port = emitter.port();
    }
    RequestPlan plan = plan(cell, host, port);
    ClientOptions options = new ClientOptions(cell.integer("requests"), cell.integer("concurrency"), cell.bool("keep_alive"),
        cell.nanos("timeout"), cell.nanos("slow_reader"), 65536);
    beforeRun.beforeRun(target.name(), cellIndex, run, emitter.loop());
    MeteredClient client = new MeteredClient(vertx, options);
    currentClient = client;
    BatchResult result;
    try {
      if (interrupted.get()) return null;
      long waitMs = cell.nanos("timeout") / 1_000_000 * options.requests() + 10_000;
      result = client.run(plan).await(waitMs, TimeUnit.MILLISECONDS);
    } finally {
      currentClient = null;
      client.close();
    }
    if (client.aborted()) return null;
    long maxLateness = 0;
    int unaudited = 0;
    for (long id : result.streamIds()) {
      PacingAudit.Summary s = id < 0 ? null : emitter.audits().summary(id);
      if (s == null) {
        unaudited++;
        continue;
      }
      if (s.paced()) maxLateness = Math.max(maxLateness, s.latenessMaxNanos());
    }
    boolean excluded = maxLateness > scenario.guards().pacingToleranceNanos();
    String reason = excluded ? String.format("emitter late by %.3f ms (tolerance %.3f ms)", maxLateness / 1e6,
        scenario.guards().pacingToleranceNanos() / 1e6) : null;
    return new RunRecord(target.name(), cellIndex, run, result, excluded, reason, maxLateness, unaudited);
  }

  /** Null when host:port accepts a TCP connection within 3 s, else why not. */
  private static String unreachable(String host, int port) {
    try (java.net.Socket s = new java.net.Socket()) {
      s.connect(new java.net.InetSocketAddress(host, port), 3000);
      return null;
    } catch (java.io.IOException e) {
      return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  static RequestPlan plan(Cell cell, String host, int port) {
    if (cell.get("endpoint").equals("chat")) {
      return RequestPlan.chat(host, port, cell.integer("frames"), cell.nanos("think") / 1e6, cell.nanos("interval") / 1e6);
    }
    StringBuilder q = new StringBuilder("size=").append(cell.bytes("frame_size"))
        .append("&interval=").append(cell.nanos("interval")).append("ns")
        .append("&think=").append(cell.nanos("think")).append("ns")
        .append("&transfer=").append(cell.get("transfer"));
    if (cell.has("total")) {
      q.append("&total=").append(cell.bytes("total"));
    } else {
      q.append("&frames=").append(cell.integer("frames"));
    }
    if (!cell.get("x_accel_buffering").equals("absent")) {
      q.append("&header=").append(URLEncoder.encode("X-Accel-Buffering:" + cell.get("x_accel_buffering"), StandardCharsets.UTF_8));
    }
    for (Map.Entry<String, String> h : cell.headers().entrySet()) {
      q.append("&header=").append(URLEncoder.encode(h.getKey() + ":" + h.getValue(), StandardCharsets.UTF_8));
    }
    return RequestPlan.get("http://" + host + ":" + port + "/sse?" + q);
  }

  /**
   * Bisects one setting of one target between a value where it coalesces (low) and one where it
   * streams (high), until the two are within the tolerance. Each step is one cell with the
   * scenario's runs; the steps are part of the result.
   */
  private Bisection bisect(Scenario.Adaptive a) throws Exception {
    TargetSpec target = scenario.target(a.target());
    boolean size = a.parameter().equals("frame_size");
    double lo = size ? Units.parseBytes(a.low()) : Units.parseDurationNanos(a.low());
    double hi = size ? Units.parseBytes(a.high()) : Units.parseDurationNanos(a.high());
    List<String[]> steps = new ArrayList<>();
    double loFpr = probe(target, a, lo, steps);
    double hiFpr = Double.isNaN(loFpr) ? Double.NaN : probe(target, a, hi, steps);
    if (Double.isNaN(hiFpr)) return interruptedBisection(a, steps);
    boolean loCoalesces = loFpr > a.coalescingAbove();
    boolean hiCoalesces = hiFpr > a.coalescingAbove();
    if (loCoalesces == hiCoalesces) {
      return new Bisection(a.target(), a.parameter(), steps, null, null, String.format(
          "no transition between %s (%.2f frames/read) and %s (%.2f): both %s", a.low(), loFpr, a.high(), hiFpr,
          loCoalesces ? "coalesce" : "stream"));
    }
    double coalescing = loCoalesces ? lo : hi;
    double streaming = loCoalesces ? hi : lo;
    while (steps.size() < a.maxCells() && Math.abs(streaming - coalescing) > a.tolerance() * Math.max(coalescing, streaming)
        && !interrupted.get()) {
      double mid = Math.round((coalescing + streaming) / 2);
      double fpr = probe(target, a, mid, steps);
      if (Double.isNaN(fpr)) return interruptedBisection(a, steps);
      if (fpr > a.coalescingAbove()) {
        coalescing = mid;
      } else {
        streaming = mid;
      }
    }
    String c = format(size, coalescing);
    String s = format(size, streaming);
    return new Bisection(a.target(), a.parameter(), steps, c, s, String.format(
        "%s %s: coalesces (over %.2f frames per read) at %s, streams at %s; the transition lies between them (%d cells)",
        a.target(), a.parameter(), a.coalescingAbove(), c, s, steps.size()));
  }

  private static Bisection interruptedBisection(Scenario.Adaptive a, List<String[]> steps) {
    return new Bisection(a.target(), a.parameter(), steps, null, null,
        "interrupted after " + steps.size() + " step(s): no transition located; the steps measured are listed");
  }

  /** One bisection step (the scenario's runs at one value); NaN when interrupted. */
  private double probe(TargetSpec target, Scenario.Adaptive a, double value, List<String[]> steps) throws Exception {
    boolean size = a.parameter().equals("frame_size");
    String v = format(size, value);
    Cell cell = scenario.cells().get(0).with(a.parameter(), v);
    progress = "adaptive: " + a.parameter() + "=" + v;
    List<RunRecord> runs = new ArrayList<>();
    for (int r = 0; r < scenario.runs(); r++) {
      RunRecord rec = measure(target, cell, -1, r);
      if (rec == null) return Double.NaN; // interrupted: this step is not a measurement
      runs.add(rec);
    }
    TargetCellResult res = TargetCellResult.of(target.name(), cell, runs);
    double fpr = res.included().framesPerRead();
    steps.add(new String[] {v, String.format("%.2f", fpr), Integer.toString(res.excludedRuns())});
    return fpr;
  }

  /** A bisection value as a setting: whole bytes, or a duration to the microsecond in readable units. */
  private static String format(boolean size, double v) {
    return size ? Math.round(v) + "B" : Units.formatDurationReadable(Math.round(v / 1000) * 1000);
  }
}
