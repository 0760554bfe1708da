package flushlab.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flushlab.Await;
import flushlab.FreePort;
import flushlab.LabFixture;
import flushlab.client.BatchResult;
import flushlab.client.StreamResult;
import flushlab.core.HostPort;
import flushlab.emitter.Emitter;
import flushlab.emitter.EmitterOptions;
import flushlab.http.Header;
import flushlab.scenario.Cell;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Agents on loopback: one starts the lab's cluster, an agent of another lab (another cluster name,
 * another secret, another version) is refused by the member with the reason, and one of the same
 * lab joins it and reaches it over the clustered event bus.
 */
class AgentTest {
  private static final byte[] SECRET =
      "correct horse battery staple".getBytes(StandardCharsets.UTF_8);

  /**
   * A port P with P, P+1 and P+2 free (the handshake, Hazelcast, the event bus), below the
   * ephemeral range.
   */
  private static int threeFreePorts() throws IOException {
    return FreePort.forALaterServer(3);
  }

  /** A cell of {@code frames} SSE frames of 60 B, {@code interval} apart. */
  static Cell cell(String frames, String interval) {
    return Cell.fromSettings(Map.of("frames", frames, "frame_size", "60B", "interval", interval));
  }

  private static ClusterSpec spec(
      String lab, byte[] secret, String version, String agent, int port, List<HostPort> join) {
    return new ClusterSpec(lab, secret, version, agent, new HostPort("127.0.0.1", port), join);
  }

  @Test
  void aMemberOfAnotherLabIsRefusedWithTheReasonAndOneOfTheSameLabJoins() throws Exception {
    int pa = threeFreePorts();
    try (Agent a = Agent.start(spec("lab-one", SECRET, "1.0", "a", pa, List.of()), line -> {})) {
      assertThat(a.members()).isEqualTo(1);
      List<HostPort> joinA = List.of(new HostPort("127.0.0.1", pa));
      int pb = threeFreePorts();

      assertThatThrownBy(
              () -> Agent.start(spec("lab-two", SECRET, "1.0", "b", pb, joinA), line -> {}))
          .isInstanceOf(Agent.JoinFailure.class)
          .hasMessageContaining("is in cluster 'lab-one', not 'lab-two'");
      assertThatThrownBy(
              () ->
                  Agent.start(
                      spec(
                          "lab-one",
                          "another secret, 12+".getBytes(StandardCharsets.UTF_8),
                          "1.0",
                          "b",
                          pb,
                          joinA),
                      line -> {}))
          .isInstanceOf(Agent.JoinFailure.class)
          .hasMessageContaining("does not share this cluster's secret");
      assertThatThrownBy(
              () -> Agent.start(spec("lab-one", SECRET, "1.1", "b", pb, joinA), line -> {}))
          .isInstanceOf(Agent.JoinFailure.class)
          .hasMessageContaining("runs flushlab 1.0, this agent 1.1");
      assertThat(a.members()).as("no refused agent joined").isEqualTo(1);

      try (Agent b = Agent.start(spec("lab-one", SECRET, "1.0", "b", pb, joinA), line -> {})) {
        assertThat(b.members()).isEqualTo(2);
        assertThat(a.members()).isEqualTo(2);
        JsonObject answer = b.ping("a").await(10, TimeUnit.SECONDS);
        assertThat(answer.getString("agent")).isEqualTo("a");
        assertThat(answer.getString("version")).isEqualTo("1.0");
        // one JVM, one clock: the true offset is 0, and the estimate must hold it within its bound
        ClockOffset offset = b.clockOffset("a", 20);
        assertThat(offset.samples()).isEqualTo(20);
        assertThat(Math.abs(offset.offsetNanos()))
            .as("offset %s", offset)
            .isLessThanOrEqualTo(offset.boundNanos());
        assertThat(offset.basis())
            .as("one JVM, one kernel: the round trips agreed with the shared clock")
            .isEqualTo(ClockOffset.Basis.SHARED_MONOTONIC);
      }
    }
  }

  /** {@code cell} with {@code n} requests, all at once. */
  private static Cell share(Cell cell, int n) {
    return cell.withClient(cell.client().withRequests(n, n));
  }

  /**
   * A coordinator splits a client load over two agents: each runs its share and answers with every
   * stream it read, and the merge is their exact sum. A share past its deadline is stopped by the
   * agent that runs it, its connection closed.
   */
  @Test
  void sharesOfAClientLoadRunOnTwoAgentsAndMergeExactlyAndAShareStopsAtItsDeadline()
      throws Exception {
    try (LabFixture lab = new LabFixture()) {
      Emitter emitter = lab.emitter;
      HostPort at = new HostPort("127.0.0.1", emitter.port());
      Cell cell = cell("20", "5ms");
      int pa = threeFreePorts();
      try (Agent a = Agent.start(spec("lab-one", SECRET, "1.0", "a", pa, List.of()), line -> {})) {
        int pb = threeFreePorts();
        try (Agent b =
            Agent.start(
                spec("lab-one", SECRET, "1.0", "b", pb, List.of(new HostPort("127.0.0.1", pa))),
                line -> {})) {
          ClientShare.Streams fromA =
              ClientShare.askStreams(a, "a", at, share(cell, 3), List.of(), 30_000)
                  .await(40, TimeUnit.SECONDS);
          ClientShare.Streams fromB =
              ClientShare.askStreams(a, "b", at, share(cell, 4), List.of(), 30_000)
                  .await(40, TimeUnit.SECONDS);
          BatchResult a3 = new BatchResult(fromA.results());
          BatchResult b4 = new BatchResult(fromB.results());
          assertThat(a3.streamsOk()).isEqualTo(3);
          assertThat(b4.streamsOk()).isEqualTo(4);
          List<StreamResult> both = new ArrayList<>(fromA.results());
          both.addAll(fromB.results());
          BatchResult merged = new BatchResult(both);
          assertThat(merged.frames()).isEqualTo(a3.frames() + b4.frames()).isEqualTo(7 * 20);
          assertThat(merged.reads()).isEqualTo(a3.reads() + b4.reads());
          assertThat(merged.histograms().emitToRecv().getTotalCount()).isEqualTo(7 * 20);
          assertThat(merged.histograms().ttft().getTotalCount()).isEqualTo(7);

          Cell slow = cell("100", "100ms"); // 10 s
          assertThatThrownBy(
                  () ->
                      ClientShare.askStreams(a, "b", at, share(slow, 1), List.of(), 400)
                          .await(10, TimeUnit.SECONDS))
              .hasMessageContaining("agent b stopped its share at its deadline of 400 ms");
          Await.until(
              "the emitter saw the stopped share's connection close",
              5000,
              () -> emitter.openConnections() == 0);
        }
      }
    }
  }

