package flushlab.cluster;

import flushlab.client.BatchResult;
import flushlab.client.StreamResult;
import flushlab.core.Build;
import flushlab.core.HostPort;
import flushlab.http.Header;
import flushlab.run.AgentShare;
import flushlab.run.Exclusion;
import flushlab.run.OnAgents;
import flushlab.run.RemoteLab;
import flushlab.run.RunRecord;
import flushlab.scenario.Cell;
import flushlab.scenario.ClusterPlacement;
import flushlab.scenario.Scenario;
import flushlab.targets.Target;
import flushlab.targets.TargetKind;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The runner's {@link RemoteLab} on a lab's agents, for {@code flushlab run} and {@code flushlab
 * map} alike: this process joins the lab as its coordinator, measures every agent's clock, starts
 * the emitter and the targets on the agents the placement names; each cell is run whole by the
 * client agents (its streams split over them), every stream's results sent back and its one-way
 * times corrected by the client agent's clock offset to the emitter's agent, the run judged by the
 * emitter's own audit and by each client agent against its own host's stalls (excluded when they
 * explain every merged read). A share that does not come back excludes the run with the agent
 * named: nothing is inferred from a cell not got whole, and once an agent has left, no later run is
 * asked.
 */
public final class ClusterLab implements RemoteLab {
  private final Agent self;
  private final RemoteServers servers;
  private final ClusterPlacement placement;
  private final HostPort emitter;
  private final Map<String, HostPort> targets;

  /**
   * Per client agent: its offset to the emitter's agent (its clock minus the emitter's), subtracted
   * from one-way times.
   */
  private final Map<String, Long> deltas;

  /** Per client agent: how far that offset may be wrong (0 on one kernel). */
  private final Map<String, Long> bounds;

  /** Every agent's clock against this coordinator's, before the runs. */
  private final Map<String, ClockOffset> before;

  /** Each role and where it runs, as the results say it. */
  private final Map<String, String> where;

  /** An agent that left the lab during a run, or null. */
  private volatile String lost;

  /** Round trips per clock estimate. */
  static final int CLOCK_ROUNDS = 20;

  private ClusterLab(
      Agent self,
      RemoteServers servers,
      ClusterPlacement placement,
      HostPort emitter,
      Map<String, HostPort> targets,
      Map<String, Long> deltas,
      Map<String, Long> bounds,
      Map<String, ClockOffset> before,
      Map<String, String> where) {
    this.self = self;
    this.servers = servers;
    this.placement = placement;
    this.emitter = emitter;
    this.targets = targets;
    this.deltas = deltas;
    this.bounds = bounds;
    this.before = before;
    this.where = where;
  }

  /**
   * An opener that joins the scenario's lab with this secret (copied; the caller wipes its own).
   */
  public static RemoteLab.Opener opener(byte[] secret) {
    byte[] mine = secret.clone();
    return (scenario, announce) -> open(scenario, mine, announce);
  }

