package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import flushlab.FreePort;
import flushlab.HostStalls;
import flushlab.ScriptedServer;
import flushlab.cli.Main;
import flushlab.core.Json;
import flushlab.http.H2;
import flushlab.proxy.ProxyKind;
import flushlab.proxy.RealProxiesTest;
import flushlab.relay.Relay;
import flushlab.relay.RelayLog;
import flushlab.relay.RelayOptions;
import io.vertx.core.Vertx;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * `flushlab map` against what is not a built-in relay: real proxies the lab starts, a server the
 * user runs, one that floods PINGs, one that streams only event streams, and a target that loses
 * frames.
 */
class MapTargetsTest extends MapTestBase {
  /**
   * Stock HAProxy sends each frame with MSG_MORE (strace shows one send per frame), so the kernel
   * corks it: the map must say cork, with the kernel's ~200 ms (RTO_MIN on loopback) as the hold,
   * and the lab's cork relay, replayed, must hold every cell as HAProxy did (it released 17 frames
   * every 34 ms instead while its loop was the emitter's: {@link flushlab.core.LoopPlacement}).
   */
  @Test
  void stockHaproxyIsAVerifiedCork() throws Exception {
    RealProxiesTest.need(ProxyKind.HAPROXY);
    Path bundle = dir.resolve("bundle");
    JsonNode a =
        mapReplayed(
            List.of(
                "--proxy",
                "haproxy",
                "--config",
                "scenarios/proxies/haproxy-stock.cfg",
                "--repro",
                bundle.toString()));
    kindIs(a, "cork");
    assertThat(a.get("timer_ms").asDouble()).as(a.get("verdict").asText()).isBetween(190.0, 230.0);
    assertThat(a.get("replay").asText())
        .as(a.get("verdict").asText())
        .startsWith("verified: the model cork reproduces");
    replayIsInTheBundle(a, bundle);
    reproducesWithoutTheProxy(bundle, "cork");
  }

  /**
   * HAProxy compressing event streams holds each one until the next: one-late for a client that
   * accepts gzip, none for one that does not.
   */
  @Test
  void haproxyCompressionIsOneLateForClientsThatAcceptGzip() throws Exception {
    RealProxiesTest.need(ProxyKind.HAPROXY);
    JsonNode a =
        mapWith(
            List.of("--proxy", "haproxy", "--config", "scenarios/proxies/haproxy-compression.cfg"));
    // the top-level answer is the client the map was (the bare one, accepting no compression); the
    // browser's is under compression
    kindIs(a, "none");
    assertThat(a.get("compression").get("accepting").get("kind").asText())
        .as(
            a.get("verdict").asText()
                + "; evidence: "
                + a.get("compression").get("accepting").get("evidence")
                + "; cells: "
                + a.get("compression").get("accepting").get("cells"))
        .isEqualTo("one-late");
    // the compressor flushed as the next event comes (`map --verify` of this proxy: the model
    // reproduces every cell)
    assertThat(a.get("model").get("chain").asText())
        .as(a.get("model").toString())
        .isEqualTo("compress=gzip,flush=next");
  }

