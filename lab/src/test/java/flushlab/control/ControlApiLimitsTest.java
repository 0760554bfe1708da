package flushlab.control;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.Await;
import flushlab.FreePort;
import flushlab.LabFixture;
import flushlab.core.HostPort;
import flushlab.core.Resources;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The console's control API holds to the emitter's limits, on real sockets: a request head that
 * trickles is answered 408 at the head timeout, connections past the cap are answered 503, a proxy
 * may not listen on the lab's own ports, and proxies, toxics and names are capped.
 */
class ControlApiLimitsTest {
  private static ToxiproxyApiTest.Answer http(String method, int port, String path, String body)
      throws Exception {
    return ToxiproxyApiTest.http(method, port, path, body);
  }

  /** What the server sent on a socket until it closed (or 10 s passed). */
  private static String readAll(Socket s) throws Exception {
    s.setSoTimeout(10_000);
    InputStream in = s.getInputStream();
    return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
  }

  /**
   * Sends {@code start} of a request and nothing more: the API answers 408 at its 1 s timeout, not
   * before, not long after.
   */
  private static void answered408AtTheTimeout(int port, String start) throws Exception {
    long t0 = System.nanoTime();
    try (Socket slow = new Socket("127.0.0.1", port)) {
      OutputStream out = slow.getOutputStream();
      out.write(start.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      String answer = readAll(slow);
      double seconds = (System.nanoTime() - t0) / 1e9;
      assertThat(answer).startsWith("HTTP/1.1 408");
      assertThat(seconds).as("answered at the 1 s timeout").isBetween(0.9, 5.0);
    }
  }

  @Test
  void aTricklingHeadIsAnswered408AtTheHeadTimeoutAndConnectionsPastTheCap503() throws Exception {
    try (LabFixture lab = new LabFixture()) {
      ControlServer control =
          new ControlServer(
              "127.0.0.1", 0, line -> {}, new HostPort("127.0.0.1", lab.emitter.port()), 3, 1_000);
      lab.vertx.deployVerticle(control).await(10, TimeUnit.SECONDS);
      int port = control.port();
      answered408AtTheTimeout(
          port, "GET /version HTTP/1.1\r\nHost: x\r\n"); // and never the blank line
      Await.until("the timed-out connection is gone", 5_000, () -> control.openConnections() == 0);
      List<Socket> held = new ArrayList<>();
      try {
        for (int i = 0; i < 3; i++) held.add(new Socket("127.0.0.1", port));
        Await.until("three connections held", 5_000, () -> control.openConnections() == 3);
        try (Socket fourth = new Socket("127.0.0.1", port)) {
          assertThat(readAll(fourth)).startsWith("HTTP/1.1 503");
        }
      } finally {
        for (Socket s : held) s.close();
      }
      // a keep-alive connection is served request after request; the head timeout starts again
      // after each response
      Await.until("the held connections are gone", 5_000, () -> control.openConnections() == 0);
      assertThat(http("GET", port, "/version", null).status()).isEqualTo(200);
    }
  }

  @Test
  void aTricklingBodyIsAnswered408AndOneAddressHoldsAtMostAQuarterOfTheConnections()
      throws Exception {
    try (LabFixture lab = new LabFixture()) {
      ControlServer control =
          new ControlServer(
              "127.0.0.1", 0, line -> {}, new HostPort("127.0.0.1", lab.emitter.port()), 40, 1_000);
      lab.vertx.deployVerticle(control).await(10, TimeUnit.SECONDS);
      int port = control.port();
      answered408AtTheTimeout(
          port,
          "POST /proxies HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"); // and 99 bytes
      // never
      Await.until("the timed-out connection is gone", 5_000, () -> control.openConnections() == 0);
      int perPeer = ApiConnections.perPeerCap(40);
      List<Socket> held = new ArrayList<>();
      try {
        for (int i = 0; i < perPeer; i++) {
          Socket s = new Socket();
          s.bind(new InetSocketAddress("127.0.0.3", 0));
          s.connect(new InetSocketAddress("127.0.0.1", port));
          held.add(s);
        }
        Await.until(
            perPeer + " connections held from 127.0.0.3",
            5_000,
            () -> control.openConnections() == perPeer);
        try (Socket more = new Socket()) {
          more.bind(new InetSocketAddress("127.0.0.3", 0));
          more.connect(new InetSocketAddress("127.0.0.1", port));
          assertThat(readAll(more)).as("one more from the same address").startsWith("HTTP/1.1 503");
        }
        assertThat(http("GET", port, "/version", null).status())
            .as("another address is still served")
            .isEqualTo(200);
      } finally {
        for (Socket s : held) s.close();
      }
    }
  }

  @Test
  void aToxicTimeThatWouldOverflowIsRefusedNamingItsAttribute() throws Exception {
    try (LabFixture lab = new LabFixture()) {
      ControlServer control =
          new ControlServer(
              "127.0.0.1",
              0,
              line -> {},
              new HostPort("127.0.0.1", lab.emitter.port()),
              16,
              10_000);
      lab.vertx.deployVerticle(control).await(10, TimeUnit.SECONDS);
      int port = control.port();
      int listen = FreePort.forALaterServer();
      assertThat(
              http(
                      "POST",
                      port,
                      "/proxies",
                      "{\"name\":\"p\",\"listen\":\"127.0.0.1:"
                          + listen
                          + "\",\"upstream\":\"127.0.0.1:"
                          + lab.emitter.port()
                          + "\"}")
                  .status())
          .isEqualTo(201);
      ToxiproxyApiTest.Answer a =
          http(
              "POST",
              port,
              "/proxies/p/toxics",
              "{\"name\":\"l\",\"type\":\"latency\",\"attributes\":{\"latency\":18446744073710}}");
      assertThat(a.status()).isEqualTo(400);
      assertThat(a.body().toString()).contains("attributes.latency");
    }
  }

  @Test
  void aProxyMayNotListenOnTheLabsOwnPortsAndProxiesToxicsAndNamesAreCapped() throws Exception {
    try (LabFixture lab = new LabFixture()) {
      ControlServer control =
          new ControlServer(
              "127.0.0.1", 0, line -> {}, new HostPort("127.0.0.1", lab.emitter.port()));
      lab.vertx.deployVerticle(control).await(10, TimeUnit.SECONDS);
      int port = control.port();
      String up = "\"upstream\":\"127.0.0.1:" + lab.emitter.port() + "\"";

      ToxiproxyApiTest.Answer onApi =
          http(
              "POST",
              port,
              "/proxies",
              "{\"name\":\"a\",\"listen\":\"127.0.0.1:" + port + "\"," + up + "}");
      assertThat(onApi.status()).isEqualTo(409);
      assertThat(onApi.body().path("error").asText()).contains("the lab's own control API");
      assertThat(onApi.body().path("status").asInt()).isEqualTo(409);
      ToxiproxyApiTest.Answer onEmitter =
          http(
              "POST",
              port,
              "/proxies",
              "{\"name\":\"a\",\"listen\":\"127.0.0.1:" + lab.emitter.port() + "\"," + up + "}");
      assertThat(onEmitter.status()).isEqualTo(409);
      assertThat(onEmitter.body().path("error").asText()).contains("the lab's own emitter");
      assertThat(http("GET", port, "/version", null).status())
          .as("the API still answers itself")
          .isEqualTo(200);
      try (ServerSocket other = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
        ToxiproxyApiTest.Answer inUse =
            http(
                "POST",
                port,
                "/proxies",
                "{\"name\":\"a\",\"listen\":\"127.0.0.1:"
                    + other.getLocalPort()
                    + "\","
                    + up
                    + "}");
        assertThat(inUse.status()).as("%s", inUse.body()).isEqualTo(409);
        assertThat(inUse.body().path("error").asText()).contains("cannot listen on");
      }

      ToxiproxyApiTest.Answer longName =
          http("POST", port, "/proxies", "{\"name\":\"" + "x".repeat(1000) + "\"," + up + "}");
      assertThat(longName.status()).isEqualTo(400);
      assertThat(longName.body().path("error").asText()).contains("1..128");
      assertThat(http("POST", port, "/proxies", "{\"name\":\"../a\"," + up + "}").status())
          .isEqualTo(400);
      assertThat(http("POST", port, "/proxies", "{\"name\":\"a\"}").body().path("error").asText())
          .isEqualTo("missing required field: upstream");
      // markup is a name like any other (as in Toxiproxy); the page writes names as text, never as
      // HTML
      assertThat(
              http(
                      "POST",
                      port,
                      "/proxies",
                      "{\"name\":\"<img src=x onerror=alert(1)>\"," + up + "}")
                  .status())
          .isEqualTo(201);
      assertThat(Resources.text("flushlab/control/console.js"))
          .doesNotContain("innerHTML")
          .doesNotContain("insertAdjacentHTML");

      for (int i = 1; i < ControlApi.MAX_PROXIES; i++) {
        assertThat(http("POST", port, "/proxies", "{\"name\":\"p" + i + "\"," + up + "}").status())
            .isEqualTo(201);
      }
      ToxiproxyApiTest.Answer oneMore =
          http("POST", port, "/proxies", "{\"name\":\"one-more\"," + up + "}");
      assertThat(oneMore.status()).isEqualTo(409);
      assertThat(oneMore.body().path("error").asText())
          .contains("at most " + ControlApi.MAX_PROXIES + " proxies");

      for (int i = 0; i < ControlApi.MAX_TOXICS; i++) {
        assertThat(
                http(
                        "POST",
                        port,
                        "/proxies/p1/toxics",
                        "{\"name\":\"t"
                            + i
                            + "\",\"type\":\"latency\",\"attributes\":{\"latency\":1}}")
                    .status())
            .isEqualTo(200);
      }
      ToxiproxyApiTest.Answer toxicMore =
          http(
              "POST",
              port,
              "/proxies/p1/toxics",
              "{\"name\":\"more\",\"type\":\"latency\",\"attributes\":{\"latency\":1}}");
      assertThat(toxicMore.status()).isEqualTo(409);
      assertThat(toxicMore.body().path("error").asText())
          .contains("at most " + ControlApi.MAX_TOXICS + " toxics");

      ToxiproxyApiTest.Answer big =
          http(
              "POST",
              port,
              "/proxies",
              "{\"name\":\"big\",\"pad\":\"" + "x".repeat(2 << 20) + "\"}");
      assertThat(big.status()).as("a body over 1 MiB").isEqualTo(413);
    }
  }
}
