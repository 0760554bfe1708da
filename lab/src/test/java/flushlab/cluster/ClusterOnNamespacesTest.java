package flushlab.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.ForkedLab;
import flushlab.FreePort;
import flushlab.HostStalls;
import flushlab.NamespaceLan;
import flushlab.Seeds;
import flushlab.core.HostPort;
import flushlab.core.LabClock;
import flushlab.core.LabVertx;
import flushlab.map.FlushTrigger;
import flushlab.map.TriggerKind;
import flushlab.netpath.NetworkPath;
import flushlab.netpath.VethLink;
import flushlab.relay.shaper.ShaperRegistry;
import flushlab.run.AgentShare;
import flushlab.run.Exclusion;
import flushlab.run.OnAgents;
import flushlab.run.Outcome;
import flushlab.run.RunRecord;
import flushlab.run.ScenarioRunner;
import flushlab.run.TargetCellResult;
import flushlab.scenario.ClusterPlacement;
import flushlab.scenario.MapScenario;
import flushlab.scenario.Scenario;
import flushlab.scenario.ScenarioLoader;
import flushlab.stream.Endpoint;
import flushlab.targets.Target;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three agents, each a JVM in a network namespace of its own (a LAN of veth pairs on a bridge),
 * this test the coordinator in its own namespace: the emitter on a, a relay on b, the clients on b
 * and c. The merged figures equal the sums of the agents' own and the clocks are recorded with
 * their bounds; `flushlab map` names a hidden timer of a relay placed on c through the agents; then
 * client agent c is killed mid-run, and the run ends partial within its bound with b's data kept
 * and c named; no process or namespace is left.
 */
class ClusterOnNamespacesTest {
  private static final String SECRET = "correct horse battery staple";

