package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.RelayFixture;
import flushlab.client.BatchResult;
import flushlab.relay.Relay;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * reframe: whole events pass unchanged; events an upstream hop split into pieces leave whole, one
 * read each (the pieces' delay becomes the event's); comments are kept or dropped as asked.
 */
class ReframeTest extends ShaperTestBase {
  @Test
  void wholeEventsPassUnchangedAndSplitOnesLeaveWhole() throws Exception {
    BatchResult plain = whole(through(TOKENS_50MS, "reframe"), 41);
    assertThat(plain.framesPerRead()).as(plain.oneLine()).isLessThanOrEqualTo(1.05);
    assertThat(plain.emitToRecvMs().p50()).as(plain.oneLine()).isLessThan(timing.notHeldMs());
    // 60 B events sliced in 20 B pieces 5 ms apart: without reframe the client reads pieces, with
    // it whole events
    BatchResult sliced = whole(through(TOKENS_50MS, "slicer,size=20B,delay=5ms"), 41);
    BatchResult reframed = whole(through(TOKENS_50MS, "slicer,size=20B,delay=5ms", "reframe"), 41);
    System.out.printf(
        "ReframeTest: bytes per read p50 %.0f sliced, %.0f sliced then reframed%n",
        sliced.bytesPerRead().p50(), reframed.bytesPerRead().p50());
    assertThat(sliced.bytesPerRead().p50()).isLessThanOrEqualTo(25.0);
    assertThat(reframed.bytesPerRead().p50()).as(reframed.oneLine()).isGreaterThanOrEqualTo(60.0);
    assertThat(reframed.framesPerRead()).as(reframed.oneLine()).isLessThanOrEqualTo(1.05);
  }

  @Test
  void commentsAreKeptOrDroppedAsAsked() throws Exception {
    String query = "frames=3&size=60&interval=10ms&think=350ms&sse_keepalive=100ms";
    Relay keep = RelayFixture.start(lab, "reframe");
    Relay drop = RelayFixture.start(lab, "reframe,comments=drop");
    try {
      HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      String kept =
          http.send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + keep.port() + "/sse?" + query))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      String dropped =
          http.send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + drop.port() + "/sse?" + query))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      assertThat(kept).contains(": keep-alive");
      assertThat(dropped).doesNotContain(": keep-alive");
      assertThat(dropped.lines().filter(l -> l.startsWith("data: ")).count()).isEqualTo(3);
    } finally {
      lab.vertx.undeploy(keep.deploymentID()).await(10, TimeUnit.SECONDS);
      lab.vertx.undeploy(drop.deploymentID()).await(10, TimeUnit.SECONDS);
    }
  }
}
