package flushlab.cluster;

import flushlab.cluster.ClusterOutcome.AgentClock;
import flushlab.cluster.ClusterOutcome.Figures;
import flushlab.cluster.ClusterOutcome.OneWay;
import flushlab.cluster.ClusterOutcome.RunRow;
import flushlab.core.Build;
import flushlab.core.HostPort;
import flushlab.relay.shaper.ShaperRegistry;
import flushlab.run.Exclusion;
import flushlab.run.ScenarioRunner;
import flushlab.scenario.Cell;
import flushlab.scenario.ClusterPlacement;
import flushlab.scenario.Scenario;
import flushlab.targets.Target;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Runs a scenario on a lab's agents, this process its coordinator: it joins the lab's cluster,
 * measures every agent's clock offset, starts the emitter and the relays on the agents the
 * scenario names, certifies the direct path from the client agents (the emitter's own audit
 * judging each run, as on one host), measures every cell of every target {@code runs} times with
 * the client load split over the client agents, measures the clocks again, and stops what it
 * started. A share that does not come back makes its run partial, the agent named; nothing waits
 * longer than a share's deadline and a second.
 */
public final class ClusterRun {
  /** Round trips per clock estimate. */
  static final int CLOCK_ROUNDS = 20;

  private final Scenario scenario;
  private final ClusterPlacement placement;
  private final AtomicBoolean interrupted = new AtomicBoolean();

  public ClusterRun(Scenario scenario) {
    if (scenario.cluster() == null) throw new IllegalArgumentException("scenario " + scenario.name() + " has no cluster: section");
    this.scenario = scenario;
    this.placement = scenario.cluster();
  }

  /** Stops after the run in progress (Ctrl-C): every finished run is kept. */
  public void interrupt() {
    interrupted.set(true);
  }

  /** Joins the lab with this secret (wiped by the caller once this returns) and runs the scenario. */
  public ClusterOutcome run(byte[] secret, Consumer<String> announce) throws Exception {
    long started = System.nanoTime();
    long startedMillis = System.currentTimeMillis();
    String runId = "run-" + HexFormat.of().formatHex(randomBytes());
    ClusterSpec spec = new ClusterSpec(placement.name(), secret, Build.version(), "coordinator-" + runId.substring(4), placement.at(),
        placement.join());
    try (Agent self = Agent.start(spec, announce)) {
      requireAgents(self, placement);
      Map<String, ClockOffset> before = clocks(self, placement);
      Map<String, String> where = new LinkedHashMap<>();
      List<Measured> certification = new ArrayList<>();
      List<Measured> rows = new ArrayList<>();
      boolean certified;
      String verdict;
      Map<String, ClockOffset> after;
      String[] lostAgent = {null};
      try (RemoteServers servers = new RemoteServers(self, runId, placement.leaseNanos() / 1_000_000L, announce)) {
        HostPort emitter = servers.emitter(placement.emitterOn());
        where.put("emitter", placement.emitterOn() + " (" + emitter.host() + ":" + emitter.port() + ")");
        where.put("client", String.join(", ", placement.clientOn()));
        announce.accept("cluster: the emitter runs on agent " + placement.emitterOn() + " at " + emitter.host() + ":" + emitter.port()
            + "; the clients on " + String.join(", ", placement.clientOn()));
        Map<String, HostPort> at = new LinkedHashMap<>();
        for (Target t : scenario.targets()) {
          HostPort a = place(servers, placement, t, emitter, announce);
          at.put(t.name(), a);
          if (!(t instanceof Target.Direct)) where.put(t.name(), placement.targetOn().get(t.name()) + " (" + a.host() + ":" + a.port() + ")");
        }
        Scenario.Guards g = scenario.guards();
        // at least one certifying stream per client agent: each agent's own path to the emitter is certified
        int n = placement.clientOn().size();
        Cell certify = g.certifyCell().withClient(g.certifyCell().client().withRequests(Math.max(n, g.certifyCell().client().requests()),
            Math.max(n, g.certifyCell().client().concurrency())));
        for (int i = 0; i < g.certifyRuns() && !interrupted.get(); i++) {
          certification.addAll(measureOnceMoreIfExcluded(self, servers, "direct (certify)", certify, i, emitter, announce));
        }
        verdict = certifyVerdict(certification, g);
        certified = verdict == null;
        String gone = null;
        if (certified) {
          announce.accept("cluster: certified: the direct path from " + String.join(", ", placement.clientOn()) + " is clean");
          for (Cell c : scenario.cells()) {
            for (Target t : scenario.targets()) {
              if (gone != null) break;
              for (int run = 0; run < scenario.runs() && !interrupted.get() && gone == null; run++) {
                announce.accept("cluster: measuring " + t.name() + " " + c.label() + " run " + (run + 1) + " on " + String.join(", ",
                    placement.clientOn()));
                List<Measured> measured = measureOnceMoreIfExcluded(self, servers, t.name(), c, run, at.get(t.name()), announce);
                rows.addAll(measured);
                gone = goneAgent(self, measured.get(measured.size() - 1));
                if (gone != null) {
                  announce.accept("cluster: agent " + gone + " has left the lab; the runs after this one are not measured (a split of the load"
                      + " over fewer agents would not be the run the scenario asked for)");
                }
              }
            }
          }
        } else {
          announce.accept("cluster: not certified: " + verdict);
        }
        lostAgent[0] = gone;
        after = clocks(self, placement);
      }
      boolean stoppedEarly = lostAgent[0] != null;
      List<AgentClock> clockRows = new ArrayList<>();
      for (String a : before.keySet()) {
        ClockOffset b = before.get(a);
        ClockOffset f = after.get(a); // null: the agent was gone by the end, and its clock after is not measured
        clockRows.add(new AgentClock(a, b.offsetNanos(), b.boundNanos(), f == null ? null : f.offsetNanos(), f == null ? null : f.boundNanos(),
            b.samples() + (f == null ? 0 : f.samples()), f == null || b.basis() == f.basis() ? b.basis() : ClockOffset.Basis.ROUND_TRIPS));
      }
      // the one-way figures, corrected now that the offsets after the run are known too
      Map<String, AgentClock> byAgent = new LinkedHashMap<>();
      for (AgentClock c : clockRows) byAgent.put(c.agent(), c);
      return new ClusterOutcome(runId, startedMillis, (System.nanoTime() - started) / 1e9, interrupted.get() || stoppedEarly, certified, verdict, where,
          clockRows, corrected(certification, byAgent), corrected(rows, byAgent));
    }
  }

