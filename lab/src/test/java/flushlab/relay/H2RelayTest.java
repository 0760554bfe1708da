package flushlab.relay;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.LabTest;
import flushlab.RelayFixture;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.ClientProfile;
import flushlab.client.HttpVersion;
import flushlab.client.RequestPlan;
import flushlab.http.H2;
import flushlab.stream.StreamSpec;
import flushlab.tls.ServerTls;
import java.io.InputStream;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A relay with an HTTP/2 client (h2c, prior knowledge), each stream relayed as its own HTTP/1.1
 * exchange through the same shapers: a paced stream passes one frame per read as over HTTP/1.1, a
 * byte threshold holds it alike, many streams share one connection, a request body reaches
 * upstream, a reset shaper resets only its stream, and the client's window holds the relay's DATA.
 */
class H2RelayTest extends LabTest {
  private static final String PACED = "frames=41&size=60&interval=20ms";

  /**
   * A paced measurement (measured once more when the emitter was late or this host stalled; twice,
   * a host-stall skip).
   */
  private BatchResult through(String query, ClientOptions options, String... shapers)
      throws Exception {
    Relay relay = RelayFixture.start(lab, shapers);
    try {
      return lab.measurePaced(
          StreamSpec.fromQuery(query).intervalNanos(),
          () ->
              lab.measure(
                  RequestPlan.get("http://127.0.0.1:" + relay.port() + "/sse?" + query), options));
    } finally {
      lab.vertx.undeploy(relay.deploymentID()).await(10, TimeUnit.SECONDS);
    }
  }

  private static ClientOptions h2c() {
    return ClientOptions.single().withHttp(HttpVersion.H2C);
  }

  private static void whole(BatchResult r, int frames) {
    assertThat(r.errorCount()).as(r.oneLine()).isZero();
    assertThat(r.frames()).as(r.oneLine()).isEqualTo(frames);
    assertThat(r.lostFrames() + r.corruptFrames() + r.duplicateFrames() + r.reorderedFrames())
        .isZero();
  }

  @Test
  void aPacedStreamPassesOnePerReadOverH2cAsOverHttp11() throws Exception {
    BatchResult h1 = through(PACED, ClientOptions.single(), "passthrough");
    BatchResult h2 = through(PACED, h2c(), "passthrough");
    System.out.printf(
        "H2RelayTest: through a passthrough relay, emit->recv p50 %.3f ms over HTTP/1.1, %.3f ms over h2c%n",
        h1.emitToRecvMs().p50(), h2.emitToRecvMs().p50());
    whole(h2, 41);
    assertThat(h2.framesPerRead()).as(h2.oneLine()).isLessThanOrEqualTo(1.05);
    assertThat(h2.h2()).as("spoken over HTTP/2").isNotNull();
    assertThat(h2.h2().serverSettings()).containsEntry("max_concurrent_streams", 128L);
  }

  @Test
  void aByteThresholdHoldsTheStreamAlikeOverBothProtocols() throws Exception {
    BatchResult h1 = through(PACED, ClientOptions.single(), "byte-threshold=300B");
    BatchResult h2 = through(PACED, h2c(), "byte-threshold=300B");
    whole(h2, 41);
    // 300 B of 66 B frames (chunk framing included): 5 frames a release, over either protocol
    assertThat(h2.burstFrames().p50())
        .as(h2.oneLine())
        .isEqualTo(h1.burstFrames().p50())
        .isBetween(4.0, 6.0);
  }

  /**
   * Each stream runs its own shapers and upstream connection directly, with no connection of its
   * own into the relay: the relay never had more than the client's one connection open. Each
   * measurement gets a relay of its own, so a run measured once more (the emitter late) is not
   * counted with the connection of the run before it.
   */
  @Test
  void twentyStreamsOnOneConnectionEachGetTheirOwnShapersAndUpstream() throws Exception {
    int[] peak = {-1};
    BatchResult r =
        lab.measurePaced(
            10_000_000L,
            () -> {
              Relay relay = RelayFixture.start(lab, "passthrough");
              try {
                BatchResult b =
                    lab.measure(
                        RequestPlan.get(
                            "http://127.0.0.1:"
                                + relay.port()
                                + "/sse?frames=30&size=60&interval=10ms"),
                        h2c().withRequests(20, 20).withStreamsPerConnection(20));
                peak[0] = relay.peakConnections().await(10, TimeUnit.SECONDS);
                return b;
              } finally {
                lab.vertx.undeploy(relay.deploymentID()).await(10, TimeUnit.SECONDS);
              }
            });
    whole(r, 600);
    assertThat(r.h2().streams()).isEqualTo(20);
    assertThat(r.framesPerRead()).as(r.oneLine()).isLessThanOrEqualTo(1.2);
    assertThat(peak[0]).as("connections into the relay at once").isEqualTo(1);
  }

