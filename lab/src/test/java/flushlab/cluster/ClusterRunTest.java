package flushlab.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import flushlab.Await;
import flushlab.FreePort;
import flushlab.HostStalls;
import flushlab.LabFixture;
import flushlab.client.BatchResult;
import flushlab.client.StreamResult;
import flushlab.core.Build;
import flushlab.core.HiccupMeter;
import flushlab.core.HostPort;
import flushlab.core.Json;
import flushlab.core.LabVertx;
import flushlab.emitter.LateFrame;
import flushlab.process.Executables;
import flushlab.report.Environment;
import flushlab.report.ResultsWriter;
import flushlab.report.RunReport;
import flushlab.report.page.ComparePage;
import flushlab.report.page.ResultsFolder;
import flushlab.run.AgentShare;
import flushlab.run.Exclusion;
import flushlab.run.OnAgents;
import flushlab.run.Outcome;
import flushlab.run.RunRecord;
import flushlab.run.ScenarioRunner;
import flushlab.run.TargetCellResult;
import flushlab.scenario.Scenario;
import flushlab.scenario.ScenarioLoader;
import flushlab.targets.Target;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scenario run on three agents (one JVM, loopback): the emitter on a, a relay on b, the clients
 * on b and c, this test the coordinator, through the one runner every run takes. The merged figures
 * are the exact sums of the agents' own, the relay's coalescing shows through, every agent's clock
 * offset is recorded with its bound, and the results folder is a run's like any other.
 */
class ClusterRunTest {
  private static final byte[] SECRET =
      "correct horse battery staple".getBytes(StandardCharsets.UTF_8);

  private static Agent agent(String name, int port, List<HostPort> join) throws Exception {
    return Agent.start(
        new ClusterSpec(
            "lab-one", SECRET, Build.version(), name, new HostPort("127.0.0.1", port), join),
        line -> {});
  }

  /**
   * One lab of three agents serves every test of this class, in turn, as a lab's agents serve one
   * run after another: an agent outlives its runs (a test that needs an agent to leave starts one
   * of its own). Each test used to start and stop its own three, 4 s of its 8-10.
   */
  private static Agent a;

  private static Agent b;
  private static Agent c;
  private static int pa;
  private static List<HostPort> joinA;

  @BeforeAll
  static void startAgents() throws Exception {
    pa = FreePort.forALaterServer(3);
    a = agent("a", pa, List.of());
    joinA = List.of(new HostPort("127.0.0.1", pa));
    b = agent("b", FreePort.forALaterServer(3), joinA);
    c = agent("c", FreePort.forALaterServer(3), joinA);
  }

  @AfterAll
  static void stopAgents() throws Exception {
    for (Agent x : new Agent[] {c, b, a}) {
      if (x != null) x.close();
    }
  }

