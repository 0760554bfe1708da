package flushlab.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.config.Config;
import flushlab.FreePort;
import flushlab.core.HostPort;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * The event bus obeys only its own lab. Attack clients, on loopback, inside the test: a raw TCP
 * peer that sends a bus frame's length prefix announcing 2 GiB and then megabytes of junk, and a
 * plain Hazelcast member that learned the lab's cluster name (it travels in the clear on every
 * join) and so joins the membership, but holds no secret. Neither gets a frame read: nothing
 * starts, the junk is not buffered, and what the lab sends to an address the intruder registers
 * never reaches it.
 */
class BusTrustTest {
  private static final byte[] SECRET =
      "bus trust test secret, long enough".getBytes(StandardCharsets.UTF_8);

  private static ClusterSpec spec(String agent, int port, List<HostPort> join) {
    return new ClusterSpec("bus-lab", SECRET, "1.0", agent, new HostPort("127.0.0.1", port), join);
  }

  @Test
  void everyMemberMakesTheSameCertificateAndAnotherSecretAnother() {
    ClusterSpec a = spec("a", 20_000, List.of());
    ClusterSpec b = spec("b", 30_000, List.of());
    ClusterSpec other =
        new ClusterSpec(
            "bus-lab",
            "another secret, 12 bytes+".getBytes(StandardCharsets.UTF_8),
            "1.0",
            "a",
            new HostPort("127.0.0.1", 20_000),
            List.of());
    assertThat(BusCertificate.of(a).certPem())
        .as("derived from the lab, not the agent")
        .isEqualTo(BusCertificate.of(b).certPem());
    assertThat(BusCertificate.of(a).certPem()).isNotEqualTo(BusCertificate.of(other).certPem());
  }

  @Test
  void aPortInUseIsNamedInOneSentence() throws Exception {
    int p = FreePort.forALaterServer(3);
    try (ServerSocket held = new ServerSocket()) {
      held.bind(new InetSocketAddress("127.0.0.1", p + 1));
      Assertions.assertThatThrownBy(() -> Agent.start(spec("a", p, List.of()), line -> {}))
          .isInstanceOf(Agent.JoinFailure.class)
          .hasMessageStartingWith(
              "port " + (p + 1) + " on 127.0.0.1 (Hazelcast's member protocol) is not free")
          .hasMessageContaining("agents on one host need ports at least three apart");
    }
  }

  @Test
  void slowHandshakesFromOneAddressKeepNoOtherAgentOut() throws Exception {
    int pa = FreePort.forALaterServer(3);
    List<String> log = new CopyOnWriteArrayList<>();
    try (Agent a = Agent.start(spec("a", pa, List.of()), log::add)) {
      List<Socket> slow = new ArrayList<>();
      try {
        for (int i = 0; i < 16; i++) { // each sends nothing: a handshake held open to its timeout
          Socket s = new Socket();
          s.bind(new InetSocketAddress("127.0.0.3", 0));
          s.connect(new InetSocketAddress("127.0.0.1", pa), 5_000);
          slow.add(s);
        }
        int pb = FreePort.forALaterServer(3);
        try (Agent b =
            Agent.start(spec("b", pb, List.of(new HostPort("127.0.0.1", pa))), line -> {})) {
          assertThat(b.members())
              .as("b joined while one address held 16 handshakes open")
              .isEqualTo(2);
        }
        assertThat(log)
            .anyMatch(
                l ->
                    l.startsWith("refused a handshake from 127.0.0.3")
                        && l.contains(Hello.MAX_PER_PEER + " from that address"));
      } finally {
        for (Socket s : slow) s.close();
      }
    }
  }

