package flushlab.cluster;

import flushlab.client.BatchResult;
import flushlab.client.StreamResult;
import flushlab.core.Build;
import flushlab.core.HostPort;
import flushlab.core.LongSamples;
import flushlab.relay.shaper.ShaperRegistry;
import flushlab.run.RemoteLab;
import flushlab.run.Exclusion;
import flushlab.run.RunRecord;
import flushlab.run.ScenarioRunner;
import flushlab.scenario.Cell;
import flushlab.scenario.ClusterPlacement;
import flushlab.scenario.Scenario;
import flushlab.targets.Target;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The runner's {@link RemoteLab} on a lab's agents, for {@code flushlab map}: the emitter and the
 * target on the agents the placement names, each cell run whole by the client agents (its streams
 * split over them), every stream's results sent back and its one-way times corrected by the client
 * agent's clock offset to the emitter's agent, the run judged by the emitter's own audit and by
 * each client agent against its own host's stalls (excluded when they explain every merged read). A share
 * that does not come back excludes the run with the agent named: the map never infers from a cell
 * it did not get whole.
 */
public final class ClusterLab implements RemoteLab {
  private final Agent self;
  private final RemoteServers servers;
  private final ClusterPlacement placement;
  private final HostPort emitter;
  private final Map<String, HostPort> targets;
  /** Per client agent: its offset to the emitter's agent (its clock minus the emitter's), subtracted from one-way times. */
  private final Map<String, Long> deltas;

  private ClusterLab(Agent self, RemoteServers servers, ClusterPlacement placement, HostPort emitter, Map<String, HostPort> targets,
      Map<String, Long> deltas) {
    this.self = self;
    this.servers = servers;
    this.placement = placement;
    this.emitter = emitter;
    this.targets = targets;
    this.deltas = deltas;
  }

  /** An opener that joins the scenario's lab with this secret (copied; the caller wipes its own). */
  public static RemoteLab.Opener opener(byte[] secret) {
    byte[] mine = secret.clone();
    return (scenario, announce) -> open(scenario, mine, announce);
  }

  static ClusterLab open(Scenario scenario, byte[] secret, Consumer<String> announce) throws Exception {
    ClusterPlacement p = scenario.cluster();
    if (p == null) throw new IllegalArgumentException("scenario " + scenario.name() + " is not placed on a lab's agents");
    byte[] id = new byte[6];
    ThreadLocalRandom.current().nextBytes(id);
    String run = "map-" + HexFormat.of().formatHex(id);
    Agent self = Agent.start(new ClusterSpec(p.name(), secret, Build.version(), "coordinator-" + run.substring(4), p.at(), p.join()),
        announce);
    RemoteServers servers = null;
    try {
      ClusterRun.requireAgents(self, p);
      Map<String, ClockOffset> clocks = ClusterRun.clocks(self, p);
      ClockOffset e = clocks.get(p.emitterOn());
      Map<String, Long> deltas = new LinkedHashMap<>();
      for (String c : p.clientOn()) {
        ClockOffset x = clocks.get(c);
        if (x == null || e == null) throw new IllegalStateException("agent " + (x == null ? c : p.emitterOn()) + " did not answer its clock pings");
        deltas.put(c, c.equals(p.emitterOn()) ? 0 : x.offsetNanos() - e.offsetNanos());
        long bound = c.equals(p.emitterOn()) ? 0 : x.boundNanos() + e.boundNanos();
        announce.accept(String.format("cluster: client agent %s's clock minus the emitter agent %s's: %+.3f ms +- %.3f (%s); one-way times "
            + "are corrected by it", c, p.emitterOn(), deltas.get(c) / 1e6, bound / 1e6, x.basis() == ClockOffset.Basis.SHARED_MONOTONIC
            && e.basis() == ClockOffset.Basis.SHARED_MONOTONIC ? "one kernel's clock, exact" : "round trips"));
      }
      servers = new RemoteServers(self, run, p.leaseNanos() / 1_000_000L, announce);
      HostPort emitter = servers.emitter(p.emitterOn());
      announce.accept("cluster: the emitter runs on agent " + p.emitterOn() + " at " + emitter.host() + ":" + emitter.port());
      Map<String, HostPort> at = new LinkedHashMap<>();
      for (Target t : scenario.targets()) at.put(t.name(), ClusterRun.place(servers, p, t, emitter, announce));
      return new ClusterLab(self, servers, p, emitter, at, deltas);
    } catch (Exception | Error x) {
      if (servers != null) servers.close();
      self.close();
      throw x;
    }
  }