  static ClusterLab open(Scenario scenario, byte[] secret, Consumer<String> announce)
      throws Exception {
    ClusterPlacement p = scenario.cluster();
    if (p == null)
      throw new IllegalArgumentException(
          "scenario " + scenario.name() + " is not placed on a lab's agents");
    ClusterRequirements.wholeShares(scenario, p);
    byte[] id = new byte[6];
    ThreadLocalRandom.current().nextBytes(id);
    String run = "lab-" + HexFormat.of().formatHex(id);
    Agent self =
        Agent.start(
            new ClusterSpec(
                p.name(),
                secret,
                Build.version(),
                "coordinator-" + run.substring(4),
                p.at(),
                p.join()),
            announce);
    RemoteServers servers = null;
    try {
      ClusterRequirements.agentsPresent(self, p);
      Map<String, ClockOffset> clocks = clocks(self, p);
      ClockOffset e = clocks.get(p.emitterOn());
      Map<String, Long> deltas = new LinkedHashMap<>();
      Map<String, Long> bounds = new LinkedHashMap<>();
      for (String c : p.clientOn()) {
        ClockOffset x = clocks.get(c);
        if (x == null || e == null)
          throw new IllegalStateException(
              "agent " + (x == null ? c : p.emitterOn()) + " did not answer its clock pings");
        deltas.put(c, c.equals(p.emitterOn()) ? 0 : x.offsetNanos() - e.offsetNanos());
        long bound = c.equals(p.emitterOn()) ? 0 : x.boundNanos() + e.boundNanos();
        bounds.put(c, bound);
        announce.accept(
            String.format(
                "cluster: client agent %s's clock minus the emitter agent %s's: %+.3f ms +- %.3f (%s); one-way times "
                    + "are corrected by it",
                c,
                p.emitterOn(),
                deltas.get(c) / 1e6,
                bound / 1e6,
                x.basis() == ClockOffset.Basis.SHARED_MONOTONIC
                        && e.basis() == ClockOffset.Basis.SHARED_MONOTONIC
                    ? "one kernel's clock, exact"
                    : "round trips"));
      }
      servers = new RemoteServers(self, run, p.leaseNanos() / 1_000_000L, announce);
      HostPort emitter = servers.emitter(p.emitterOn());
      announce.accept(
          "cluster: the emitter runs on agent "
              + p.emitterOn()
              + " at "
              + emitter.host()
              + ":"
              + emitter.port()
              + "; the clients on "
              + String.join(", ", p.clientOn()));
      Map<String, String> where = new LinkedHashMap<>();
      where.put("emitter", p.emitterOn() + " (" + emitter.host() + ":" + emitter.port() + ")");
      where.put("client", String.join(", ", p.clientOn()));
      Map<String, HostPort> at = new LinkedHashMap<>();
      for (Target t : scenario.targets()) {
        HostPort a = TargetOnAgent.place(servers, p, t, emitter, announce);
        at.put(t.name(), a);
        if (t.kind() != TargetKind.DIRECT)
          where.put(t.name(), p.targetOn().get(t.name()) + " (" + a.host() + ":" + a.port() + ")");
      }
      return new ClusterLab(self, servers, p, emitter, at, deltas, bounds, clocks, where);
    } catch (Exception | Error x) {
      if (servers != null) servers.close();
      self.close();
      throw x;
    }
  }

  @Override
  public void placeModel(Target.Relay model, Target like) throws Exception {
    String agent = placement.targetOn().get(like.name());
    if (agent == null)
      throw new IllegalArgumentException(
          "target " + like.name() + " is on no agent: its model has nowhere to run beside it");
    targets.put(model.name(), TargetOnAgent.relay(servers, agent, emitter, model));
  }

  @Override
  public Cell certifying(Cell cell) {
    int n = placement.clientOn().size();
    return cell.withClient(
        cell.client()
            .withRequests(
                Math.max(n, cell.client().requests()), Math.max(n, cell.client().concurrency())));
  }

  @Override
  public String lost() {
    return lost;
  }

  @Override
  public RunRecord run(
      Target target,
      Cell cell,
      int cellIndex,
      int run,
      List<Header> headers,
      long pacingToleranceNanos)
      throws Exception {
    HostPort at = target.kind() == TargetKind.DIRECT ? emitter : targets.get(target.name());
    long started = System.currentTimeMillis();
    long deadlineMs = (long) (cell.runSeconds() * 2_000) + 10_000;
    ClusterClients.Outcome o =
        ClusterClients.run(self, placement.clientOn(), at, cell, headers, deadlineMs)
            .await(deadlineMs + 5_000, TimeUnit.MILLISECONDS);
    List<StreamResult> streams = new ArrayList<>();
    List<AgentShare> shares = new ArrayList<>();
    List<AgentStalls> stalls = new ArrayList<>();
    for (Map.Entry<String, ClientShare.Streams> e : o.perAgent().entrySet()) {
      List<StreamResult> mine = new ArrayList<>();
      for (StreamResult s : e.getValue().results())
        mine.add(s.withOneWayTimesLess(deltas.getOrDefault(e.getKey(), 0L)));
      streams.addAll(mine);
      shares.add(
          AgentShare.of(
              e.getKey(), new BatchResult(mine), bounds.getOrDefault(e.getKey(), 0L) / 1e6));
      stalls.add(e.getValue().stalls());
    }
    List<String> missing = new ArrayList<>();
    o.missing().forEach((agent, why) -> missing.add(agent + " (" + why + ")"));
    BatchResult result = new BatchResult(streams);
    RemoteServers.Audit audit = null;
    Exclusion exclusion =
        missing.isEmpty()
            ? null
            : Exclusion.missing(
                "the share of agent(s) " + String.join(", ", missing) + " did not come back");
    if (!missing.isEmpty()) noteLeft(o.missing().keySet());
    if (exclusion == null) {
      try {
        audit =
            servers.audit(
                placement.emitterOn(), result.streamIds(), System.currentTimeMillis() - started);
      } catch (Exception x) {
        exclusion = Exclusion.missing("the emitter's audit did not come back: " + x.getMessage());
        noteLeft(List.of());
      }
    }
    if (exclusion == null && audit.latenessMaxNanos() > pacingToleranceNanos) {
      exclusion = emitterLate(audit, placement.emitterOn(), pacingToleranceNanos);
    }
    // each client agent judged its reads against its own host's stalls: the same rule as one host's
    AgentStalls merged = AgentStalls.merge(stalls);
    if (exclusion == null && merged.excusedByHost())
      exclusion = Exclusion.hostStall(merged.hostStall());
    long ended = System.currentTimeMillis();
    return new RunRecord(
        target.name(),
        cellIndex,
        run,
        result,
        exclusion,
        audit == null ? 0 : audit.latenessMaxNanos(),
        audit == null ? streams.size() : audit.missing(),
        audit == null ? 0 : audit.frameBytes(),
        audit == null ? 0 : audit.frames(),
        started,
        ended,
        // the client agents' stalls, for a replay that differed where they stalled (s237 and a CI
        // run of 2026-12-07: a 4 KiB cell's first frame 254 and 277 ms on the target, 200 on the
        // model, measured again only if the run's stalls say the host stalled; on agents they
        // were dropped here)
        merged.asRunStalls(),
        List.copyOf(shares));
  }

