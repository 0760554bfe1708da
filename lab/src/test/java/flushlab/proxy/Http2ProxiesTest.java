package flushlab.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.LabTest;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.HttpVersion;
import flushlab.client.RequestPlan;
import flushlab.tls.ServerTls;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Real proxies terminating TLS with ALPN h2 and http/1.1: the same config read over HTTP/1.1 and
 * over h2 (what it negotiated is recorded: the proxy's own SETTINGS), whole, with the same holding
 * either way: stock nginx (HTTP/1.0 upstream) holds a small stream to its end over both; tuned
 * nginx, HAProxy and Caddy stream over both.
 */
class Http2ProxiesTest extends LabTest {
  private static final int FRAMES = 20;

  /** The streams' 20 ms between frames, for the pacing guard. */
  private static final long INTERVAL = 20_000_000L;

  @ParameterizedTest
  @CsvSource({
    "NGINX, nginx-h2.conf, true",
    "NGINX, nginx-h2-buffering-off.conf, false",
    "HAPROXY, haproxy-h2.cfg, false",
    "HAPROXY, haproxy-h2-http-no-delay.cfg, false",
    "CADDY, caddy-tls.Caddyfile, false"
  })
  void theSameConfigOverHttp11AndH2(ProxyKind kind, String template, boolean holdsToTheEnd)
      throws Exception {
    boolean installed = ProxyProcess.locate(kind.binaryName) != null;
    if (!installed)
      System.out.println("SKIPPED (Http2ProxiesTest): " + kind.binaryName + " is not installed");
    Assumptions.assumeTrue(installed, kind.binaryName + " is not installed");
    try (ProxyProcess p =
        ProxyProcess.start(
            kind, Path.of("scenarios/proxies", template), "127.0.0.1", lab.emitter.port())) {
      RequestPlan plan =
          RequestPlan.get(
                  "https://127.0.0.1:"
                      + p.port()
                      + "/sse?frames="
                      + FRAMES
                      + "&size=60&interval=20ms")
              .withTls(ServerTls.selfSigned().pinnedByClients());
      // under the pacing guard and the hiccup meter: a run this host's stalls or contention merged
      // is measured once more
      BatchResult h1 =
          whole(
              lab.measurePaced(
                  INTERVAL,
                  template + "'s process",
                  List.of(p.pid()),
                  plan,
                  ClientOptions.single()));
      BatchResult h2 =
          whole(
              lab.measurePaced(
                  INTERVAL,
                  template + "'s process",
                  List.of(p.pid()),
                  plan,
                  ClientOptions.single().withHttp(HttpVersion.H2)));
      System.out.printf(
          "Http2ProxiesTest: %s frames per read %.2f over HTTP/1.1, %.2f over h2 (its SETTINGS %s)%n",
          template, h1.framesPerRead(), h2.framesPerRead(), h2.h2().serverSettings());
      assertThat(h1.h2()).isNull();
      assertThat(h2.h2()).as("h2 was spoken").isNotNull();
      for (BatchResult r : new BatchResult[] {h1, h2}) {
        if (holdsToTheEnd) {
          assertThat(r.readsWithFrames())
              .as("held to the end: %s", r.oneLine())
              .isLessThanOrEqualTo(2);
        } else {
          assertThat(r.framesPerRead()).as(r.oneLine()).isLessThanOrEqualTo(1.1);
        }
      }
    }
  }

  /**
   * The same proxies speaking h2c (HTTP/2 over plain TCP, prior knowledge) on their client side, as
   * gateways between hops do.
   */
  @ParameterizedTest
  @CsvSource({"NGINX, nginx-h2c.conf", "HAPROXY, haproxy-h2c.cfg", "CADDY, caddy-h2c.Caddyfile"})
  void h2cByPriorKnowledgeStreams(ProxyKind kind, String template) throws Exception {
    boolean installed = ProxyProcess.locate(kind.binaryName) != null;
    if (!installed)
      System.out.println("SKIPPED (Http2ProxiesTest): " + kind.binaryName + " is not installed");
    Assumptions.assumeTrue(installed, kind.binaryName + " is not installed");
    try (ProxyProcess p =
        ProxyProcess.start(
            kind, Path.of("scenarios/proxies", template), "127.0.0.1", lab.emitter.port())) {
      RequestPlan plan =
          RequestPlan.get(
              "http://127.0.0.1:" + p.port() + "/sse?frames=" + FRAMES + "&size=60&interval=20ms");
      BatchResult h2c =
          whole(
              lab.measurePaced(
                  INTERVAL,
                  template + "'s process",
                  List.of(p.pid()),
                  plan,
                  ClientOptions.single().withHttp(HttpVersion.H2C)));
      System.out.printf(
          "Http2ProxiesTest: %s over h2c frames per read %.2f (its SETTINGS %s)%n",
          template, h2c.framesPerRead(), h2c.h2().serverSettings());
      assertThat(h2c.framesPerRead()).as(h2c.oneLine()).isLessThanOrEqualTo(1.1);
    }
  }

  private static BatchResult whole(BatchResult r) {
    assertThat(r.errorCount()).as(r.oneLine()).isZero();
    assertThat(r.frames()).isEqualTo(FRAMES);
    assertThat(r.lostFrames() + r.corruptFrames() + r.duplicateFrames() + r.reorderedFrames())
        .isZero();
    return r;
  }
}
