package flushlab.tls;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.LabTest;
import flushlab.RelayFixture;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.RequestPlan;
import flushlab.relay.Relay;
import flushlab.relay.RelayOptions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Streams over TLS: straight to the emitter's TLS listener and through a relay that terminates TLS.
 * Every frame carries its own CRC, sequence number and length, so a stream that decodes with
 * nothing lost, duplicated, reordered or corrupt, and with as many body bytes as the same stream
 * over plain TCP, came through byte for byte.
 */
class TlsStreamTest extends LabTest {
  private static final String QUERY = "frames=60&size=200&interval=10ms";
  private static int tlsPort;

  @BeforeAll
  static void listenWithTls() throws Exception {
    tlsPort =
        lab.emitter.listenTls("127.0.0.1", 0, ServerTls.selfSigned()).await(10, TimeUnit.SECONDS);
  }

  private static RequestPlan pinned(int port) {
    return RequestPlan.get("https://127.0.0.1:" + port + "/sse?" + QUERY)
        .withTls(ServerTls.selfSigned().pinnedByClients());
  }

  private static void assertWhole(BatchResult r) {
    assertThat(r.firstError()).isNull();
    assertThat(r.streamsOk()).isEqualTo(1);
    assertThat(r.frames()).isEqualTo(60);
    assertThat(
            r.lostFrames()
                + r.duplicateFrames()
                + r.reorderedFrames()
                + r.corruptFrames()
                + r.uncheckedFrames())
        .isZero();
  }

  @Test
  void directTlsCarriesTheStreamByteExactOneFramePerRead() throws Exception {
    BatchResult plain =
        lab.measurePaced(10_000_000L, RequestPlan.get(lab.sseUrl(QUERY)), ClientOptions.single());
    BatchResult tls = lab.measurePaced(10_000_000L, pinned(tlsPort), ClientOptions.single());
    assertWhole(plain);
    assertWhole(tls);
    // the same response bytes arrive, decrypted; only the framing underneath differs
    assertThat(tls.decodedBodyBytes()).isEqualTo(plain.decodedBodyBytes());
    // one record per frame, one frame per read: TLS on the direct path coalesces nothing. 1.02 is
    // the direct path's documented noise floor (one read in 60 merged by a busy host, as over TCP).
    System.out.printf(
        "TlsStreamTest: direct frames per read, TCP %.3f, TLS %.3f%n",
        plain.framesPerRead(), tls.framesPerRead());
    assertThat(tls.framesPerRead()).isLessThanOrEqualTo(1.02);
  }

