package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.HostStalls;
import flushlab.client.BatchResult;
import flushlab.core.HiccupMeter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * SSE comment keep-alives (the emitter's sse_keepalive=) through a think: the client ignores them
 * and reads the stream whole, and a load balancer's idle timeout shorter than the think, which cuts
 * the stream without them, is kept open by them.
 */
class KeepAliveThroughIdleTimeoutTest extends ShaperTestBase {
  @Test
  void commentsDuringAThinkKeepAnIdleTimeoutFromCuttingTheStream() throws Exception {
    String think = "frames=5&size=60&interval=10ms&think=600ms";
    HiccupMeter.get();
    long from = System.nanoTime();
    HttpResponse<String> raw =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .build()
            .send(
                HttpRequest.newBuilder(URI.create(lab.sseUrl(think + "&sse_keepalive=100ms")))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    long comments = raw.body().lines().filter(l -> l.equals(": keep-alive")).count();
    // a keep-alive's timer that this host kept from firing is not the emitter's (s279: 3 comments
    // while another build ran beside the suite)
    if (comments < 4 || comments > 6)
      HostStalls.skipIfBusy(from, System.nanoTime(), comments + " comments: " + raw.body());
    assertThat(comments).as(raw.body()).isBetween(4L, 6L); // one per 100 ms of the 600 ms think
    BatchResult cut = through(think, "idle-timeout=250ms");
    assertThat(cut.streamsOk()).as(cut.oneLine()).isZero();
    BatchResult kept = whole(through(think + "&sse_keepalive=100ms", "idle-timeout=250ms"), 5);
    assertThat(kept.ttftMs().p50()).as(kept.oneLine()).isGreaterThan(550.0);
  }
}