  @Override
  public void placeModel(Target.Relay model, Target like) throws Exception {
    String agent = placement.targetOn().get(like.name());
    if (agent == null) throw new IllegalArgumentException("target " + like.name() + " is on no agent: its model has nowhere to run beside it");
    HostPort at = servers.relay(agent, emitter, model.shapers().stream().map(ShaperRegistry.Spec::text).toList(), model.poolUpstream());
    targets.put(model.name(), at);
  }

  @Override
  public RunRecord run(Target target, Cell cell, int cellIndex, int run, List<String[]> headers, long pacingToleranceNanos) throws Exception {
    HostPort at = target instanceof Target.Direct ? emitter : targets.get(target.name());
    long started = System.currentTimeMillis();
    long deadlineMs = (long) (ScenarioRunner.runSeconds(cell) * 2_000) + 10_000;
    List<String> agents = placement.clientOn();
    Map<String, io.vertx.core.Future<ClientShare.Streams>> asked = new LinkedHashMap<>();
    for (ClusterClients.Share sh : ClusterClients.split(cell.client().requests(), cell.client().concurrency(), agents)) {
      Cell share = cell.withClient(cell.client().withRequests(sh.requests(), sh.concurrency()));
      asked.put(sh.agent(), ClientShare.askStreams(self, sh.agent(), at, share, headers, deadlineMs));
    }
    io.vertx.core.Future.join(new ArrayList<>(asked.values())).transform(ignored -> io.vertx.core.Future.succeededFuture())
        .await(deadlineMs + 5_000, TimeUnit.MILLISECONDS);
    List<StreamResult> streams = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    List<AgentStalls> stalls = new ArrayList<>();
    for (Map.Entry<String, io.vertx.core.Future<ClientShare.Streams>> e : asked.entrySet()) {
      if (e.getValue().succeeded()) {
        for (StreamResult s : e.getValue().result().results()) streams.add(shifted(s, deltas.getOrDefault(e.getKey(), 0L)));
        stalls.add(e.getValue().result().stalls());
      } else {
        missing.add(e.getKey() + " (" + e.getValue().cause().getMessage() + ")");
      }
    }
    BatchResult result = new BatchResult(streams);
    RemoteServers.Audit audit = null;
    Exclusion exclusion = missing.isEmpty() ? null
        : Exclusion.missing("the share of agent(s) " + String.join(", ", missing) + " did not come back");
    if (exclusion == null) {
      try {
        audit = servers.audit(placement.emitterOn(), result.streamIds(), System.currentTimeMillis() - started);
      } catch (Exception x) {
        exclusion = Exclusion.missing("the emitter's audit did not come back: " + x.getMessage());
      }
    }
    if (exclusion == null && audit.latenessMaxNanos() > pacingToleranceNanos) {
      exclusion = ClusterRun.emitterLate(audit, placement.emitterOn(), pacingToleranceNanos);
    }
    // each client agent judged its reads against its own host's stalls: the same rule as one host's
    AgentStalls merged = AgentStalls.merge(stalls);
    if (exclusion == null && merged.excusedByHost()) exclusion = Exclusion.hostStall(merged.hostStall());
    long ended = System.currentTimeMillis();
    return new RunRecord(target.name(), cellIndex, run, result, exclusion, audit == null ? 0 : audit.latenessMaxNanos(),
        audit == null ? streams.size() : audit.missing(), audit == null ? 0 : audit.frameBytes(), audit == null ? 0 : audit.frames(),
        started, ended, null);
  }

  /** A stream's results with its one-way times (emit to receive, each release's wait) moved by the clocks' difference. */
  static StreamResult shifted(StreamResult s, long delta) {
    if (delta == 0 || !s.ok()) return s;
    StreamResult.Timing t = s.timing();
    StreamResult.Releases r = s.releases();
    return new StreamResult(s.streamId(), s.status(), s.error(), s.errorMessage(), s.complete(), s.sawDone(), s.coding(), s.integrity(),
        s.reads(), new StreamResult.Timing(t.ttftNanos(), t.gapNanos(), minus(t.emitToRecvNanos(), delta), t.headNanos(), t.firstBodyNanos(),
            t.requestNanos(), t.endNanos()),
        new StreamResult.Releases(r.count(), r.bytes(), r.bodyBytes(), r.decodedBytes(), r.frames(), r.gapNanos(), minus(r.waitNanos(), delta)),
        s.h2());
  }

  private static LongSamples minus(LongSamples in, long delta) {
    if (in == null) return null;
    LongSamples out = new LongSamples(in.size());
    for (int i = 0; i < in.size(); i++) out.add(in.get(i) - delta);
    return out;
  }

  @Override
  public void close() {
    servers.close();
    try {
      self.close();
    } catch (Exception e) {
      // leaving the cluster is best effort: the agents see this member go either way
    }
  }
}
