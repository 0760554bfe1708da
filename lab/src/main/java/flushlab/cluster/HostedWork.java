package flushlab.cluster;

import flushlab.core.HiccupMeter;
import flushlab.core.HostPort;
import flushlab.core.StallLog;
import flushlab.emitter.Emitter;
import flushlab.emitter.EmitterOptions;
import flushlab.emitter.LateFrame;
import flushlab.emitter.PacingAudit;
import flushlab.proxy.ProxyKind;
import flushlab.proxy.ProxyProcess;
import flushlab.relay.Relay;
import flushlab.relay.RelayLog;
import flushlab.relay.RelayOptions;
import flushlab.relay.shaper.ShaperRegistry;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * The servers an agent runs for a coordinator's run: an emitter, relays. Each run's work is held
 * under a lease the coordinator renews; work whose lease runs out (its coordinator was killed, or
 * lost the network) is stopped by the agent, so no agent serves an orphaned run for longer than the
 * lease. The servers listen on the agent's own address, where the other agents reach them.
 *
 * <p>Addresses, under {@code flushlab.agent.NAME.}: {@code emitter} (start one), {@code relay}
 * (start one, upstream given), {@code proxy} (a real proxy from a template's text, upstream given),
 * {@code audit} (the emitter's pacing audits of given streams), {@code renew} and {@code stop} (a
 * run's lease).
 */
final class HostedWork {
  /** The longest lease a coordinator may ask for; it renews a third of the way through. */
  static final long MAX_LEASE_MS = 60_000;

  /** Runs one agent hosts at once, and servers per run. */
  static final int MAX_RUNS = 4;

  static final int MAX_SERVERS_PER_RUN = 32;

  /** Stream ids one audit request may name. */
  static final int MAX_AUDIT_IDS = 100_000;

  /**
   * The longest span an audit looks back over for this agent's host stalls: a run's deadline is
   * minutes at most.
   */
  static final long MAX_AUDIT_SPAN_MS = 3_600_000L;

  private final Vertx vertx;
  private final String agent;
  private final String host;
  private final Consumer<String> log;

  /**
   * Per run id: its servers (deployment ids), its emitter if any, and when its lease ends. Guarded
   * by this.
   */
  private final Map<String, Hosted> runs = new HashMap<>();

  private static final class Hosted {
    final List<String> deployments = new ArrayList<>();

    /** Proxy processes, stopped (off the event loop) with the run. */
    final List<ProxyProcess> proxies = new ArrayList<>();

    Emitter emitter;
    long leaseMs;
    long leaseEndsNanos;
  }

  private HostedWork(Vertx vertx, String agent, String host, Consumer<String> log) {
    this.vertx = vertx;
    this.agent = agent;
    this.host = host;
    this.log = log;
  }

  static String address(String agent, String what) {
    return "flushlab.agent." + agent + "." + what;
  }

  /**
   * Serves a coordinator's requests for servers on this agent, and stops work whose lease ran out.
   */
  static void serve(Agent a, Consumer<String> log) {
    HostedWork w = new HostedWork(a.vertx(), a.spec().agent(), a.spec().at().host(), log);
    a.vertx()
        .getOrCreateContext()
        .runOnContext(
            v -> {
              String name = a.spec().agent();
              w.vertx.eventBus().<JsonObject>consumer(address(name, "emitter"), w::startEmitter);
              w.vertx.eventBus().<JsonObject>consumer(address(name, "relay"), w::startRelay);
              w.vertx.eventBus().<JsonObject>consumer(address(name, "proxy"), w::startProxy);
              w.vertx.eventBus().<JsonObject>consumer(address(name, "audit"), w::audit);
              w.vertx.eventBus().<JsonObject>consumer(address(name, "renew"), w::renew);
              w.vertx
                  .eventBus()
                  .<JsonObject>consumer(
                      address(name, "stop"),
                      m -> {
                        w.stop(m.body().getString("run", ""), "its coordinator stopped it");
                        m.reply(new JsonObject());
                      });
              w.vertx.setPeriodic(500, t -> w.stopExpired());
            });
  }

  /**
   * The run a request names, with its lease renewed; null (the request failed) when it cannot be
   * hosted.
   */
  private synchronized Hosted leased(Message<JsonObject> m) {
    String run = m.body().getString("run", "");
    long leaseMs = m.body().getLong("lease_ms", 0L);
    if (run.isEmpty() || run.length() > 64 || leaseMs < 1_000 || leaseMs > MAX_LEASE_MS) {
      m.fail(
          400,
          "a request for servers names its run (1..64 characters) and a lease of 1000.."
              + MAX_LEASE_MS
              + " ms");
      return null;
    }
    Hosted h = runs.get(run);
    if (h == null) {
      if (runs.size() >= MAX_RUNS) {
        m.fail(503, "agent " + agent + " already hosts " + MAX_RUNS + " runs");
        return null;
      }
      h = new Hosted();
      runs.put(run, h);
    }
    if (h.deployments.size() + h.proxies.size() >= MAX_SERVERS_PER_RUN) {
      m.fail(
          503,
          "agent " + agent + " already runs " + MAX_SERVERS_PER_RUN + " servers for run " + run);
      return null;
    }
    h.leaseMs = leaseMs;
    h.leaseEndsNanos = System.nanoTime() + leaseMs * 1_000_000L;
    return h;
  }

  private synchronized void startEmitter(Message<JsonObject> m) {
    Hosted h = leased(m);
    if (h == null) return;
    if (h.emitter != null) {
      m.fail(409, "agent " + agent + " already runs an emitter for this run");
      return;
    }
    Emitter emitter = new Emitter(new EmitterOptions(host, 0, true, 0).withListeners(Agent.LOOPS));
    deploy(m, h, vertx.deployVerticle(emitter), () -> emitter.port(), () -> h.emitter = emitter);
  }

  private synchronized void startRelay(Message<JsonObject> m) {
    Hosted h = leased(m);
    if (h == null) return;
    RelayOptions options;
    try {
      HostPort upstream = HostPort.parse("upstream", m.body().getString("upstream", ""), false);
      List<ShaperRegistry.Spec> shapers = new ArrayList<>();
      for (Object s : m.body().getJsonArray("shapers", new JsonArray()))
        shapers.add(ShaperRegistry.parse(String.valueOf(s)));
      options =
          new RelayOptions(
              host,
              0,
              upstream.host(),
              upstream.port(),
              shapers,
              m.body().getBoolean("pool_upstream", false));
    } catch (RuntimeException e) {
      m.fail(400, "agent " + agent + ": a relay it cannot start: " + e.getMessage());
      return;
    }
    Relay relay = new Relay(options, RelayLog.SILENT);
    deploy(m, h, vertx.deployVerticle(relay), () -> relay.port(), () -> {});
  }

  /**
   * A proxy from the template the coordinator sent (its text: the coordinator's file does not exist
   * here), listening on this agent's address and forwarding to the upstream given. Started off the
   * event loop: the proxy is a child process, and starting it waits until it listens.
   */
  private synchronized void startProxy(Message<JsonObject> m) {
    Hosted h = leased(m);
    if (h == null) return;
    ProxyRequest asked;
    try {
      asked = ProxyRequest.of(m.body(), agent);
    } catch (ProxyRequest.Refused e) {
      if (e.status() == 403) log.accept(e.logLine());
      m.fail(e.status(), e.getMessage());
      return;
    }
    ProxyKind kind = asked.kind();
    String template = asked.template();
    String fileName = asked.fileName();
    HostPort upstream = asked.upstream();
    vertx
        .<ProxyProcess>executeBlocking(
            () -> {
              Path dir = Files.createTempDirectory("flushlab-agent-template-");
              try {
                Path file = dir.resolve(fileName);
                Files.writeString(file, template, StandardCharsets.UTF_8);
                return ProxyProcess.start(
                    kind, file, host, upstream.host(), upstream.port(), c -> c);
              } finally {
                try (var files = Files.list(dir)) {
                  for (Path f : files.toList()) Files.deleteIfExists(f);
                }
                Files.deleteIfExists(dir);
              }
            })
        .onComplete(
            ar -> {
              synchronized (this) {
                if (ar.failed()) {
                  m.fail(
                      500,
                      "agent "
                          + agent
                          + " could not start "
                          + kind.text()
                          + ": "
                          + ar.cause().getMessage());
                } else if (!runs.containsValue(h)) {
                  vertx.executeBlocking(
                      () -> {
                        ar.result().close();
                        return null;
                      });
                  m.fail(410, "agent " + agent + ": the run was stopped");
                } else {
                  ProxyProcess p = ar.result();
                  h.proxies.add(p);
                  m.reply(
                      new JsonObject()
                          .put("host", p.host())
                          .put("port", p.port())
                          .put("version", p.version())
                          .put("pid", p.pid()));
                }
              }
            });
  }

  private void deploy(
      Message<JsonObject> m, Hosted h, Future<String> deployed, IntSupplier port, Runnable onUp) {
    deployed.onComplete(
        ar -> {
          synchronized (this) {
            started(m, h, ar, port, onUp);
          }
        });
  }

  private void started(
      Message<JsonObject> m, Hosted h, AsyncResult<String> ar, IntSupplier port, Runnable onUp) {
    if (ar.failed()) {
      m.fail(500, "agent " + agent + " could not start the server: " + ar.cause().getMessage());
      return;
    }
    if (!runs.containsValue(h)) { // the run was stopped while this server started
      vertx.undeploy(ar.result());
      m.fail(410, "agent " + agent + ": the run was stopped");
      return;
    }
    h.deployments.add(ar.result());
    onUp.run();
    m.reply(new JsonObject().put("host", host).put("port", port.getAsInt()));
  }

  /**
   * The emitter's audits of the named streams: how many were paced, how many it has no audit of,
   * the latest frame.
   */
  private synchronized void audit(Message<JsonObject> m) {
    Hosted h = runs.get(m.body().getString("run", ""));
    JsonArray ids = m.body().getJsonArray("ids", new JsonArray());
    if (h == null || h.emitter == null) {
      m.fail(404, "agent " + agent + " runs no emitter for this run");
      return;
    }
    if (ids.size() > MAX_AUDIT_IDS) {
      m.fail(400, "at most " + MAX_AUDIT_IDS + " stream ids per audit request");
      return;
    }
    int paced = 0;
    int missing = 0;
    PacingAudit.Summary latest = null; // the paced stream with the latest frame
    long frameBytes = 0;
    long frames = 0;
    for (int i = 0; i < ids.size(); i++) {
      long id = ids.getLong(i);
      PacingAudit.Summary s = id < 0 ? null : h.emitter.audits().summary(id);
      if (s == null) {
        missing++;
        continue;
      }
      if (s.paced()) {
        paced++;
        if (latest == null || s.latenessMaxNanos() > latest.latenessMaxNanos()) latest = s;
      }
      frameBytes += s.frameBytes();
      frames += s.framesWritten();
    }
    // this agent's longest host stall over the run (the last span_ms, as long as the coordinator
    // waited for it, capped):
    // an emitter late while its own host stalled was stopped by the host, not held by the lab's
    // code
    long spanNanos =
        Math.min(Math.max(0, m.body().getLong("span_ms", 0L)), MAX_AUDIT_SPAN_MS) * 1_000_000L;
    long now = System.nanoTime();
    long stallMax = 0;
    for (StallLog.Stall st : HiccupMeter.get().host().between(now - spanNanos, now))
      stallMax = Math.max(stallMax, st.nanos());
    // what held the latest stream's latest frame, judged here: only this agent's meter saw the loop
    // that wrote it
    LateFrame.Held held =
        latest == null
            ? LateFrame.Held.UNKNOWN
            : latest.judged(HiccupMeter.get().loopLedger()).held();
    m.reply(
        new JsonObject()
            .put("paced", paced)
            .put("missing", missing)
            .put("lateness_max_ns", latest == null ? 0 : latest.latenessMaxNanos())
            .put("frame_bytes", frameBytes)
            .put("frames", frames)
            .put("host_stall_max_ns", stallMax)
            .put("late_why", held.why())
            .put("late_by_host", held.byHost()));
  }

  private synchronized void renew(Message<JsonObject> m) {
    Hosted h = runs.get(m.body().getString("run", ""));
    if (h == null) {
      m.fail(
          404,
          "agent "
              + agent
              + " hosts nothing for this run (its lease ran out, or it never started)");
      return;
    }
    h.leaseEndsNanos = System.nanoTime() + h.leaseMs * 1_000_000L;
    m.reply(new JsonObject());
  }

  private synchronized void stopExpired() {
    long now = System.nanoTime();
    for (String run : List.copyOf(runs.keySet())) {
      Hosted h = runs.get(run);
      if (now - h.leaseEndsNanos > 0)
        stop(run, "its coordinator did not renew the lease of " + h.leaseMs + " ms");
    }
  }

  private synchronized void stop(String run, String why) {
    Hosted h = runs.remove(run);
    if (h == null) return;
    for (String id : h.deployments) vertx.undeploy(id);
    List<ProxyProcess> proxies = List.copyOf(h.proxies);
    if (!proxies.isEmpty()) {
      vertx.executeBlocking(
          () -> {
            for (ProxyProcess p : proxies)
              p.close(); // TERM, then KILL after its grace: not on the event loop
            return null;
          });
    }
    int n = h.deployments.size() + proxies.size();
    if (n > 0) log.accept("stopped the " + n + " server(s) of run " + run + ": " + why);
  }
}
