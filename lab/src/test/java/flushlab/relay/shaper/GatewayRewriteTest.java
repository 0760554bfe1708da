package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.RelayFixture;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.RequestPlan;
import flushlab.relay.Relay;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A gateway that re-serialises every OpenAI event: the client still times every token when the pi_*
 * fields survive (keys reversed, spaces added), and counts tokens it cannot time when they were
 * dropped; the bytes on the wire really are rewritten.
 */
class GatewayRewriteTest extends ShaperTestBase {
  private static BatchResult chatThrough(RequestPlan plan, String... shapers) throws Exception {
    Relay relay = RelayFixture.start(lab, shapers);
    try {
      // the chat streams here send a token every 10 ms
      return lab.measurePaced(
          10_000_000L,
          () -> lab.measure(plan.at("127.0.0.1", relay.port()), ClientOptions.single()));
    } finally {
      lab.vertx.undeploy(relay.deploymentID()).await(10, TimeUnit.SECONDS);
    }
  }

  private static RequestPlan chat(int tokens) {
    return RequestPlan.chat("127.0.0.1", lab.emitter.port(), tokens, 0, 10);
  }

  @Test
  void reserialisedChunksKeepTheirSequenceAndTimestamp() throws Exception {
    BatchResult r = chatThrough(chat(30), "gateway-rewrite");
    assertThat(r.firstError()).isNull();
    assertThat(r.frames()).isEqualTo(30);
    assertThat(r.uncheckedFrames() + r.corruptFrames() + r.lostFrames() + r.reorderedFrames())
        .isZero();
    assertThat(r.framesPerRead()).isLessThan(1.2);
    // each event leaves when it is complete, not later: as soon as the direct path delivers a frame
    assertThat(r.emitToRecvMs().p50())
        .as("emit->recv p50 through the rewriting gateway")
        .isLessThan(timing.notHeldMs());
    BatchResult responses =
        chatThrough(
            RequestPlan.responses("127.0.0.1", lab.emitter.port(), 20, 0, 10, "m"),
            "gateway-rewrite");
    assertThat(responses.frames()).isEqualTo(20);
    assertThat(responses.uncheckedFrames() + responses.corruptFrames()).isZero();
  }

  @Test
  void tokensWhosePiFieldsWereDroppedAreCountedAndSaidToBeUntimed() throws Exception {
    BatchResult r = chatThrough(chat(30), "gateway-rewrite,drop-pi=true");
    assertThat(r.firstError()).isNull();
    assertThat(r.uncheckedFrames()).isEqualTo(30);
    assertThat(r.lostFrames() + r.corruptFrames()).isZero();
    assertThat(r.oneLine()).contains("30 tokens without pi_* fields (counted, not timed)");
  }

  @Test
  void theBytesOnTheWireAreRewritten() throws Exception {
    Relay relay = RelayFixture.start(lab, "gateway-rewrite");
    try {
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + relay.port() + "/v1/chat/completions"))
                      .POST(
                          HttpRequest.BodyPublishers.ofString(
                              "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"stream\":true,\"pi_tokens\":3,\"pi_delay_ms\":0}"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      List<String> data = r.body().lines().filter(l -> l.startsWith("data: {")).toList();
      assertThat(data).hasSize(4);
      assertThat(data.get(0))
          .startsWith("data: {\"pi_ts\": ")
          .contains("\"pi_seq\": 0, ")
          .endsWith(
              "\"id\": \"chatcmpl-flushlab-"
                  + data.get(0).replaceAll(".*chatcmpl-flushlab-(\\d+).*", "$1")
                  + "\"}");
      assertThat(r.body()).contains("data: [DONE]");
    } finally {
      lab.vertx.undeploy(relay.deploymentID()).await(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void spacingLeavesStringsAlone() {
    assertThat(GatewayRewrite.spaced("{\"a\":\"x:y,z\\\"q\",\"b\":[1,2]}"))
        .isEqualTo("{\"a\": \"x:y,z\\\"q\", \"b\": [1, 2]}");
    assertThat(
            new String(
                GatewayRewrite.rewrite(
                    "event: e\r\ndata: {\"a\":1,\"b\":2}\r\n\r\n".getBytes(StandardCharsets.UTF_8),
                    false),
                StandardCharsets.UTF_8))
        .isEqualTo("event: e\r\ndata: {\"b\": 2, \"a\": 1}\r\n\r\n");
  }
}
