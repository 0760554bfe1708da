package flushlab.relay;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.Await;
import flushlab.LabFixture;
import flushlab.RelayFixture;
import flushlab.ScriptedServer;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import flushlab.client.StreamError;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A relay says what went wrong instead of closing silently, and serves a bounded number of clients.
 */
class RelayFailuresTest {

  @Test
  void aConnectionOnWhichNothingMovesIsClosedButADrainLongerThanTheIdleTimeoutIsNot()
      throws Exception {
    try (LabFixture lab = new LabFixture()) {
      List<String> log = new ArrayList<>();
      RelayOptions options =
          RelayOptions.loopback(lab.emitter.port(), List.of("drain-and-flush"))
              .withIdleTimeoutNanos(300_000_000L);
      Relay relay =
          new Relay(
              options,
              line -> {
                synchronized (log) {
                  log.add(line);
                }
              });
      lab.vertx.deployVerticle(relay).await(10, TimeUnit.SECONDS);
      try (Socket idle = new Socket()) {
        idle.connect(new InetSocketAddress("127.0.0.1", relay.port()), 5000);
        idle.setSoTimeout(10_000);
        // 12 frames 100 ms apart, held whole until the end: the client sees nothing for ~1.1 s,
        // almost four idle timeouts, yet upstream keeps sending, so the connection is not idle.
        BatchResult held =
            lab.measure(
                "http://127.0.0.1:" + relay.port() + "/sse?frames=12&size=60&interval=100ms");
        assertThat(held.errorCount()).as(held.toString()).isZero();
        assertThat(held.frames()).isEqualTo(12);
        assertThat(held.framesPerRead()).isEqualTo(12.0);
        long start = System.nanoTime();
        assertThat(idle.getInputStream().read())
            .as("the idle connection, closed by the relay")
            .isEqualTo(-1);
        assertThat((System.nanoTime() - start) / 1_000_000)
            .as("ms before it was closed (the timeout had mostly passed)")
            .isLessThan(5_000);
      }
      synchronized (log) {
        assertThat(log).anyMatch(l -> l.contains("nothing moved for 300ms"));
      }
    }
  }

  @Test
  void anUpstreamThatClosesWithoutAnsweringGives502AndALogLine() throws Exception {
    try (LabFixture lab = new LabFixture();
        ScriptedServer mute =
            new ScriptedServer(lab.vertx, (so, self) -> so.handler(b -> so.close()))) {
      List<String> log = new ArrayList<>();
      Relay relay =
          new Relay(
              new RelayOptions("127.0.0.1", 0, "127.0.0.1", mute.port(), List.of(), false),
              line -> {
                synchronized (log) {
                  log.add(line);
                }
              });
      lab.vertx.deployVerticle(relay).await(10, TimeUnit.SECONDS);
      BatchResult r = lab.measure("http://127.0.0.1:" + relay.port() + "/sse?frames=3");
      assertThat(r.errorCount()).isEqualTo(1);
      assertThat(r.streamResults().get(0).error()).isEqualTo(StreamError.HTTP_STATUS);
      assertThat(r.streamResults().get(0).errorMessage())
          .contains("HTTP 502")
          .contains("closed the connection without answering the request");
      synchronized (log) {
        assertThat(log).anyMatch(l -> l.contains("closed the connection without answering"));
      }
    }
  }

  @Test
  void oneClientOverTheConnectionCapIsAnswered503() throws Exception {
    try (LabFixture lab = new LabFixture()) {
      Relay relay =
          RelayFixture.start(
              lab,
              RelayOptions.loopback(lab.emitter.port(), List.of("passthrough"))
                  .withLimits(1, RelayOptions.DEFAULT_MAX_HELD_BYTES));
      try (Socket first = connect(relay.port())) {
        first
            .getOutputStream()
            .write(
                "GET /sse?frames=100&interval=10ms HTTP/1.1\r\nHost: x\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
        first.getInputStream().read(new byte[100]); // the first is being served
        try (Socket second = connect(relay.port())) {
          assertThat(readAll(second.getInputStream()))
              .startsWith("HTTP/1.1 503")
              .contains("too many connections");
        }
      }
      Await.until(
          "a slot is free again",
          5000,
          () -> {
            try (Socket again = connect(relay.port())) {
              again
                  .getOutputStream()
                  .write(
                      "GET /sse?frames=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                          .getBytes(StandardCharsets.US_ASCII));
              return readAll(again.getInputStream()).startsWith("HTTP/1.1 200");
            } catch (Exception e) {
              return false;
            }
          });
    }
  }

  /**
   * Each drain-and-flush connection may hold 16 MiB, but all of a relay's connections together hold
   * at most --max-held: the connection that would pass it gets a 502 naming that cap, and the
   * others are untouched.
   */
  @Test
  void theRelayWideHeldCapFailsOnlyTheConnectionThatWouldPassIt() throws Exception {
    try (LabFixture lab = new LabFixture()) {
      Relay relay =
          RelayFixture.start(
              lab,
              RelayOptions.loopback(lab.emitter.port(), List.of("drain-and-flush"))
                  .withLimits(16, 100_000));
      MeteredClient client =
          new MeteredClient(lab.vertx, ClientOptions.single().withRequests(2, 2));
      // two 64 KB streams at once: together 128 KB held, over the 100 KB cap. Each lasts 1.3 s,
      // so that they overlap even when this host holds the second one back: at 5 ms a frame (0.3 s)
      // a suite run whose host was loaded read both whole (s158)
      BatchResult r =
          client
              .run(
                  RequestPlan.get(
                      "http://127.0.0.1:"
                          + relay.port()
                          + "/sse?frames=64&size=1000&interval=20ms"))
              .await(30, TimeUnit.SECONDS);
      client.close();
      assertThat(r.streamsOk()).isEqualTo(1);
      assertThat(r.errorCount()).isEqualTo(1);
      assertThat(r.errors().get(0).get("example").toString())
          .contains("HTTP 502")
          .contains("cap of 100000 bytes over all connections");
      assertThat(relay.heldBytes().await(5, TimeUnit.SECONDS)).isZero();
      // and with the cap free again, one stream alone passes
      assertThat(
              lab.measure(
                      "http://127.0.0.1:" + relay.port() + "/sse?frames=64&size=1000&interval=1ms")
                  .streamsOk())
          .isEqualTo(1);
    }
  }

  static Socket connect(int port) throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
    s.setSoTimeout(10_000);
    return s;
  }

  static String readAll(InputStream in) throws IOException {
    return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
  }
}