  @Test
  void aChatRequestBodyReachesUpstream() throws Exception {
    Relay relay = RelayFixture.start(lab, "passthrough");
    try {
      BatchResult r = lab.measure(RequestPlan.chat("127.0.0.1", relay.port(), 30, 0, 5), h2c());
      whole(r, 30);
    } finally {
      lab.vertx.undeploy(relay.deploymentID()).await(10, TimeUnit.SECONDS);
    }
  }

  /**
   * Over TLS the relay's ALPN offers h2: a browser speaks it, the bare client (offering http/1.1
   * only) stays on HTTP/1.1, and both read the stream whole.
   */
  @Test
  void overTlsAlpnOffersH2AndABrowserSpeaksIt() throws Exception {
    ServerTls tls = ServerTls.selfSigned();
    Relay relay =
        RelayFixture.start(
            lab,
            RelayOptions.loopback(lab.emitter.port(), List.of("byte-threshold=300B")).withTls(tls));
    try {
      RequestPlan https =
          RequestPlan.get("https://127.0.0.1:" + relay.port() + "/sse?" + PACED)
              .withTls(tls.pinnedByClients());
      BatchResult browser =
          lab.measure(https.withProfile(ClientProfile.BROWSER), ClientOptions.single());
      BatchResult bare = lab.measure(https, ClientOptions.single());
      whole(browser, 41);
      whole(bare, 41);
      assertThat(browser.h2()).as("the browser negotiated h2").isNotNull();
      assertThat(bare.h2()).as("the bare client offered http/1.1 only").isNull();
      assertThat(browser.burstFrames().p50())
          .as(browser.oneLine())
          .isEqualTo(bare.burstFrames().p50())
          .isBetween(4.0, 6.0);
    } finally {
      lab.vertx.undeploy(relay.deploymentID()).await(10, TimeUnit.SECONDS);
    }
  }

  /**
   * An HTTP/2 client that opens its connection and then sends nothing is closed at the relay's idle
   * timeout, as an HTTP/1.1 one is.
   */
  @Test
  void anIdleHttp2ConnectionIsClosedAtTheIdleTimeout() throws Exception {
    Relay relay =
        RelayFixture.start(
            lab,
            RelayOptions.loopback(lab.emitter.port(), List.of("passthrough"))
                .withIdleTimeoutNanos(300_000_000L));
    try (Socket s = new Socket("127.0.0.1", relay.port())) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write(H2.PREFACE);
      s.getOutputStream().write(H2.settings());
      long t0 = System.nanoTime();
      InputStream in = s.getInputStream();
      while (in.read() >= 0) {
        // the relay's SETTINGS and acknowledgement, then its GOAWAY, then the close
      }
      double ms = (System.nanoTime() - t0) / 1e6;
      assertThat(ms)
          .as("closed after the 300 ms idle timeout, not at once and not never")
          .isBetween(250.0, 5_000.0);
    } finally {
      lab.vertx.undeploy(relay.deploymentID()).await(10, TimeUnit.SECONDS);
    }
  }

  /**
   * A reset shaper in one stream's exchange is that stream's RST_STREAM; the client names it a
   * reset, and nothing is counted ok.
   */
  @Test
  void aResetShaperResetsItsStream() throws Exception {
    BatchResult r = through("frames=41&size=60&interval=10ms", h2c(), "reset,after-bytes=600B");
    assertThat(r.streamsOk()).as(r.oneLine()).isZero();
    assertThat(r.errors().get(0)).containsEntry("kind", "reset");
  }

  /**
   * A bulk body larger than 100 windows arrives whole: the relay sends only what the client's
   * windows allow, and waits for its updates.
   */
  @Test
  void aBulkBodyFlowsWithinTheClientsWindows() throws Exception {
    BatchResult r = through("total=8MiB&size=20KiB&interval=0ms", h2c(), "passthrough");
    whole(r, (8 << 20) / (20 << 10) + 1);
    assertThat(r.decodedBodyBytes()).isEqualTo((long) r.frames() * 20 * 1024);
    assertThat(r.h2().windowUpdatesSent()).isGreaterThan(100);
    assertThat(List.of(r.h2().dataBytes())).containsExactly(r.bodyBytes());
  }
}