  @Test
  void aTlsRelayCarriesTheStreamByteExact() throws Exception {
    Relay relay =
        RelayFixture.start(
            lab,
            RelayOptions.loopback(lab.emitter.port(), List.of()).withTls(ServerTls.selfSigned()));
    try {
      BatchResult r = lab.measurePaced(10_000_000L, pinned(relay.port()), ClientOptions.single());
      assertWhole(r);
      // the bodies, byte for byte in length: the heads carry the stream's id, whose digits grow
      // (99, then 100)
      assertThat(r.decodedBodyBytes()).isEqualTo(lab.measure(lab.sseUrl(QUERY)).decodedBodyBytes());
      assertThat(r.framesPerRead()).isLessThan(1.2);
    } finally {
      lab.vertx.undeploy(relay.deploymentID()).await(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aCorkingTlsRelayStillShowsAsCoalescing() throws Exception {
    // the metric survives TLS: several frames released together are counted in one read
    Relay relay =
        RelayFixture.start(
            lab,
            RelayOptions.loopback(lab.emitter.port(), List.of("drain-and-flush"))
                .withTls(ServerTls.selfSigned()));
    try {
      BatchResult r = lab.measure(pinned(relay.port()), ClientOptions.single());
      assertWhole(r);
      assertThat(r.framesPerRead()).isGreaterThan(10);
    } finally {
      lab.vertx.undeploy(relay.deploymentID()).await(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aReadIsEverythingOneSocketReadDecrypts() throws Exception {
    // 200 KB released at once: over TCP a handful of 64 KiB reads. Netty's TLS handler hands the
    // plaintext of one socket read over in pieces of about 16 KiB; metered piece by piece, the
    // same release would look like three times as many reads, each a quarter the size.
    String query = "frames=100&size=2KiB&interval=1ms";
    Relay plain =
        RelayFixture.start(
            lab, RelayOptions.loopback(lab.emitter.port(), List.of("drain-and-flush")));
    Relay tls =
        RelayFixture.start(
            lab,
            RelayOptions.loopback(lab.emitter.port(), List.of("drain-and-flush"))
                .withTls(ServerTls.selfSigned()));
    try {
      BatchResult overTcp =
          lab.measure(
              RequestPlan.get("http://127.0.0.1:" + plain.port() + "/sse?" + query),
              ClientOptions.single());
      BatchResult overTls =
          lab.measure(
              RequestPlan.get("https://127.0.0.1:" + tls.port() + "/sse?" + query)
                  .withTls(ServerTls.selfSigned().pinnedByClients()),
              ClientOptions.single());
      System.out.printf(
          "TlsStreamTest: one 200 KB release: TCP %d reads (largest %.0f B), TLS %d reads (largest %.0f B)%n",
          overTcp.reads(),
          overTcp.bytesPerRead().max(),
          overTls.reads(),
          overTls.bytesPerRead().max());
      assertThat(overTls.frames()).isEqualTo(100);
      assertThat(overTls.bytesPerRead().max())
          .as("the largest read, in plaintext bytes")
          .isGreaterThan(48 * 1024);
      assertThat(overTls.reads()).isLessThanOrEqualTo(2 * overTcp.reads());
    } finally {
      lab.vertx.undeploy(plain.deploymentID()).await(10, TimeUnit.SECONDS);
      lab.vertx.undeploy(tls.deploymentID()).await(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aCorkedTlsStreamIsSeenAsTheSegmentsItLeavesIn() throws Exception {
    // 4 KiB frames every 2 ms behind a cork: the kernel lets out a loopback segment (~64 KiB of
    // ciphertext, 16 frames) at a time, ~32 ms apart. A record finished by the next read can make
    // a read's plaintext longer than the 64 KiB buffer; that must not be taken for "more was
    // waiting", which would merge the separate releases into one (it did: 95 frames in a release).
    // Measured under the pacing guard: a stall of this process holds the emitter too, and frames
    // written late pile into one segment (h27, under a CPU hog: 30 frames in a release).
    Relay relay =
        RelayFixture.start(
            lab,
            RelayOptions.loopback(lab.emitter.port(), List.of("cork"))
                .withTls(ServerTls.selfSigned()));
    try {
      BatchResult r =
          lab.measurePaced(
              2_000_000L,
              RequestPlan.get(
                      "https://127.0.0.1:"
                          + relay.port()
                          + "/sse?frames=200&size=4096&interval=2ms")
                  .withTls(ServerTls.selfSigned().pinnedByClients()),
              ClientOptions.single());
      assertThat(r.firstError()).isNull();
      assertThat(r.frames()).isEqualTo(200);
      assertThat(r.releaseFrames().max())
          .as("frames in the largest release")
          .isLessThanOrEqualTo(24);
      assertThat(r.releases()).as("releases").isGreaterThanOrEqualTo(200 / 24);
    } finally {
      lab.vertx.undeploy(relay.deploymentID()).await(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void anUntrustedCertificateIsRefusedByDefault() throws Exception {
    BatchResult r =
        lab.measure(
            RequestPlan.get("https://127.0.0.1:" + tlsPort + "/sse?" + QUERY),
            ClientOptions.single());
    assertThat(r.streamsOk()).isZero();
    assertThat(r.firstError()).contains("over TLS").contains("system's CAs");
    BatchResult skipped =
        lab.measure(
            RequestPlan.get("https://127.0.0.1:" + tlsPort + "/sse?" + QUERY)
                .withTls(ClientTls.insecure()),
            ClientOptions.single());
    assertWhole(skipped);
  }
}
