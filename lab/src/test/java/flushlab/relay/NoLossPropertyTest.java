package flushlab.relay;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.LabTest;
import flushlab.RelayFixture;
import flushlab.ScriptedServer;
import flushlab.ScriptedServer.Step;
import flushlab.Seeds;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every non-fault shaper, alone and chained, forwards exactly the bytes it is given: random
 * payloads written upstream in random pieces at random moments come out byte for byte. (reframe
 * re-chunks a chunked body one event per chunk, so its framing bytes differ by design: ReframeTest
 * checks its events.)
 */
class NoLossPropertyTest extends LabTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "passthrough",
        "drain-and-flush",
        "byte-threshold=700B",
        "timer=3ms",
        "timer=3ms,periodic=true",
        "threshold-or-timer,bytes=1KiB,after=2ms",
        "cork",
        "nagle",
        "proxy-buffer=4KiB",
        "byte-threshold=300B|timer=2ms",
        "cork|proxy-buffer=2KiB|drain-and-flush",
        "nagle|byte-threshold=5KiB|passthrough",
        "window=8KiB,update=timer,after=2ms",
        "window=4KiB,rtt=1ms|one-late",
        "h2-buffer=4KiB",
        "h2-buffer=64KiB,idle=2ms",
        "one-late",
        "head-on-first-byte",
        "first-content=any",
        "stream-if,preset=cloudflared",
        "stream-if,preset=go,otherwise=drain|one-late"
      })
  void bytesOutEqualBytesIn(String chain) throws Exception {
    Random random = new Random(Seeds.seed("NoLossPropertyTest"));
    for (int trial = 0; trial < 5; trial++) {
      long seed = random.nextLong();
      Random r = new Random(seed);
      byte[] body = new byte[1 + r.nextInt(r.nextBoolean() ? 2000 : 120_000)];
      r.nextBytes(body);
      boolean chunked = r.nextBoolean();
      byte[] response = response(body, chunked, r);
      List<Step> steps = new ArrayList<>();
      for (int off = 0; off < response.length; ) {
        int n = Math.min(response.length - off, 1 + r.nextInt(r.nextBoolean() ? 50 : 9000));
        byte[] piece = Arrays.copyOfRange(response, off, off + n);
        steps.add(new Step(r.nextInt(4) == 0 ? r.nextInt(3) : 0, () -> piece));
        off += n;
      }
      try (ScriptedServer upstream = ScriptedServer.playing(lab.vertx, steps)) {
        Relay relay =
            RelayFixture.start(
                lab, RelayOptions.loopback(upstream.port(), List.of(chain.split("\\|"))));
        try {
          byte[] got = fetch(relay.port());
          assertThat(got)
              .as("chain %s, seed %d, %d bytes, chunked %s", chain, seed, response.length, chunked)
              .isEqualTo(response);
        } finally {
          lab.vertx.undeploy(relay.deploymentID()).await(10, TimeUnit.SECONDS);
        }
      }
    }
  }

  /**
   * The head split right inside its blank line ("\r\n\r" | "\n..."), the second part 20 ms later:
   * the relay marks the response's start only with the piece that completes the head, after the
   * first piece has gone by. head-on-first-byte once let that first piece through and looked for
   * the head's end again in the body (a suite run of 2026-12-03: "a response head over 65536 bytes"
   * for a 92 KB binary body).
   */
  @Test
  void aHeadSplitInsideItsBlankLineIsHeldWholeAndTheBodyFollows() throws Exception {
    byte[] body = new byte[90_000];
    new Random(7).nextBytes(body);
    byte[] response = response(body, true, new Random(7));
    int blank = new String(response, StandardCharsets.ISO_8859_1).indexOf("\r\n\r\n") + 3;
    byte[] first = Arrays.copyOfRange(response, 0, blank);
    byte[] rest = Arrays.copyOfRange(response, blank, response.length);
    try (ScriptedServer upstream =
        ScriptedServer.playing(
            lab.vertx, List.of(new Step(0, () -> first), new Step(20, () -> rest)))) {
      Relay relay =
          RelayFixture.start(
              lab, RelayOptions.loopback(upstream.port(), List.of("head-on-first-byte")));
      try {
        assertThat(fetch(relay.port())).isEqualTo(response);
      } finally {
        lab.vertx.undeploy(relay.deploymentID()).await(10, TimeUnit.SECONDS);
      }
    }
  }

  private static byte[] response(byte[] body, boolean chunked, Random r) {
    Buffer b = Buffer.buffer();
    if (chunked) {
      b.appendString(
          "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
      for (int off = 0; off < body.length; ) {
        int n = Math.min(body.length - off, 1 + r.nextInt(4000));
        b.appendString(Integer.toHexString(n) + "\r\n")
            .appendBytes(body, off, n)
            .appendString("\r\n");
        off += n;
      }
      b.appendString("0\r\n\r\n");
    } else {
      b.appendString(
          "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: "
              + body.length
              + "\r\n\r\n");
      b.appendBytes(body);
    }
    return b.getBytes();
  }

  private static byte[] fetch(int port) throws Exception {
    CompletableFuture<byte[]> done = new CompletableFuture<>();
    NetSocket so =
        lab.vertx.createNetClient().connect(port, "127.0.0.1").await(5, TimeUnit.SECONDS);
    Buffer got = Buffer.buffer();
    so.handler(got::appendBuffer);
    so.closeHandler(v -> done.complete(got.getBytes()));
    so.write(
        Buffer.buffer("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
    return done.get(30, TimeUnit.SECONDS);
  }
}