  /**
   * `map --http h2c` against a server that floods every connection with PINGs and reads none of the
   * answers (the case ran 31 s on a 20 s budget and ended in a bare TimeoutException): the
   * map ends within its budget, and what it says names the flood.
   */
  @Test
  void aServerFloodingPingsEndsTheMapWithinItsBudgetAndSaysWhy() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread acceptor =
          new Thread(
              () -> {
                while (!server.isClosed()) {
                  try {
                    Socket s = server.accept();
                    Thread flood =
                        new Thread(
                            () -> {
                              try (s) {
                                OutputStream out = s.getOutputStream();
                                out.write(H2.settings());
                                byte[] ping = H2.frame(H2.PING, 0, 0, new byte[8]);
                                byte[] batch = new byte[ping.length * 1000];
                                for (int i = 0; i < 1000; i++)
                                  System.arraycopy(ping, 0, batch, i * ping.length, ping.length);
                                for (int i = 0; i < 4000; i++) out.write(batch); // never reading
                              } catch (IOException e) {
                                // the client gave up on the connection
                              }
                            });
                    flood.setDaemon(true);
                    flood.start();
                  } catch (IOException closed) {
                    return;
                  }
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      Path json = dir.resolve("flood.json");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      long t0 = System.nanoTime();
      int code =
          Main.run(
              new String[] {
                "map",
                "--target",
                "127.0.0.1:" + server.getLocalPort(),
                "--emitter-listen",
                "127.0.0.1:" + FreePort.forALaterServer(),
                "--http",
                "h2c",
                "--budget",
                "10s",
                "--results",
                dir.resolve("results").toString(),
                "--json",
                json.toString()
              },
              new PrintStream(out),
              new PrintStream(err));
      double seconds = (System.nanoTime() - t0) / 1e9;
      String said = out + "\n" + err + (Files.exists(json) ? Files.readString(json) : "");
      HostStalls.skipIfSaidIn(said);
      System.out.printf(
          "MapCommandTest: a PING-flooding target: exit %d after %.1f s (budget 10 s)%n%s%n",
          code, seconds, said);
      assertThat(seconds).as(said).isLessThan(15.0);
      assertThat(said)
          .contains("inconclusive: the target failed")
          .contains("faster than it read the answers")
          .doesNotContain("TimeoutException");
    }
  }

  /**
   * --target: a server the user runs (here a relay the test starts), forwarding to the emitter the
   * map starts on --emitter-listen.
   */
  @Test
  void aServerTheUserRunsIsMappedThroughTarget() throws Exception {
    int n = between(1000, 6000);
    int emitterPort;
    emitterPort = FreePort.forALaterServer();
    Vertx vertx = Vertx.vertx();
    try {
      Relay relay =
          new Relay(
              RelayOptions.loopback(emitterPort, List.of("byte-threshold=" + n + "B")),
              RelayLog.SILENT);
      vertx.deployVerticle(relay).await(10, TimeUnit.SECONDS);
      JsonNode a =
          mapWith(
              List.of(
                  "--target",
                  "127.0.0.1:" + relay.port(),
                  "--emitter-listen",
                  "127.0.0.1:" + emitterPort));
      kindIs(a, "byte-threshold");
      within10Percent(a, "threshold_bytes", n);
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  /**
   * Go's ReverseProxy streams an event stream but holds a body with a Content-Length in its 4 KiB
   * buffer (the stream-if relay follows its rule): mapped per response shape (--shapes, each shape
   * as --response sends it), the map finds the buffer for the NDJSON body with a length and none
   * for the event stream, and says the target decides by the shape.
   */
  @Test
  void aProxyThatStreamsOnlyEventStreamsIsMappedPerResponseShape() throws Exception {
    Path json = dir.resolve("shapes.json");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        Main.run(
            new String[] {
              "map",
              "--shape",
              "stream-if,preset=go",
              "--no-verify",
              "--shapes",
              "content_type=text/event-stream;content_type=application/x-ndjson,transfer=length",
              "--results",
              dir.resolve("results").toString(),
              "--json",
              json.toString()
            },
            new PrintStream(out),
            new PrintStream(err));
    if (code != 0) HostStalls.skipIfSaidIn(out + "\n" + err);
    assertThat(code).as(out + "\n" + err).isZero();
    JsonNode a = Json.MAPPER.readTree(json.toFile());
    System.out.println(
        "map --shape stream-if,preset=go --shapes ... -> " + a.get("verdict").asText());
    for (JsonNode s : a.get("shapes"))
      HostStalls.skipIfSaidIn(s.get("answer").get("verdict").asText());
    assertThat(a.get("shapes")).hasSize(2);
    JsonNode eventStream = a.get("shapes").get(0);
    JsonNode withLength = a.get("shapes").get(1);
    assertThat(withLength.get("response").get("transfer").asText()).isEqualTo("length");
    kindIs(eventStream.get("answer"), "none");
    kindIs(withLength.get("answer"), "byte-threshold");
    within10Percent(withLength.get("answer"), "threshold_bytes", 4096);
    assertThat(a.get("decides_by_shape").asBoolean()).as(a.get("verdict").asText()).isTrue();
    assertThat(a.get("verdict").asText())
        .startsWith("decides by the response's shape: text/event-stream, chunked: none")
        .contains("application/x-ndjson with a Content-Length: byte-threshold (byte-threshold=");
    assertThat(out.toString()).contains("shape 2 of 2: application/x-ndjson with a Content-Length");
  }

  /**
   * A server that ends every response cleanly after three frames, whatever was asked: each stream
   * is complete as HTTP but lost most of its frames; the map infers nothing from such a cell.
   */
  @Test
  void aCellThatLostFramesMakesTheMapInconclusive() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      byte[] head =
          ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII);
      ScriptedServer server =
          ScriptedServer.playing(
              vertx,
              List.of(
                  new ScriptedServer.Step(0, () -> head),
                  new ScriptedServer.Step(2, () -> ScriptedServer.frames(66, 0, 1, 2))));
      List<String> args =
          List.of(
              "map",
              "--results",
              dir.resolve("results").toString(),
              "--json",
              dir.resolve("map.json").toString(),
              "--target",
              "127.0.0.1:" + server.port(),
              "--emitter-listen",
              "127.0.0.1:" + FreePort.forALaterServer());
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      int code =
          Main.run(
              args.toArray(String[]::new),
              new PrintStream(out),
              new PrintStream(new ByteArrayOutputStream()));
      JsonNode a = Json.MAPPER.readTree(dir.resolve("map.json").toFile());
      System.out.println("a target that loses frames -> " + a.get("verdict").asText());
      // both runs spoiled by this host (a CPU hog's run-queue waits) end the pass before its losses
      // are read: a host stall, not a result
      HostStalls.skipIfSaidIn(a.get("verdict").asText());
      assertThat(a.get("kind").asText()).as(out.toString()).isEqualTo("inconclusive");
      assertThat(a.get("verdict").asText())
          .contains("frames of frame_size=60B interval=2ms frames=600 were lost")
          .contains("nothing is inferred from it");
      assertThat(code).isZero(); // answered: inconclusive, saying why
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  /**
   * An h2c-only listener answers an HTTP/1.1 request with HTTP/2's SETTINGS frame (nginx's
   * `nginx-h2c.conf` does): the map says the target speaks HTTP/2 by prior knowledge and to ask
   * with --http h2c, not that it lost bytes.
   */
  @Test
  void aTargetThatSpeaksOnlyH2cIsToldToBeAskedThatWay() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      byte[] settings = {0, 0, 6, 4, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, (byte) 128};
      ScriptedServer server =
          ScriptedServer.playing(vertx, List.of(new ScriptedServer.Step(0, () -> settings)));
      List<String> args =
          List.of(
              "map",
              "--results",
              dir.resolve("results").toString(),
              "--json",
              dir.resolve("map.json").toString(),
              "--target",
              "127.0.0.1:" + server.port(),
              "--emitter-listen",
              "127.0.0.1:" + FreePort.forALaterServer());
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int code = Main.run(args.toArray(String[]::new), new PrintStream(out), new PrintStream(err));
      JsonNode a = Json.MAPPER.readTree(dir.resolve("map.json").toFile());
      System.out.println("an h2c-only target -> " + a.get("verdict").asText());
      HostStalls.skipIfSaidIn(a.get("verdict").asText());
      assertThat(a.get("kind").asText()).as(out.toString()).isEqualTo("inconclusive");
      assertThat(a.get("verdict").asText())
          .contains(
              "the peer speaks HTTP/2 only (an HTTP/2 SETTINGS frame where an HTTP/1.x response was due");
      assertThat(a.get("next").get(0).asText())
          .isEqualTo("map it over HTTP/2 by prior knowledge: --http h2c");
      assertThat(code).as("every stream failed: %s", err).isEqualTo(1);
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  /**
   * The --repro bundle of a lab-started proxy: its README names the proxy's version, its config is
   * beside it, and its scenario runs the model as a built-in relay (no proxy) that holds the stream
   * as the proxy did while the direct path streams.
   */
  void reproducesWithoutTheProxy(Path bundle, String model) throws Exception {
    String readme = Files.readString(bundle.resolve("README.md"));
    assertThat(readme)
        .contains("a haproxy the lab started")
        .contains("HAProxy version")
        .contains("`" + model + "`");
    assertThat(bundle.resolve("proxy-config.txt")).exists();
    assertThat(
            Json.MAPPER
                .readTree(bundle.resolve("map.json").toFile())
                .get("model")
                .get("chain")
                .asText())
        .isEqualTo(model);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Path results = dir.resolve("bundle-results");
    int code =
        Main.run(
            new String[] {
              "run", bundle.resolve("scenario.yaml").toString(), "--results", results.toString()
            },
            new PrintStream(out),
            new PrintStream(err));
    if (code != 0) HostStalls.skipIfSaidIn(err.toString());
    assertThat(code).as(out + "\n" + err).isZero();
    Path folder;
    try (var l = Files.list(results)) {
      folder = l.findFirst().orElseThrow();
    }
    double direct = 0;
    double relay = 0;
    for (JsonNode cell :
        Json.MAPPER.readTree(folder.resolve("results.json").toFile()).get("cells")) {
      HostStalls.skipIfEveryRunWasSpoiledByThisHost(cell);
      double fpr = cell.get("metrics").get("frames_per_read").asDouble();
      if (cell.get("target").asText().equals("direct")) direct = fpr;
      if (cell.get("target").asText().equals("model")) relay = fpr;
    }
    System.out.printf(
        "MapCommandTest: the bundle's scenario: direct %.2f, the model %s %.2f frames per read%n",
        direct, model, relay);
    assertThat(direct).as("the direct path").isLessThanOrEqualTo(1.10);
    assertThat(relay).as("the model, as the proxy held the stream").isGreaterThan(10);
  }
}
