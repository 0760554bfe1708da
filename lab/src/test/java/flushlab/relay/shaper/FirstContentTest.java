package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.RelayFixture;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.RequestPlan;
import flushlab.relay.Relay;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A Responses stream announces itself at once (response.created and the rest) and thinks 400 ms
 * before its first delta: through first-content the announcement waits for that delta, so the first
 * body byte comes 400 ms late; through passthrough at once. The stream itself arrives whole.
 */
class FirstContentTest extends ShaperTestBase {
  static final String BODY =
      "{\"model\":\"m\",\"stream\":true,\"input\":\"hi\",\"pi_tokens\":5,\"pi_think_ms\":400,\"pi_delay_ms\":10}";

  /**
   * Milliseconds from the request to the first byte after the response head, read on a plain
   * socket.
   */
  static double firstBodyByteMs(int port) throws Exception {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(10_000);
      long t0 = System.nanoTime();
      s.getOutputStream()
          .write(
              ("POST /v1/responses HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n"
                      + "Content-Length: "
                      + BODY.length()
                      + "\r\n\r\n"
                      + BODY)
                  .getBytes(StandardCharsets.US_ASCII));
      InputStream in = s.getInputStream();
      int matched = 0;
      while (matched < 4) {
        int b = in.read();
        if (b < 0) throw new AssertionError("closed before the head ended");
        matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
      }
      assertThat(in.read()).isNotNegative();
      double ms = (System.nanoTime() - t0) / 1e6;
      in.readAllBytes();
      return ms;
    }
  }

  @Test
  void theAnnouncementWaitsForTheFirstDelta() throws Exception {
    Relay held = RelayFixture.start(lab, "first-content=responses");
    Relay plain = RelayFixture.start(lab, "passthrough");
    try {
      double heldMs = firstBodyByteMs(held.port());
      double plainMs = firstBodyByteMs(plain.port());
      System.out.printf(
          "FirstContentTest: first body byte after %.1f ms through first-content, %.1f ms through passthrough%n",
          heldMs, plainMs);
      assertThat(plainMs).isLessThan(200.0);
      assertThat(heldMs).isGreaterThan(380.0);
      BatchResult r =
          lab.measure(
              RequestPlan.responses("127.0.0.1", held.port(), 5, 400, 10, "m"),
              ClientOptions.single());
      assertThat(r.errorCount()).as(r.oneLine()).isZero();
      assertThat(r.frames()).isEqualTo(5);
      assertThat(r.framesPerRead()).as(r.oneLine()).isLessThanOrEqualTo(1.3);
    } finally {
      lab.vertx.undeploy(held.deploymentID()).await(10, TimeUnit.SECONDS);
      lab.vertx.undeploy(plain.deploymentID()).await(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void withAnyItHoldsOnlyTheCommentsOfAThink() throws Exception {
    // comments every 100 ms through a 400 ms think: held until the first frame, which then leaves
    // at once
    BatchResult r =
        whole(
            through(
                "frames=5&size=60&interval=10ms&think=400ms&sse_keepalive=100ms",
                "first-content=any"),
            5);
    assertThat(r.framesPerRead()).as(r.oneLine()).isLessThanOrEqualTo(1.3);
    assertThat(r.emitToRecvMs().p50()).as(r.oneLine()).isLessThan(timing.notHeldMs());
  }
}