  /**
   * An agent among {@code missing} (or the emitter's) that is no longer in the lab: no later run is
   * what the scenario asked.
   */
  private void noteLeft(Collection<String> missing) {
    List<String> present = self.agents();
    for (String a : missing) {
      if (!present.contains(a)) {
        lost = "agent " + a + " has left the lab";
        return;
      }
    }
    if (!present.contains(placement.emitterOn()))
      lost = "agent " + placement.emitterOn() + " (the emitter's) has left the lab";
  }

  @Override
  public OnAgents onAgents() {
    Map<String, ClockOffset> after = clocks(self, placement);
    List<OnAgents.AgentClock> rows = new ArrayList<>();
    for (Map.Entry<String, ClockOffset> e : before.entrySet()) {
      ClockOffset b = e.getValue();
      ClockOffset f = after.get(e.getKey()); // null: the agent was gone by the end
      boolean oneKernel =
          b.basis() == ClockOffset.Basis.SHARED_MONOTONIC
              && (f == null || f.basis() == ClockOffset.Basis.SHARED_MONOTONIC);
      rows.add(
          new OnAgents.AgentClock(
              e.getKey(),
              b.offsetNanos() / 1e6,
              b.boundNanos() / 1e6,
              f == null ? null : f.offsetNanos() / 1e6,
              f == null ? null : f.boundNanos() / 1e6,
              b.samples() + (f == null ? 0 : f.samples()),
              oneKernel));
    }
    return new OnAgents(placement.name(), Map.copyOf(where), List.copyOf(rows));
  }

  /** The clock offset of the emitter's agent and every client agent to this coordinator. */
  static Map<String, ClockOffset> clocks(Agent self, ClusterPlacement placement) {
    Map<String, ClockOffset> m = new LinkedHashMap<>();
    Set<String> agents = new LinkedHashSet<>();
    agents.add(placement.emitterOn());
    agents.addAll(placement.clientOn());
    List<String> present = self.agents();
    for (String a : agents) {
      // an agent gone has no clock to ask (each ask would wait out its timeout): "not measured"
      if (!present.contains(a)) continue;
      try {
        m.put(a, self.clockOffset(a, CLOCK_ROUNDS));
      } catch (Exception e) {
        // an agent gone by the end keeps its first estimate; its runs already say it is missing
      }
    }
    return m;
  }

  /**
   * The emitter on {@code agent} wrote a frame later than the tolerance: a host stall of that agent
   * when its host stood still at least half as long (as on one host), else late with what the
   * agent's own loop ticks say held the frame (its host, or the lab's own code), never the path's.
   */
  static Exclusion emitterLate(RemoteServers.Audit audit, String agent, long toleranceNanos) {
    Exclusion late = Exclusion.emitterLate(audit.latenessMaxNanos(), toleranceNanos, audit.held());
    if (!audit.lateInAHostStall()) return late;
    return Exclusion.hostStall(
        String.format(
            "agent %s's host stalled %.1f ms during the run: %s",
            agent, audit.hostStallMaxNanos() / 1e6, late.reason()));
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