  @Test
  void aRawPeerAndAHazelcastMemberWithoutTheSecretGetNothingReadAndStartNothing() throws Exception {
    int pa = FreePort.forALaterServer(3);
    List<String> log = new CopyOnWriteArrayList<>();
    try (Agent a = Agent.start(spec("a", pa, List.of()), log::add)) {
      Runtime rt = Runtime.getRuntime();
      System.gc();
      long heapBefore = rt.totalMemory() - rt.freeMemory();

      // 1. a raw peer: a length prefix of 2 GiB - 1, then 64 MiB of junk (or until the agent hangs
      // up)
      long sent = 0;
      boolean closedByAgent = false;
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", pa + 2), 5_000);
        s.setSoTimeout(10_000);
        OutputStream out = s.getOutputStream();
        byte[] junk = new byte[64 * 1024];
        junk[0] = 0x7f;
        junk[1] = junk[2] = junk[3] = (byte) 0xff;
        try {
          for (int i = 0; i < 1024; i++) {
            out.write(junk);
            sent += junk.length;
          }
          InputStream in = s.getInputStream();
          while (in.read(junk) >= 0) {
            // the agent's TLS alert, if any, then its FIN
          }
          closedByAgent = true;
        } catch (IOException e) {
          closedByAgent = true; // reset or broken pipe: the agent hung up while the junk still came
        }
      }
      System.gc();
      long heapAfter = rt.totalMemory() - rt.freeMemory();
      System.out.printf(
          "raw peer: %d bytes sent before the agent hung up; heap after GC %d -> %d MiB%n",
          sent, heapBefore >> 20, heapAfter >> 20);
      assertThat(closedByAgent).as("the agent closed the raw peer's connection").isTrue();
      assertThat(sent).as("the agent hung up long before 64 MiB of junk").isLessThan(64L << 20);
      assertThat(heapAfter - heapBefore).as("nothing of the junk is held").isLessThan(64L << 20);

      // 2. a Hazelcast member that knows the cluster name, with an event bus of its own and no
      // secret
      Config hz = new Config();
      hz.setClusterName(spec("a", pa, List.of()).hazelcastClusterName());
      hz.setProperty("hazelcast.phone.home.enabled", "false");
      hz.setProperty("hazelcast.logging.type", "none");
      // as the lab's members are (the count is in the lab's source): with Hazelcast's default the
      // join is refused before anything else
      hz.setProperty("hazelcast.partition.count", Integer.toString(Agent.HAZELCAST_PARTITIONS));
      int pi = FreePort.forALaterServer(2);
      hz.getNetworkConfig().setPort(pi).setPortAutoIncrement(false);
      hz.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
      hz.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
      hz.getNetworkConfig().getJoin().getAutoDetectionConfig().setEnabled(false);
      hz.getNetworkConfig()
          .getJoin()
          .getTcpIpConfig()
          .setEnabled(true)
          .addMember("127.0.0.1:" + (pa + 1));
      VertxOptions options = new VertxOptions();
      options.getEventBusOptions().setHost("127.0.0.1").setPort(pi + 1);
      Vertx intruder =
          Vertx.builder()
              .with(options)
              .withClusterManager(new HazelcastClusterManager(hz))
              .buildClustered()
              .await(60, TimeUnit.SECONDS);
      try {
        assertThat(a.members())
            .as("Hazelcast let the intruder in: its membership has no authentication")
            .isEqualTo(2);
        AtomicInteger overheard = new AtomicInteger();
        intruder
            .eventBus()
            .consumer(Agent.pingAddress("a"), m -> overheard.incrementAndGet())
            .completion()
            .await(10, TimeUnit.SECONDS);

        JsonObject startEmitter = new JsonObject().put("run", "intruder").put("lease_ms", 10_000);
        Throwable refused = null;
        try {
          intruder
              .eventBus()
              .request(
                  HostedWork.address("a", "emitter"),
                  startEmitter,
                  new DeliveryOptions().setSendTimeout(3_000))
              .await(10, TimeUnit.SECONDS);
        } catch (Exception e) {
          refused = e;
        }
        assertThat(refused)
            .as("the intruder's request to start an emitter got no answer")
            .isNotNull();
        assertThat(a.vertx().deploymentIDs())
            .as("agent a started nothing for the intruder")
            .isEmpty();

        // the lab's own requests to an address the intruder also registered never reach the
        // intruder
        for (int i = 0; i < 4; i++) {
          try {
            a.vertx()
                .eventBus()
                .request(
                    Agent.pingAddress("a"),
                    new JsonObject(),
                    new DeliveryOptions().setSendTimeout(2_000))
                .await(5, TimeUnit.SECONDS);
          } catch (Exception e) {
            // a request the bus routed to the intruder fails: it cannot be delivered there
          }
        }
        assertThat(overheard.get()).as("messages the intruder received").isZero();
      } finally {
        intruder.close().await(30, TimeUnit.SECONDS);
      }
      System.out.println("agent a's log: " + log);
    }
  }
}