  private static byte[] randomBytes() {
    byte[] b = new byte[6];
    ThreadLocalRandom.current().nextBytes(b);
    return b;
  }

  /**
   * Starts what a target needs on its agent (a relay, a proxy from its template) in front of the
   * emitter and says where clients reach it; a direct target is the emitter itself.
   */
  static HostPort place(RemoteServers servers, ClusterPlacement placement, Target t, HostPort emitter, Consumer<String> announce)
      throws Exception {
    String agent = placement.targetOn().get(t.name());
    if (t instanceof Target.Relay r) {
      HostPort relay = servers.relay(agent, emitter, r.shapers().stream().map(ShaperRegistry.Spec::text).toList(), r.poolUpstream());
      announce.accept("cluster: target " + r.name() + " (" + r.describe() + ") runs on agent " + agent);
      return relay;
    }
    if (t instanceof Target.Process p) {
      HostPort proxy = servers.proxy(agent, p.proxy().text(), p.config(), emitter);
      announce.accept("cluster: target " + p.name() + " (" + p.proxy().text() + " from " + p.config().getFileName() + ") runs on agent " + agent);
      return proxy;
    }
    if (t instanceof Target.Direct) return emitter;
    throw new IllegalArgumentException("target " + t.name() + " (kind " + t.kind().text() + ") is not placed on agents");
  }

  /** Every agent the scenario names is in the lab, or the run stops here saying which are not. */
  static void requireAgents(Agent self, ClusterPlacement placement) {
    Set<String> named = new LinkedHashSet<>();
    named.add(placement.emitterOn());
    named.addAll(placement.clientOn());
    named.addAll(placement.targetOn().values());
    List<String> present = self.agents();
    List<String> absent = named.stream().filter(a -> !present.contains(a)).toList();
    if (!absent.isEmpty()) {
      throw new IllegalStateException("agent(s) " + String.join(", ", absent) + " are not in lab '" + placement.name()
          + "' (its members: " + String.join(", ", present.stream().filter(a -> !a.startsWith("coordinator-")).toList()) + ")");
    }
  }

  /** The clock offset of the emitter's agent and every client agent to this coordinator. */
  static Map<String, ClockOffset> clocks(Agent self, ClusterPlacement placement) throws Exception {
    Map<String, ClockOffset> m = new LinkedHashMap<>();
    Set<String> agents = new LinkedHashSet<>();
    agents.add(placement.emitterOn());
    agents.addAll(placement.clientOn());
    for (String a : agents) {
      try {
        m.put(a, self.clockOffset(a, CLOCK_ROUNDS));
      } catch (Exception e) {
        // an agent gone by the end keeps its first estimate; its runs already say it is missing
      }
    }
    return m;
  }

