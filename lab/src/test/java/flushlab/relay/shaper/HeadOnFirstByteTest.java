package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.RelayFixture;
import flushlab.client.BatchResult;
import flushlab.relay.Relay;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The head waits for the first body byte: behind a 300 ms think, the head comes 300 ms late, with
 * the first event.
 */
class HeadOnFirstByteTest extends ShaperTestBase {
  /**
   * Milliseconds from sending the request to the first byte of the answer, read on a plain socket.
   */
  static double firstByteMs(int port, String query) throws Exception {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(10_000);
      long t0 = System.nanoTime();
      s.getOutputStream()
          .write(
              ("GET /sse?" + query + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      InputStream in = s.getInputStream();
      int first = in.read();
      double ms = (System.nanoTime() - t0) / 1e6;
      assertThat(first).isEqualTo('H');
      in.readAllBytes();
      return ms;
    }
  }

  @Test
  void theHeadLeavesOnlyWithTheFirstEvent() throws Exception {
    String query = "frames=3&size=60&interval=10ms&think=300ms";
    Relay held = RelayFixture.start(lab, "head-on-first-byte");
    Relay plain = RelayFixture.start(lab, "passthrough");
    try {
      double heldMs = firstByteMs(held.port(), query);
      double plainMs = firstByteMs(plain.port(), query);
      System.out.printf(
          "HeadOnFirstByteTest: first byte of the answer after %.1f ms through head-on-first-byte, %.1f ms through passthrough%n",
          heldMs, plainMs);
      assertThat(plainMs).isLessThan(150.0);
      assertThat(heldMs).isGreaterThan(280.0);
      // the metered client reports both numbers: through it the head comes with the first frame,
      // through passthrough at once
      BatchResult r = whole(through(query, "head-on-first-byte"), 3);
      BatchResult p = whole(through(query, "passthrough"), 3);
      assertThat(r.timeToHeadMs().p50())
          .as(r.oneLine())
          .isGreaterThan(280.0)
          .isLessThanOrEqualTo(r.ttftMs().p50());
      assertThat(p.timeToHeadMs().p50()).as(p.oneLine()).isLessThan(150.0);
      assertThat(p.ttftMs().p50()).as(p.oneLine()).isGreaterThan(280.0);
    } finally {
      lab.vertx.undeploy(held.deploymentID()).await(10, TimeUnit.SECONDS);
      lab.vertx.undeploy(plain.deploymentID()).await(10, TimeUnit.SECONDS);
    }
  }
}