  @Test
  void threeAgentsInNamespacesMergeExactlyAndAKilledClientAgentMakesTheRunPartial(@TempDir Path dir)
      throws Exception {
    String why = VethLink.unavailableReason();
    if (why != null) System.out.println("SKIPPED (ClusterOnNamespacesTest): " + why);
    Assumptions.assumeTrue(why == null, why);
    List<ForkedLab> agents = new ArrayList<>();
    List<String> made;
    try (NamespaceLan lan = NamespaceLan.open(3)) {
      made = lan.namespaces();
      try {
        String[] names = {"a", "b", "c"};
        for (int i = 0; i < 3; i++) {
          List<String> args =
              new ArrayList<>(
                  List.of(
                      "agent",
                      "--name",
                      names[i],
                      "--cluster-name",
                      "lab-ns",
                      "--cluster-host",
                      lan.address(i) + ":5800"));
          if (i > 0) args.addAll(List.of("--join", lan.address(0) + ":5800"));
          agents.add(
              ForkedLab.startInside(
                  lan.inside(i),
                  dir,
                  Map.of("FLUSHLAB_CLUSTER_SECRET", SECRET),
                  List.of("-XX:TieredStopAtLevel=1", "-Xmx256m", "-XX:+UseSerialGC"),
                  args.toArray(String[]::new)));
          if (i == 0) agents.get(0).awaitLine("flushlab agent a in lab 'lab-ns'", 90_000);
        }
        agents.get(1).awaitLine("flushlab agent b in lab 'lab-ns'", 90_000);
        agents.get(2).awaitLine("flushlab agent c in lab 'lab-ns'", 90_000);

        Scenario s =
            scenario(
                dir,
                "placed",
                lan,
                "frames: 20, frame_size: 60B, interval: 50ms",
                1,
                "  - {name: direct, kind: direct}\n  - {name: timer, kind: relay, shapers: [\"timer=200ms\"], on: b}\n");
        Outcome o =
            ClusterRunTest.runOnTheLab(
                s,
                SECRET.getBytes(StandardCharsets.UTF_8),
                line -> System.out.println("ClusterOnNamespacesTest: " + line),
                null);
        HostStalls.skipIfStalled(o);
        assertThat(o.certified()).as(o.certification().verdict()).isTrue();
        assertThat(o.partial()).isFalse();
        assertThat(o.onAgents().placement().get("emitter"))
            .startsWith("a (" + lan.address(0) + ":");
        assertThat(o.onAgents().placement().get("timer")).startsWith("b (" + lan.address(1) + ":");
        for (OnAgents.AgentClock clock : o.onAgents().clocks()) {
          System.out.println("ClusterOnNamespacesTest: clock " + clock);
          // separate JVMs in separate namespaces, one kernel: their lab clocks count from one
          // monotonic clock, so the
          // offset is their anchors' difference, exact, and the round trips agreed with it (else
          // the basis would be theirs)
          assertThat(clock.oneKernel()).as("%s", clock).isTrue();
          assertThat(clock.boundBeforeMs()).isZero();
          assertThat(clock.afterMs()).isEqualTo(clock.beforeMs());
          // each JVM anchors its lab clock on the wall clock when it starts: two anchors agree to
          // well under a millisecond
          // unless the wall clock was stepped between the starts (a full suite once saw 3.8 s),
          // which this process's own
          // anchor, older than the agents', sees as its wall-clock drift since
          long stepped =
              Math.abs(
                  LabClock.epochNanos()
                      - Instant.now().getEpochSecond() * 1_000_000_000L
                      - Instant.now().getNano());
          assertThat(Math.abs(clock.beforeMs()))
              .as(
                  "two anchors on one wall clock (this process's wall clock moved %d ns since "
                      + "it anchored)",
                  stepped)
              .isLessThan(1.0 + stepped / 1e6);
        }
        for (TargetCellResult t : o.results()) {
          for (RunRecord r : t.runs()) {
            assertThat(r.agents()).extracting(AgentShare::agent).containsExactly("b", "c");
            assertThat(r.result().frames())
                .isEqualTo(r.agents().stream().mapToLong(AgentShare::frames).sum())
                .isEqualTo(4 * 20);
            assertThat(r.result().reads())
                .isEqualTo(r.agents().stream().mapToLong(AgentShare::reads).sum());
            assertThat(r.result().streamsOk())
                .isEqualTo(r.agents().stream().mapToInt(AgentShare::streamsOk).sum())
                .isEqualTo(4);
            assertThat(r.result().lostFrames() + r.result().corruptFrames()).isZero();
          }
        }
        // by target, the kept run: a run a guard excluded comes before the one measured once more
        // in its place
        assertThat(ClusterRunTest.kept(o, "direct").result().framesPerRead())
            .as("direct, across the LAN")
            .isLessThan(1.2);
        assertThat(ClusterRunTest.kept(o, "timer").result().framesPerRead())
            .as("a 200 ms timer on agent b")
            .isGreaterThan(3.0);

        // flushlab map on the agents: a relay with a hidden timer on agent c, the emitter on a, the
        // client on b
        // the seed from -Dflushlab.seed when given, to replay a run (as MapCommandTest's). Hidden
        // timers
        // of 40-310 ms. Its 4096 B cell's releases grow with the timer (about 2 KB per ms of hold),
        // and large ones reached the client across the namespaces in parts 1-4 ms apart (TCP's
        // window
        // on a fresh connection is smaller than the release, and the relay's loop waits its turn to
        // send the rest), which the map read as several releases and answered inconclusive: from
        // about 330 KB (timers of 173 ms and up) one class at a time, 320 KB (155 ms) with three at
        // once, so this test drew 40-70 ms. The meter now reads such parts as one release
        // (ReleaseMeter.RELEASE_PART_GAP_NANOS), and the range covers the 307 ms of issue 35 (302
        // and
        // 306 ms were answered so, run alone; 306 ms once without the rule too: not every run
        // splits).
        long seed = Seeds.seed("ClusterOnNamespacesTest");
        int timerMs = 40 + new Random(seed).nextInt(271);
        System.out.println(
            "ClusterOnNamespacesTest: seed " + seed + ", hidden timer " + timerMs + " ms");
        Target relay =
            new Target.Relay(
                "relay",
                List.of(ShaperRegistry.parse("timer=" + timerMs + "ms")),
                false,
                NetworkPath.LOOPBACK);
        Scenario map =
            MapScenario.of(
                    relay,
                    Endpoint.SSE,
                    HostPort.parse("-", "127.0.0.1:0", true),
                    "flushlab map (test)")
                .withCluster(
                    new ClusterPlacement(
                        "lab-ns",
                        new HostPort(lan.rootAddress(), FreePort.forALaterServer(3)),
                        List.of(new HostPort(lan.address(0), 5800)),
                        null,
                        5_000_000_000L,
                        "a",
                        List.of("b"),
                        Map.of("relay", "c")));
        Vertx vertx = LabVertx.create(1);
        try {
          Outcome m =
              new ScenarioRunner(map, vertx)
                  .onRemoteLab(ClusterLab.opener(SECRET.getBytes(StandardCharsets.UTF_8)))
                  .map(line -> System.out.println("ClusterOnNamespacesTest: " + line), 60);
          HostStalls.skipIfStalled(m);
          FlushTrigger t = m.triggers().get("relay");
          assertThat(t.kind()).as(t.verdict() + " / " + t.evidence()).isEqualTo(TriggerKind.TIMER);
          assertThat(t.timerMs())
              .as("timer %d ms: %s", timerMs, t.verdict())
              .isBetween(timerMs * 0.95, timerMs * 1.05);
        } finally {
          vertx.close().await(10, TimeUnit.SECONDS);
        }

        // client agent c killed (SIGKILL) once the run is under way
        Scenario longer =
            scenario(
                dir,
                "killed",
                lan,
                "frames: 60, frame_size: 60B, interval: 50ms",
                1,
                "  - {name: direct, kind: direct}\n");
        CompletableFuture<Void> measuring = new CompletableFuture<>();
        CompletableFuture<Outcome> running =
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return ClusterRunTest.runOnTheLab(
                        longer,
                        SECRET.getBytes(StandardCharsets.UTF_8),
                        line -> System.out.println("ClusterOnNamespacesTest: " + line),
                        (target, cell, run, loop) -> {
                          if (cell >= 0) measuring.complete(null);
                        });
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                });
        // the run measures, or ends without measuring: a certification this host stalled through
        // twice (s42 waited
        // 120 s here for a run that had ended "not certified" at once)
        CompletableFuture.anyOf(measuring, running).get(120, TimeUnit.SECONDS);
        if (!measuring.isDone()) {
          Outcome early = running.get();
          HostStalls.skipIfStalled(early);
          throw new AssertionError(
              "the run ended before it measured: " + early.certification().verdict());
        }
        long killed = System.nanoTime();
        agents.get(2).process().destroyForcibly();
        Outcome k = running.get(120, TimeUnit.SECONDS);
        double seconds = (System.nanoTime() - killed) / 1e9;
        // a share's deadline, a second, the audit's timeout (a run that lost a share is not
        // measured again)
        double bound = longer.cells().get(0).runSeconds() * 2 + 10 + 1 + 5;
        System.out.printf(
            "ClusterOnNamespacesTest: the run ended %.1f s after agent c was killed (bound %.1f s)%n",
            seconds, bound);
        assertThat(seconds).isLessThan(bound);
        assertThat(k.partial()).isTrue();
        RunRecord row = k.results().get(0).runs().get(0);
        assertThat(row.exclusion().cause()).isEqualTo(Exclusion.Cause.MISSING_SHARE);
        assertThat(row.exclusionReason()).contains("c (");
        assertThat(row.agents()).extracting(AgentShare::agent).containsExactly("b");
        assertThat(row.result().streamsOk()).isEqualTo(2);
        assertThat(row.result().frames()).isEqualTo(2 * 60);
      } finally {
        for (ForkedLab a : agents) a.close();
      }
    }
    for (ForkedLab a : agents) {
      assertThat(a.process().waitFor(10, TimeUnit.SECONDS)).as("agent process ended").isTrue();
    }
    String listed = NamespaceLan.listed();
    for (String ns : made) assertThat(listed).as("namespaces left").doesNotContain(ns);
  }

  private static Scenario scenario(
      Path dir, String name, NamespaceLan lan, String emitter, int runs, String targets)
      throws Exception {
    Path file = dir.resolve(name + ".yaml");
    Files.writeString(
        file,
        "name: "
            + name
            + "\n"
            + "emitter: {"
            + emitter
            + ", on: a}\n"
            + "client: {requests: 4, concurrency: 4, on: [b, c]}\n"
            + "runs: "
            + runs
            + "\n"
            + "guards: {pacing_tolerance: 20ms, certify: {runs: 1}}\n"
            + "targets:\n"
            + targets
            + "cluster: {name: lab-ns, at: \""
            + lan.rootAddress()
            + ":"
            + FreePort.forALaterServer(3)
            + "\", join: [\""
            + lan.address(0)
            + ":5800\"], lease: 5s}\n");
    return ScenarioLoader.load(file);
  }
}
