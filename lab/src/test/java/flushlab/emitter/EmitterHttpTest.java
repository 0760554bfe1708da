package flushlab.emitter;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.LabTest;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetSocket;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The emitter's HTTP surface, seen by an ordinary HTTP client. */
class EmitterHttpTest extends LabTest {
  static WebClient web;

  @BeforeAll
  static void startWebClient() {
    web = WebClient.create(lab.vertx);
  }

  private HttpResponse<Buffer> get(String uri) throws Exception {
    return web.get(lab.emitter.port(), "127.0.0.1", uri).send().await(10, TimeUnit.SECONDS);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "/sse?size=20|'size': 20 B is out of range (allowed: 48..",
        "/sse?interval=50|'interval': '50' is not a duration",
        "/sse?frames=0|'frames': 0 is out of range (allowed: 1..1000000)",
        "/sse?transfer=gzip|'transfer': 'gzip' (allowed: chunked, close, chunked-always, length)",
        "/sse?colour=red|unknown parameter 'colour'",
        "/sse?header=NoColon|'header': 'NoColon' (allowed: Name:value",
        "/sse?frames=10&total=1KiB|give 'frames' or 'total', not both"
      })
  void badParametersGet400WithAOneLineReason(String uri, String reason) throws Exception {
    HttpResponse<Buffer> r = get(uri);
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.bodyAsString()).contains(reason).hasLineCount(1);
  }

  @Test
  void extraHeadersAndExactFrameSizesAreServed() throws Exception {
    HttpResponse<Buffer> r =
        get("/sse?frames=3&size=100&interval=0ms&header=X-Accel-Buffering:%20no");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.getHeader("X-Accel-Buffering")).isEqualTo("no");
    assertThat(r.getHeader("Content-Type")).isEqualTo("text/event-stream");
    assertThat(r.body().length()).isEqualTo(300);
  }

  /**
   * One response-head model for both protocols: a compressed stream with a header of the request's
   * own carries the same fields over HTTP/1.1 and over h2c, only the framing apart.
   */
  @Test
  void aStreamsHeadCarriesTheSameFieldsOverHttp11AndH2() throws Exception {
    String uri = "/sse?frames=3&size=100&interval=0ms&encoding=gzip&header=X-Accel-Buffering:%20no";
    WebClient h2 =
        WebClient.create(
            lab.vertx,
            new WebClientOptions()
                .setProtocolVersion(HttpVersion.HTTP_2)
                .setHttp2ClearTextUpgrade(false));
    try {
      Map<String, String> overHttp11 =
          fields(
              web.get(lab.emitter.port(), "127.0.0.1", uri)
                  .putHeader("Accept-Encoding", "gzip")
                  .send()
                  .await(10, TimeUnit.SECONDS));
      HttpResponse<Buffer> r2 =
          h2.get(lab.emitter.port(), "127.0.0.1", uri)
              .putHeader("Accept-Encoding", "gzip")
              .send()
              .await(10, TimeUnit.SECONDS);
      assertThat(r2.version()).isEqualTo(HttpVersion.HTTP_2);
      Map<String, String> overH2 = fields(r2);
      assertThat(overHttp11.remove("transfer-encoding")).isEqualTo("chunked");
      assertThat(overHttp11)
          .containsEntry("content-encoding", "gzip")
          .containsEntry("vary", "Accept-Encoding")
          .containsEntry("x-accel-buffering", "no")
          .isEqualTo(overH2);
    } finally {
      h2.close();
    }
  }

  /**
   * A response's header fields by lower-cased name, but for the stream's own number (each request
   * is a stream of its own).
   */
  private static Map<String, String> fields(HttpResponse<Buffer> r) {
    assertThat(r.statusCode()).isEqualTo(200);
    Map<String, String> m = new TreeMap<>();
    r.headers().forEach(e -> m.put(e.getKey().toLowerCase(Locale.ROOT), e.getValue()));
    assertThat(m.remove("x-flushlab-stream")).as("the stream's number").matches("[0-9]+");
    return m;
  }

  @Test
  void modelsAndNonStreamingCompletionsAnswerLikeOpenAi() throws Exception {
    JsonObject models = get("/v1/models").bodyAsJsonObject();
    assertThat(models.getJsonArray("data").getJsonObject(0).getString("id"))
        .isEqualTo("flushlab-echo");
    HttpResponse<Buffer> r =
        web.post(lab.emitter.port(), "127.0.0.1", "/v1/chat/completions")
            .sendJsonObject(
                new JsonObject()
                    .put("stream", false)
                    .put("pi_tokens", 4)
                    .put("pi_delay_ms", 0.5)
                    .put(
                        "messages",
                        new JsonArray()
                            .add(new JsonObject().put("role", "user").put("content", "hi"))))
            .await(10, TimeUnit.SECONDS);
    JsonObject body = r.bodyAsJsonObject();
    assertThat(body.getString("object")).isEqualTo("chat.completion");
    assertThat(
            body.getJsonArray("choices")
                .getJsonObject(0)
                .getJsonObject("message")
                .getString("content")
                .split(" "))
        .hasSize(4);
  }

  @Test
  void badChatFieldsGet400NamingTheField() throws Exception {
    HttpResponse<Buffer> r =
        web.post(lab.emitter.port(), "127.0.0.1", "/v1/chat/completions")
            .sendJsonObject(new JsonObject().put("stream", true).put("pi_tokens", -3))
            .await(10, TimeUnit.SECONDS);
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.bodyAsString()).contains("pi_tokens");
  }

  @Test
  void aChatBodyArrivingInSeveralReadsIsReadByContentLength() throws Exception {
    String body =
        "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"model\":\"m\",\"stream\":true,\"pi_tokens\":5,\"pi_delay_ms\":0}";
    String head =
        "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n"
            + "Content-Length: "
            + body.length()
            + "\r\n\r\n";
    CompletableFuture<String> response = new CompletableFuture<>();
    NetSocket so =
        lab.vertx
            .createNetClient()
            .connect(lab.emitter.port(), "127.0.0.1")
            .await(5, TimeUnit.SECONDS);
    StringBuilder got = new StringBuilder();
    so.handler(b -> got.append(b.toString(StandardCharsets.UTF_8)));
    so.closeHandler(v -> response.complete(got.toString()));
    // Head, then the body in two parts, each a separate write with time between (a proxy may do
    // this).
    so.write(head);
    lab.vertx.setTimer(30, id -> so.write(body.substring(0, 10)));
    lab.vertx.setTimer(60, id -> so.write(body.substring(10)));
    String text = response.get(10, TimeUnit.SECONDS);
    assertThat(text).startsWith("HTTP/1.1 200 OK");
    assertThat(text).contains("\"pi_seq\":4").contains("data: [DONE]");
    assertThat(text.split("\"pi_ts\":", -1)).hasSize(6);
  }

  /**
   * A client that pipelines a second HTTP/1.1 request behind its h2c Upgrade request (before the
   * 101, after which the connection is HTTP/2's): the 101 is the last thing said in HTTP/1.1; the
   * second request, read from bytes that belong to the old protocol, is never answered in it.
   */
  @Test
  void aRequestPipelinedBehindAnUpgradeIsNeverAnsweredAsHttp11() throws Exception {
    String both =
        "GET /sse?frames=3&interval=0ms HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\n"
            + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\n\r\n"
            + "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
    try (Socket so = new Socket("127.0.0.1", lab.emitter.port())) {
      so.setSoTimeout(10_000);
      so.getOutputStream().write(both.getBytes(StandardCharsets.US_ASCII));
      // the client says no more: the emitter answers what it read, then closes
      so.shutdownOutput();
      String text = new String(so.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
      assertThat(text).startsWith("HTTP/1.1 101 Switching Protocols");
      assertThat(text.substring("HTTP/1.1 101".length())).doesNotContain("HTTP/1.1");
    }
  }
}