  /**
   * {@code s} run as `flushlab run` runs a scenario with a cluster: section: the one runner,
   * measuring through the lab.
   */
  static Outcome runOnTheLab(
      Scenario s, byte[] secret, Consumer<String> announce, ScenarioRunner.RunHook hook)
      throws Exception {
    Vertx vertx = LabVertx.create(1);
    try {
      ScenarioRunner runner = new ScenarioRunner(s, vertx).onRemoteLab(ClusterLab.opener(secret));
      if (hook != null) runner.beforeRun(hook);
      return runner.run(announce);
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  private static Outcome runOnTheLab(Scenario s) throws Exception {
    return runOnTheLab(
        s, SECRET.clone(), line -> System.out.println("ClusterRunTest: " + line), null);
  }

  /**
   * The run of {@code target} a guard kept (an excluded one is measured once more, once, before
   * it).
   */
  static RunRecord kept(Outcome o, String target) {
    return o.results().stream()
        .filter(r -> r.target().equals(target))
        .flatMap(r -> r.runs().stream())
        .filter(r -> !r.excluded())
        .findFirst()
        .orElseThrow(() -> new AssertionError("no kept run of " + target));
  }

  /**
   * A scenario file of these lines in {@code dir}, run as a coordinator joining this class's lab
   * (at agent a).
   */
  private static Scenario onTheLab(Path dir, String name, String lines) throws Exception {
    Path file = dir.resolve(name + ".yaml");
    Files.writeString(
        file,
        lines
            + "cluster: {name: lab-one, at: \"127.0.0.1:%d\", join: [\"127.0.0.1:%d\"], lease: 3s}\n"
                .formatted(FreePort.forALaterServer(3), pa));
    return ScenarioLoader.load(file);
  }

  /**
   * The emitter's agent says how long its own host stood still over the run: a late emitter is then
   * the host's doing, not the lab's.
   */
  @Test
  void anEmitterLateWhileItsAgentsHostStalledIsAHostStallAndOtherwiseTheLabs() {
    Exclusion stalled =
        ClusterLab.emitterLate(
            new RemoteServers.Audit(4, 0, 30_000_000L, 0, 0, 20_000_000L), "a", 10_000_000L);
    assertThat(stalled.cause()).isEqualTo(Exclusion.Cause.HOST_STALL);
    assertThat(stalled.reason())
        .isEqualTo(
            "agent a's host stalled 20.0 ms during the run: emitter late by 30.000 ms (tolerance 10.000 ms)");
    Exclusion quiet =
        ClusterLab.emitterLate(
            new RemoteServers.Audit(4, 0, 30_000_000L, 0, 0, 14_000_000L), "a", 10_000_000L);
    assertThat(quiet.cause())
        .as("a stall under half the lateness explains none of it")
        .isEqualTo(Exclusion.Cause.EMITTER_LATE);
    // the agent judged its own frame: its loop waited for a core, so the host held it, and the
    // reason says so
    Exclusion held =
        ClusterLab.emitterLate(
            new RemoteServers.Audit(
                4,
                0,
                30_000_000L,
                0,
                0,
                14_000_000L,
                new LateFrame.Held(
                    " at 0.40 s into the stream; its loop stalled 29.0 ms (...)", true)),
            "a",
            10_000_000L);
    assertThat(held.cause()).isEqualTo(Exclusion.Cause.EMITTER_HELD_BY_HOST);
    assertThat(held.reason()).endsWith("at 0.40 s into the stream; its loop stalled 29.0 ms (...)");
  }

  @Test
  void aScenarioOnThreeAgentsMergesExactlyAndRecordsTheClocks(@TempDir Path dir) throws Exception {
    Scenario s =
        onTheLab(
            dir,
            "cluster",
            """
        name: on-agents
        emitter: {frames: 20, frame_size: 60B, interval: 20ms, on: a}
        client: {requests: 5, concurrency: 5, on: [b, c]}
        runs: 1
        guards: {pacing_tolerance: 10ms, certify: {runs: 1}}
        targets:
          - {name: direct, kind: direct}
          - {name: timer, kind: relay, shapers: ["timer=100ms"], on: b}
        """);
    Outcome o = runOnTheLab(s);

    HostStalls.skipIfStalled(o);
    assertThat(o.certified()).as(o.certification().verdict()).isTrue();
    // one certification run kept; one a guard excluded (the emitter late: it shares this JVM) was
    // measured once more
    List<RunRecord> certifiedBy =
        o.certification().runs().stream().filter(r -> !r.excluded()).toList();
    assertThat(certifiedBy).hasSize(1);
    assertThat(certifiedBy.get(0).agents())
        .as("each client agent's path certified")
        .extracting(AgentShare::agent)
        .containsExactly("b", "c");
    assertThat(o.partial()).isFalse();
    assertThat(o.stoppedEarly()).isNull();
    OnAgents where = o.onAgents();
    assertThat(where.lab()).isEqualTo("lab-one");
    assertThat(where.placement().get("timer")).startsWith("b (127.0.0.1:");
    assertThat(where.clocks())
        .extracting(OnAgents.AgentClock::agent)
        .containsExactly("a", "b", "c");
    for (OnAgents.AgentClock clock : where.clocks()) {
      // one JVM, one clock: the true offset is 0, and each estimate must hold it within its bound
      assertThat(Math.abs(clock.beforeMs()))
          .as("%s", clock)
          .isLessThanOrEqualTo(clock.boundBeforeMs());
      assertThat(Math.abs(clock.afterMs()))
          .as("%s", clock)
          .isLessThanOrEqualTo(clock.boundAfterMs());
      assertThat(clock.samples()).isEqualTo(2 * ClusterLab.CLOCK_ROUNDS);
      // one kernel: the offsets are exact (bound 0), so even a sub-millisecond one-way figure is
      // shown
      assertThat(clock.oneKernel()).as("%s", clock).isTrue();
    }
    // a run a guard excluded (a host stall of the agents, the emitter late) was measured once more:
    // the kept ones are judged
    assertThat(o.results()).extracting(TargetCellResult::target).containsExactly("direct", "timer");
    for (String target : List.of("direct", "timer")) {
      RunRecord r = kept(o, target);
      assertThat(r.agents()).extracting(AgentShare::agent).containsExactly("b", "c");
      assertThat(r.result().streamsOk()).isEqualTo(5);
      assertThat(r.agents())
          .extracting(AgentShare::streams)
          .containsExactly(3, 2); // 5 split over two, the first taking one more
      assertThat(r.result().frames())
          .isEqualTo(r.agents().stream().mapToLong(AgentShare::frames).sum())
          .isEqualTo(5 * 20);
      assertThat(r.result().reads())
          .isEqualTo(r.agents().stream().mapToLong(AgentShare::reads).sum());
      assertThat(r.result().readsWithFrames())
          .isEqualTo(r.agents().stream().mapToLong(AgentShare::readsWithFrames).sum());
      assertThat(r.result().lostFrames() + r.result().corruptFrames()).isZero();
    }
    RunRecord direct = kept(o, "direct");
    RunRecord timer = kept(o, "timer");
    assertThat(direct.result().framesPerRead()).as("the direct path").isLessThan(1.2);
    assertThat(timer.result().framesPerRead())
        .as("a 100 ms timer over frames 20 ms apart")
        .isGreaterThan(3.0);
    for (AgentShare held : timer.agents()) {
      assertThat(held.withheld())
          .as("held frames wait tens of ms, far over the clocks' bound")
          .isNull();
      assertThat(held.emitToRecvP50Ms()).isGreaterThan(10.0);
    }
    for (AgentShare fast : direct.agents()) {
      assertThat(fast.withheld()).isNull();
      assertThat(fast.clockBoundMs()).isZero();
      assertThat(fast.emitToRecvP50Ms()).isPositive();
    }

    // the results folder of any run: results.json, results.csv, summary.md, report.html, and
    // compare against a one-host run
    ResultsWriter.Written w =
        ResultsWriter.write(
            dir.resolve("results"),
            RunReport.of(s, o, "flushlab run cluster.yaml", Environment.capture(true)));
    for (String f : List.of("results.json", "results.csv", "summary.md", "report.html"))
      assertThat(w.folder().resolve(f)).exists();
    JsonNode json = Json.MAPPER.readTree(w.folder().resolve("results.json").toFile());
    assertThat(json.path("on_agents").path("clocks").size()).isEqualTo(3);
    assertThat(json.path("cells").get(1).path("runs").get(0).path("agents").size()).isEqualTo(2);
    assertThat(Files.readString(w.folder().resolve("results.csv"))).contains("timer");
    String md = Files.readString(w.folder().resolve("summary.md"));
    assertThat(md)
        .contains("## On lab 'lab-one'")
        .contains("| timer | base | 1 | b | 3/3 | 60 |")
        .contains("| timer | base | 1 | c | 2/2 | 40 |");
    Path here = dir.resolve("here.yaml");
    Files.writeString(
        here,
        """
        name: on-agents
        emitter: {frames: 20, frame_size: 60B, interval: 20ms}
        client: {requests: 5, concurrency: 5}
        runs: 1
        guards: {pacing_tolerance: 10ms, certify: {runs: 1}}
        targets:
          - {name: direct, kind: direct}
          - {name: timer, kind: relay, shapers: ["timer=100ms"]}
        """);
    Scenario oneHost = ScenarioLoader.load(here);
    Vertx vertx = LabVertx.create(1);
    Outcome local;
    try {
      local =
          new ScenarioRunner(oneHost, vertx)
              .run(line -> System.out.println("ClusterRunTest: one host: " + line));
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
    HostStalls.skipIfStalled(local);
    ResultsWriter.Written l =
        ResultsWriter.write(
            dir.resolve("results-here"),
            RunReport.of(oneHost, local, "flushlab run here.yaml", Environment.capture(true)));
    List<ComparePage.Difference> diffs =
        ComparePage.differences(ResultsFolder.read(l.folder()), ResultsFolder.read(w.folder()));
    System.out.println("ClusterRunTest: one host against the agents: " + diffs);
    assertThat(diffs)
        .as("every cell and target compared")
        .extracting(ComparePage.Difference::target)
        .contains("direct", "timer");
    assertThat(
            ComparePage.render(
                "here", ResultsFolder.read(l.folder()), "agents", ResultsFolder.read(w.folder())))
        .contains("timer");
  }

  /**
   * Four streams of 20 frames 20 ms apart from the client agents b and c, the emitter on a; the
   * pacing guard wider than the injected stall (150 ms): the emitter shares this JVM, whose meter
   * the injection holds, and a suite run of 2026-12-03 saw it 56 ms late inside that stall, which
   * excluded the run for the emitter before the client agents' meters were asked.
   */
  private static Scenario stallingAgentsScenario(Path dir) throws Exception {
    return onTheLab(
        dir,
        "stall",
        """
        name: on-stalling-agents
        emitter: {frames: 20, frame_size: 60B, interval: 20ms, on: a}
        client: {requests: 4, concurrency: 4, on: [b, c]}
        runs: 1
        guards: {pacing_tolerance: 150ms, certify: {runs: 1}}
        targets:
          - {name: direct, kind: direct}
        """);
  }

  /**
   * The lab on agents (`flushlab run` and `flushlab map` with a cluster) judges each run by each
   * client agent's own hiccup meter: each client agent judges the streams it ran against it, and a
   * run whose merged reads all fell in the agents' host stalls is excluded as a host stall (which
   * the runner measures once more), not read as the target's coalescing. The client agents' host
   * stalls 100 ms in every 250 while the run is measured, so the stalls meet its reads however late
   * the run starts (a single stall armed 100 ms before the call missed a run a CPU hog had slowed,
   * and the run was kept); the next run, after the last stall has ended, is kept.
   */
  @Test
  void theMapsLabOnAgentsExcludesARunTheClientAgentsHostStalledThrough(@TempDir Path dir)
      throws Exception {
    Scenario s = stallingAgentsScenario(dir);
    Target direct = new Target.Direct("direct", s.path());
    try (ClusterLab lab =
        ClusterLab.open(s, SECRET.clone(), line -> System.out.println("ClusterRunTest: " + line))) {
      AtomicLong lastStallEnds = new AtomicLong(System.nanoTime());
      long stalling =
          b.vertx()
              .setPeriodic(
                  0,
                  250,
                  t -> {
                    lastStallEnds.set(System.nanoTime() + 100_000_000L);
                    HiccupMeter.get().injectHostStall(b.vertx(), 100_000_000L);
                    HiccupMeter.get().injectHostStall(c.vertx(), 100_000_000L);
                  });
      RunRecord stalled;
      try {
        stalled =
            lab.run(direct, s.cells().get(0), 0, 0, List.of(), s.guards().pacingToleranceNanos());
      } finally {
        b.vertx().cancelTimer(stalling);
      }
      // the meter's thread is held with the loops: once it has woken past the last stall's end, no
      // stall is left (a
      // tick already under way when the timer was cancelled may arm one more: wait until the last
      // end stops moving)
      for (long seen = -1; seen != lastStallEnds.get(); ) {
        seen = lastStallEnds.get();
        HiccupMeter.get().awaitWatcherPast(seen, 2_000_000_000L);
      }
      String read =
          String.format(
              "%d frames in %d reads, frames/read %.2f",
              stalled.result().frames(),
              stalled.result().reads(),
              stalled.result().framesPerRead());
      System.out.println(
          "ClusterRunTest: map run under a stall (" + read + "): " + stalled.exclusionReason());
      assertThat(stalled.excludedForHostStall())
          .as("excluded for the agents' host stall (%s): %s", read, stalled.exclusionReason())
          .isTrue();
      // the emitter's agent really stalled first (s110: its loop waited 180 ms for a core), so the
      // run was excluded for its
      // late frame before the client's reads were judged: a host stall, and nothing said of what
      // this test is about
      if (stalled.exclusionReason().startsWith("agent ")
          && stalled.exclusionReason().contains("emitter late")) {
        HostStalls.skip(
            "host stall, not a result: the emitter's agent stalled before the client's reads were judged: "
                + stalled.exclusionReason());
      }
      assertThat(stalled.exclusionReason())
          .startsWith("the client agent ")
          .contains("'s host stalled")
          .contains("read together");
      // the agents' figures reach the run's record, where a replay that differed asks whether the
      // host stalled (they were dropped: a CI run's map on agents was refused for a late first
      // frame that no one asked a stall of)
      assertThat(stalled.stalls()).as("the client agents' stalls in the run's record").isNotNull();
      assertThat(stalled.stalls().host().maxMs())
          .as(stalled.stalls().host().describe())
          .isGreaterThan(50);
      RunRecord next =
          lab.run(direct, s.cells().get(0), 0, 1, List.of(), s.guards().pacingToleranceNanos());
      // the injected stalls are over: a stall of this host now is a real one (a CPU hog spoiled it
      // so in one suite run)
      if (next.excludedForHostStall())
        HostStalls.skip(
            "host stall, not a result: the run after the injected stalls: "
                + next.exclusionReason());
      assertThat(next.excluded())
          .as("the next run, unstalled: %s", next.exclusionReason())
          .isFalse();
      assertThat(next.result().frames()).isEqualTo(4 * 20);
    }
  }

  /**
   * A real proxy placed on an agent: the coordinator sends the template's text, the agent starts
   * nginx from it in front of the emitter on another agent, and stops it when the run ends.
   */
  @Test
  void aProxyFromATemplateRunsOnTheAgentItIsPlacedOn(@TempDir Path dir) throws Exception {
    String nginx = Executables.locate("nginx");
    Assumptions.assumeTrue(
        nginx != null && Files.isExecutable(Path.of(nginx)),
        "nginx is not installed (.ci/run installs it)");
    Files.copy(Path.of("scenarios/proxies/nginx-buffering-off.conf"), dir.resolve("nginx.conf"));
    Scenario scenario =
        onTheLab(
            dir,
            "proxy",
            """
        name: proxy-on-agent
        emitter: {frames: 20, frame_size: 60B, interval: 20ms, on: a}
        client: {requests: 2, concurrency: 2, on: [a]}
        runs: 1
        guards: {pacing_tolerance: 10ms, certify: {runs: 1}}
        targets:
          - {name: nginx, kind: process, proxy: nginx, config: nginx.conf, on: c}
        """);
    Outcome o = runOnTheLab(scenario);
    HostStalls.skipIfStalled(o);
    assertThat(o.certified()).as(o.certification().verdict()).isTrue();
    String placed = o.onAgents().placement().get("nginx");
    assertThat(placed).startsWith("c (127.0.0.1:");
    RunRecord r = kept(o, "nginx");
    assertThat(r.result().streamsOk()).isEqualTo(2);
    assertThat(r.result().frames()).isEqualTo(2 * 20);
    assertThat(r.result().framesPerRead()).as("nginx with proxy_buffering off").isLessThan(1.3);
    int port = Integer.parseInt(placed.replaceAll(".*:(\\d+)\\)$", "$1"));
    Await.until("the agent stopped nginx when the run ended", 15_000, () -> !connects(port));
  }

  /**
   * A client agent that leaves mid-run: its run is partial with its lost streams counted and the
   * agent named, its clock after the run is "not measured" (never its clock before, shown again),
   * and no later run is sent to it.
   */
  @Test
  void anAgentThatLeavesMidRunIsNamedWithItsLostStreamsAndNoLaterRunGoesToIt(@TempDir Path dir)
      throws Exception {
    Agent d = agent("d", FreePort.forALaterServer(3), joinA); // this test's own: it leaves
    Scenario scenario =
        onTheLab(
            dir,
            "leaving",
            """
        name: leaving
        emitter: {frames: 40, frame_size: 60B, interval: 50ms, on: a}
        client: {requests: 4, concurrency: 4, on: [b, d]}
        runs: 3
        guards: {pacing_tolerance: 25ms, certify: {runs: 1}}
        targets:
          - {name: direct, kind: direct}
        """);
    Thread[] closing = {null};
    Outcome o;
    try {
      o =
          runOnTheLab(
              scenario,
              SECRET.clone(),
              line -> System.out.println("ClusterRunTest: " + line),
              (target, cell, run, loop) -> {
                if (closing[0] == null && cell >= 0 && run == 0) {
                  closing[0] =
                      new Thread(
                          () -> {
                            try {
                              d.close(); // leaves the lab while its share of run 1 is asked of
                              // it or under way
                            } catch (Exception e) {
                              throw new IllegalStateException(e);
                            }
                          });
                  closing[0].start();
                }
              });
    } finally {
      if (closing[0] == null)
        d.close(); // the run ended before it measured: d leaves the shared lab all the same
    }
    HostStalls.skipIfStalled(o);
    assertThat(o.certified()).as(o.certification().verdict()).isTrue();
    closing[0].join(60_000);

    assertThat(o.partial()).isTrue();
    assertThat(o.stoppedEarly()).isEqualTo("agent d has left the lab");
    List<RunRecord> runs = o.results().get(0).runs();
    assertThat(runs)
        .as("runs 2 and 3 were not sent to a lab without d, nor run 1 again")
        .hasSize(1);
    RunRecord r = runs.get(0);
    assertThat(r.exclusion().cause()).isEqualTo(Exclusion.Cause.MISSING_SHARE);
    assertThat(r.exclusionReason()).contains("d (");
    assertThat(r.agents()).extracting(AgentShare::agent).containsExactly("b");
    assertThat(r.result().streams()).as("b's two streams came back, d's two did not").isEqualTo(2);
    OnAgents.AgentClock dClock =
        o.onAgents().clocks().stream().filter(k -> k.agent().equals("d")).findFirst().orElseThrow();
    assertThat(dClock.afterMs()).as("%s", dClock).isNull();
    assertThat(o.onAgents().clocks().stream().filter(k -> !k.agent().equals("d")))
        .allMatch(k -> k.afterMs() != null);
  }

  /**
   * Each client agent sends back every stream it read, so a share is bounded: 2001 streams over two
   * agents (1001 for b) are refused before anything starts, saying how to fit them; 2000 are not.
   */
  @Test
  void aShareOfMoreThanAThousandWholeStreamsIsRefusedBeforeAnythingStarts(@TempDir Path dir)
      throws Exception {
    String lines =
        """
        name: large
        emitter: {frames: 5, interval: 20ms, on: a}
        client: {requests: %d, concurrency: 100, on: [b, c]}
        targets:
          - {name: direct, kind: direct}
        """;
    Scenario tooLarge = onTheLab(dir, "large", lines.formatted(2001));
    assertThatThrownBy(() -> ClusterRequirements.wholeShares(tooLarge, tooLarge.cluster()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("asks 1001 streams of agent b")
        .hasMessageContaining("at most 1000")
        .hasMessageContaining("name more agents in client.on, or ask fewer client.requests");
    Scenario fits = onTheLab(dir, "fits", lines.formatted(2000));
    ClusterRequirements.wholeShares(fits, fits.cluster());
  }

  /**
   * A scenario that names an agent the lab does not have stops before anything starts, naming it
   * and the lab's members (`flushlab run` prints it and exits 1). An external target on an agent is
   * refused sooner, where the scenario is read (ClusterReader).
   */
  @Test
  void anAbsentAgentIsRefusedByNameBeforeAnythingStarts(@TempDir Path dir) throws Exception {
    Scenario absent =
        onTheLab(
            dir,
            "absent",
            """
            name: absent
            emitter: {frames: 5, interval: 20ms, on: a}
            client: {requests: 1, concurrency: 1, on: [z]}
            targets:
              - {name: direct, kind: direct}
            """);
    assertThatThrownBy(() -> runOnTheLab(absent, SECRET.clone(), line -> {}, null))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("agent(s) z are not in lab 'lab-one'")
        .hasMessageContaining("a, b, c");
  }

  /**
   * An emitter an agent runs for a coordinator that stops renewing its lease (killed, cut off) is
   * stopped by the agent.
   */
  @Test
  void anAgentStopsTheServersOfARunWhoseLeaseRanOut() throws Exception {
    // a lease that outlasts the answer's way back on a busy host: at 1 s, s7 of 2026-12-04 found
    // the emitter stopped already
    long leaseMs = 2_500;
    long asked = System.nanoTime();
    JsonObject answer =
        b.vertx()
            .eventBus()
            .<JsonObject>request(
                HostedWork.address("a", "emitter"),
                new JsonObject().put("run", "run-orphan").put("lease_ms", leaseMs))
            .await(10, TimeUnit.SECONDS)
            .body();
    int port = answer.getInteger("port");
    assertThat(connects(port))
        .as("the emitter is up %.2f s after it was asked for", (System.nanoTime() - asked) / 1e9)
        .isTrue();
    Await.until("the agent stopped the orphaned emitter", 10_000, () -> !connects(port));
    assertThat((System.nanoTime() - asked) / 1e9)
        .as("stopped about when the lease ran out, not long after")
        .isLessThan(leaseMs / 1e3 + 4);
  }

  /**
   * A client agent's clock ahead of the emitter's by delta: every one-way time it measured is delta
   * too long, and is moved back.
   */
  @Test
  void aStreamsOneWayTimesAreMovedByTheClocksDifferenceAndNothingElse() throws Exception {
    try (LabFixture lab = new LabFixture()) {
      BatchResult r = lab.measure(lab.sseUrl("frames=20&size=60&interval=5ms"));
      StreamResult s = r.streamResults().get(0);
      StreamResult moved = s.withOneWayTimesLess(1_000_000L);
      for (int i = 0; i < s.timing().emitToRecvNanos().size(); i++) {
        assertThat(moved.timing().emitToRecvNanos().get(i))
            .isEqualTo(s.timing().emitToRecvNanos().get(i) - 1_000_000L);
      }
      for (int i = 0; i < s.releases().waitNanos().size(); i++) {
        assertThat(moved.releases().waitNanos().get(i))
            .isEqualTo(s.releases().waitNanos().get(i) - 1_000_000L);
      }
      assertThat(moved.timing().gapNanos().toArray()).isEqualTo(s.timing().gapNanos().toArray());
      assertThat(moved.timing().ttftNanos()).isEqualTo(s.timing().ttftNanos());
      assertThat(moved.reads()).isEqualTo(s.reads());
    }
  }

  private static boolean connects(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      return true;
    } catch (ConnectException e) {
      return false;
    } catch (IOException e) {
      return false;
    }
  }
}