  /**
   * One run as measured, before the clocks after it are known.
   *
   * @param exclusion why the run says nothing of the target (the emitter was late, a client agent's host stalled), or null
   */
  record Measured(String target, Cell cell, int run, double latenessMs, Map<String, String> missing, ClusterClients.Outcome outcome,
      Exclusion exclusion) {
    boolean partial() {
      return !missing.isEmpty();
    }

    boolean excluded() {
      return exclusion != null;
    }

    String exclusionReason() {
      return exclusion == null ? null : exclusion.reason();
    }
  }

  /**
   * One run, announced; a run the guards excluded (the emitter late, a client agent's host stalled)
   * with every agent still there is measured once more, once, as on one host: both are kept.
   */
  private List<Measured> measureOnceMoreIfExcluded(Agent self, RemoteServers servers, String target, Cell cell, int run, HostPort at,
      Consumer<String> announce) throws Exception {
    List<Measured> out = new ArrayList<>();
    for (int attempt = 0; attempt < 2; attempt++) {
      Measured m = measure(self, servers, target, cell, run, at);
      out.add(m);
      announce.accept("cluster: " + line(m) + (m.excluded() && attempt == 0 && !m.partial() ? "; measured again" : ""));
      if (!m.excluded() || m.partial()) break;
    }
    return out;
  }

  /** One run: the cell's load split over the client agents at {@code target}, judged by the emitter's own audit. */
  private Measured measure(Agent self, RemoteServers servers, String target, Cell cell, int run, HostPort at) throws Exception {
    long startedNanos = System.nanoTime();
    long deadlineMs = (long) (ScenarioRunner.runSeconds(cell) * 2_000) + 10_000;
    ClusterClients.Outcome o = ClusterClients.run(self, placement.clientOn(), at, cell, scenario.requestHeaders().toSend(), deadlineMs)
        .await(deadlineMs + 5_000, TimeUnit.MILLISECONDS);
    double lateness = Double.NaN;
    Exclusion exclusion = null;
    Map<String, String> missing = new LinkedHashMap<>(o.missing());
    if (!o.noData()) {
      try {
        RemoteServers.Audit audit = servers.audit(placement.emitterOn(), o.merged().streamIds(), (System.nanoTime() - startedNanos) / 1_000_000);
        lateness = audit.latenessMaxNanos() / 1e6;
        if (audit.latenessMaxNanos() > scenario.guards().pacingToleranceNanos()) {
          exclusion = emitterLate(audit, placement.emitterOn(), scenario.guards().pacingToleranceNanos());
        }
      } catch (Exception e) {
        missing.put(placement.emitterOn(), "the emitter's audit did not come back: " + e.getMessage());
        exclusion = Exclusion.missing("the emitter's audit did not come back"); // a run the pacing guard cannot judge is not a finding
      }
      // each client agent judged its own reads against its own host's stalls
      if (exclusion == null && o.merged().stalls().excusedByHost()) exclusion = Exclusion.hostStall(o.merged().stalls().hostStall());
    }
    return new Measured(target, cell, run, lateness, missing, o, exclusion);
  }

  /**
   * The emitter on {@code agent} wrote a frame later than the tolerance: a host stall of that agent when its host
   * stood still at least half as long (as on one host), else late with what the agent's own loop ticks say held
   * the frame (its host, or the lab's own code), never the path's.
   */
  static Exclusion emitterLate(RemoteServers.Audit audit, String agent, long toleranceNanos) {
    Exclusion late = Exclusion.emitterLate(audit.latenessMaxNanos(), toleranceNanos, audit.held());
    if (!audit.lateInAHostStall()) return late;
    return Exclusion.hostStall(String.format("agent %s's host stalled %.1f ms during the run: %s", agent, audit.hostStallMaxNanos() / 1e6,
        late.reason()));
  }

  static String line(Measured m) {
    ClientShare.Counts c = m.outcome().merged();
    int asked = m.cell().client().requests();
    String figures = c == null ? "no data" : String.format("streams %d/%d ok, frames/read %.2f, %d frames in %d reads", c.streamsOk(),
        asked, c.framesPerRead(), c.frames(), c.reads());
    int lost = asked - (c == null ? 0 : c.streams());
    return m.target() + " " + m.cell().label() + " run " + (m.run() + 1) + ": " + figures + (m.excluded() ? " (excluded: " + m.exclusionReason() + ")" : "")
        + (m.partial() ? " PARTIAL: " + lost + " of " + asked + " streams lost with " + String.join(", ", m.missing().keySet()) + " "
            + m.missing() : "");
  }

  /** A client agent (or the emitter's) whose share did not come back because it left the lab; null when none did. */
  private String goneAgent(Agent self, Measured m) {
    if (!m.partial()) return null;
    List<String> present = self.agents();
    for (String a : m.missing().keySet()) if (!present.contains(a)) return a;
    if (!present.contains(placement.emitterOn())) return placement.emitterOn();
    return null;
  }