  /**
   * A share carries the scenario's request headers (client.headers): an API key the emitter asks
   * for reaches it from the agent.
   */
  @Test
  void aShareSendsTheRequestHeadersItWasGiven() throws Exception {
    try (LabFixture lab = new LabFixture(EmitterOptions.loopback(0).withApiKey("sk-lab-test"), 1)) {
      HostPort at = new HostPort("127.0.0.1", lab.emitter.port());
      Cell chat = Cell.fromSettings(Map.of("endpoint", "chat", "frames", "5", "interval", "5ms"));
      int pa = threeFreePorts();
      try (Agent a = Agent.start(spec("lab-one", SECRET, "1.0", "a", pa, List.of()), line -> {})) {
        BatchResult with =
            new BatchResult(
                ClientShare.askStreams(
                        a,
                        "a",
                        at,
                        share(chat, 1),
                        List.of(new Header("Authorization", "Bearer sk-lab-test")),
                        30_000)
                    .await(40, TimeUnit.SECONDS)
                    .results());
        assertThat(with.streamsOk()).as("with the key").isEqualTo(1);
        BatchResult without =
            new BatchResult(
                ClientShare.askStreams(a, "a", at, share(chat, 1), List.of(), 30_000)
                    .await(40, TimeUnit.SECONDS)
                    .results());
        assertThat(without.streamsOk()).as("without it: the emitter's 401").isZero();
        assertThat(without.errorCount()).isEqualTo(1);
      }
    }
  }

  @Test
  void anAgentToldToJoinMembersNoneOfWhichAnswersSaysSoInsteadOfStartingAClusterOfItsOwn()
      throws Exception {
    int dead = threeFreePorts();
    int pb = threeFreePorts();
    assertThatThrownBy(
            () ->
                Agent.start(
                    spec(
                        "lab-one",
                        SECRET,
                        "1.0",
                        "b",
                        pb,
                        List.of(new HostPort("127.0.0.1", dead))),
                    line -> {}))
        .isInstanceOf(Agent.JoinFailure.class)
        .hasMessageContaining("no member to join answered: 127.0.0.1:" + dead)
        .hasMessageContaining("Start the first agent without --join");
  }

  @Test
  void theHazelcastClusterNameDependsOnNameVersionAndSecretSoLabsThatDifferNeverMeet() {
    String base = spec("lab-one", SECRET, "1.0", "a", 5800, List.of()).hazelcastClusterName();
    assertThat(spec("lab-one", SECRET, "1.0", "b", 5900, List.of()).hazelcastClusterName())
        .isEqualTo(base);
    assertThat(spec("lab-two", SECRET, "1.0", "a", 5800, List.of()).hazelcastClusterName())
        .isNotEqualTo(base);
    assertThat(spec("lab-one", SECRET, "1.1", "a", 5800, List.of()).hazelcastClusterName())
        .isNotEqualTo(base);
    assertThat(
            spec(
                    "lab-one",
                    "another secret, 12+".getBytes(StandardCharsets.UTF_8),
                    "1.0",
                    "a",
                    5800,
                    List.of())
                .hazelcastClusterName())
        .isNotEqualTo(base);
    assertThat(base).doesNotContain("correct horse");
  }

  /**
   * `flushlab agent` wipes the secret it read once the spec is made: the spec must hold its own
   * copy.
   */
  @Test
  void theSpecKeepsItsOwnCopyOfTheSecret() {
    byte[] secret = SECRET.clone();
    ClusterSpec s = spec("lab-one", secret, "1.0", "a", 5800, List.of());
    String before = s.hazelcastClusterName();
    Arrays.fill(secret, (byte) 0);
    assertThat(s.hazelcastClusterName()).isEqualTo(before);
    byte[] zeros = new byte[SECRET.length];
    assertThat(spec("lab-one", zeros, "1.0", "a", 5800, List.of()).hazelcastClusterName())
        .isNotEqualTo(before);
  }

  @Test
  void namesAndSecretsOutsideTheRulesAreRefusedByName() {
    assertThatThrownBy(() -> spec("lab one", SECRET, "1.0", "a", 5800, List.of()))
        .hasMessageContaining("cluster name 'lab one'");
    assertThatThrownBy(() -> spec("lab", SECRET, "1.0", "a/b", 5800, List.of()))
        .hasMessageContaining("agent name 'a/b'");
    assertThatThrownBy(
            () ->
                spec("lab", "short".getBytes(StandardCharsets.UTF_8), "1.0", "a", 5800, List.of()))
        .hasMessageContaining("needs at least 12");
  }
}