  /** The runs with their figures, one-way ones corrected by the agents' clock offsets. */
  private List<RunRow> corrected(List<Measured> runs, Map<String, AgentClock> clocks) {
    List<RunRow> out = new ArrayList<>();
    AgentClock e = clocks.get(placement.emitterOn());
    for (Measured m : runs) {
      List<Figures> per = new ArrayList<>();
      Histogram mergedShifted = new Histogram(3);
      long widest = 0;
      for (ClientShare.Counts c : m.outcome().perAgent().values()) {
        AgentClock x = clocks.get(c.agent());
        long delta = x == null || e == null ? 0 : x.offsetNs() - e.offsetNs();
        long bound = x == null || e == null ? Long.MAX_VALUE / 4 : c.agent().equals(placement.emitterOn()) ? 0 : x.boundNs() + e.boundNs();
        Histogram shifted = shift(c.emitToRecv(), delta);
        mergedShifted.add(shifted);
        widest = Math.max(widest, bound);
        per.add(figures(c, oneWay(shifted, bound)));
      }
      ClientShare.Counts merged = m.outcome().merged();
      out.add(new RunRow(m.target(), m.cell().index(), m.cell().label(), m.run(), m.exclusion(),
          m.outcome().merged() == null ? null : m.outcome().merged().stalls(), m.latenessMs(), m.missing(),
          m.cell().client().requests(),
          merged == null ? null : figures(merged, oneWay(mergedShifted, widest)), per));
    }
    return out;
  }

  /** {@code h} with {@code delta} taken from every value (a value that would go below zero counts at zero). */
  static Histogram shift(Histogram h, long delta) {
    Histogram out = new Histogram(3);
    for (HistogramIterationValue v : h.recordedValues()) {
      out.recordValueWithCount(Math.max(0, v.getValueIteratedTo() - delta), v.getCountAtValueIteratedTo());
    }
    return out;
  }

  static OneWay oneWay(Histogram corrected, long boundNs) {
    double bound = boundNs / 1e6;
    if (corrected.getTotalCount() == 0) return new OneWay(null, null, bound, "no frames were read");
    double p50 = corrected.getValueAtPercentile(50) / 1e6;
    if (boundNs > 0 && boundNs >= corrected.getValueAtPercentile(50)) {
      return new OneWay(null, null, bound, String.format("the clocks' uncertainty (+-%.3f ms) is not smaller than the p50 it would show"
          + " (%.3f ms)", bound, p50));
    }
    return new OneWay(p50, corrected.getValueAtPercentile(99) / 1e6, bound, null);
  }

  static Figures figures(ClientShare.Counts c, OneWay e2r) {
    return new Figures(c.agent(), c.streams(), c.streamsOk(), c.failed(), c.frames(), c.reads(), c.readsWithFrames(), c.framesPerRead(), c.damaged(),
        ms(c.ttft(), 50), ms(c.ttft(), 99), ms(c.gap(), 50), c.gap().getTotalCount() == 0 ? Double.NaN : c.gap().getMaxValue() / 1e6, e2r);
  }

  private static double ms(Histogram h, double percentile) {
    return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1e6;
  }

  private static String certifyVerdict(List<Measured> runs, Scenario.Guards g) {
    if (runs.isEmpty()) return "interrupted before any certification run";
    for (int i = 0; i < runs.size(); i++) {
      Measured m = runs.get(i);
      ClientShare.Counts merged = m.outcome().merged();
      int run = m.run() + 1;
      if (merged == null) return "certification run " + run + " has no data: " + m.missing();
      if (!m.missing().isEmpty()) return "certification run " + run + " is partial: " + m.missing();
      boolean measuredAgain = i + 1 < runs.size() && runs.get(i + 1).run() == m.run();
      if (m.excluded() && measuredAgain) continue;
      if (m.excluded() && m.exclusion().cause() == Exclusion.Cause.HOST_STALL) {
        return "an agent's host stalled in certification run " + run + ", measured once more: " + m.exclusionReason();
      }
      if (m.excluded()) return m.exclusionReason() + " in certification run " + run + ", measured once more";
      if (merged.failed() > 0) return merged.failed() + " stream(s) failed on the direct path in certification run " + run;
      if (merged.framesPerRead() > g.certifyMaxFramesPerRead()) {
        return String.format("the direct path read %.2f frames per read in certification run %d (ceiling %.2f)", merged.framesPerRead(),
            run, g.certifyMaxFramesPerRead());
      }
    }
    return null;
  }
}
