package flushlab.emitter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import flushlab.LabFixture;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.RequestPlan;
import flushlab.core.Json;
import flushlab.http.Header;
import flushlab.run.Warmup;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The emitter's OpenAI streams as an SDK reads them: the JDK's HTTP client, every SSE data line
 * parsed as JSON. Checks the fields SDKs and gateways act on, the usage chunk's counts against the
 * stream itself, errors in OpenAI's shape, and the Responses API's event sequence.
 */
class OpenAiStreamFormatTest {
  private static final String KEY = "sk-flushlab-test-" + Long.toHexString(System.nanoTime());
  private static LabFixture lab;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeAll
  static void start() throws Exception {
    lab = new LabFixture(EmitterOptions.loopback(0).withApiKey(KEY), 2);
    // warmed as every measuring command is before it measures (a cold process loads and compiles
    // each path on its first use, on the loop that runs it): unwarmed, the Responses stream this
    // class timed merged 5 of its 30 frames behind two stalls of a loop of up to 38 ms that no
    // host stall explained, and read 1.2 frames a read (a fresh-clone suite, s218, 2026-12-07)
    Warmup.runOnce(lab.vertx, false);
  }

  @AfterAll
  static void stop() throws Exception {
    lab.close();
  }

  /** One SSE event: its event: name (or null) and its data parsed as JSON (null for [DONE]). */
  record Event(String name, JsonNode data, String raw) {}

  private static HttpResponse<Stream<String>> post(String path, String body, boolean withKey)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + lab.emitter.port() + path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (withKey) b.header("Authorization", "Bearer " + KEY);
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofLines());
  }

  private static List<Event> events(String path, String body) throws Exception {
    HttpResponse<Stream<String>> r = post(path, body, true);
    assertThat(r.statusCode()).isEqualTo(200);
    List<Event> out = new ArrayList<>();
    String name = null;
    for (String line : (Iterable<String>) r.body()::iterator) {
      if (line.startsWith("event: ")) name = line.substring(7);
      if (line.startsWith("data: ")) {
        String d = line.substring(6);
        out.add(new Event(name, d.equals("[DONE]") ? null : Json.MAPPER.readTree(d), d));
        name = null;
      }
    }
    return out;
  }

  /**
   * A chat request whose messages are not an array of messages with known roles is answered 400 in
   * OpenAI's error shape, as OpenAI answers it.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"stream\":true}|messages|Missing required parameter: 'messages'.",
        "{\"stream\":true,\"messages\":\"hi\"}|messages|expected an array, but got a string",
        "{\"stream\":true,\"messages\":[]}|messages|empty array",
        "{\"stream\":true,\"messages\":[\"hi\"]}|messages[0]|expected an object, but got a string",
        "{\"stream\":true,\"messages\":[{\"content\":\"hi\"}]}|messages[0].role|Missing required parameter",
        "{\"stream\":true,\"messages\":[{\"role\":\"robot\",\"content\":\"hi\"}]}|messages[0].role|Invalid value: 'robot'"
      })
  void chatMessagesAreCheckedAsOpenAiChecksThem(String body, String param, String message)
      throws Exception {
    HttpResponse<Stream<String>> r = post("/v1/chat/completions", body, true);
    assertThat(r.statusCode()).isEqualTo(400);
    JsonNode error = Json.MAPPER.readTree(String.join("\n", r.body().toList())).get("error");
    assertThat(error.get("type").asText()).isEqualTo("invalid_request_error");
    assertThat(error.get("param").asText()).isEqualTo(param);
    assertThat(error.get("message").asText()).contains(message);
  }

  @Test
  void includeUsageEndsWithAUsageChunkWhoseCountsMatchTheStream() throws Exception {
    List<Event> ev =
        events(
            "/v1/chat/completions",
            "{\"model\":\"gpt-test\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
                + "\"pi_tokens\":25,\"pi_delay_ms\":1,\"messages\":[{\"role\":\"system\",\"content\":\"be brief\"},"
                + "{\"role\":\"user\",\"content\":\"count to three please\"}]}");
    assertThat(ev.get(ev.size() - 1).data()).isNull(); // [DONE]
    JsonNode usageChunk = ev.get(ev.size() - 2).data();
    List<JsonNode> chunks = ev.subList(0, ev.size() - 2).stream().map(Event::data).toList();
    long contentChunks =
        chunks.stream()
            .filter(
                c -> !c.path("choices").path(0).path("delta").path("content").asText("").isEmpty())
            .count();
    assertThat(usageChunk.get("choices").isArray()).isTrue();
    assertThat(usageChunk.get("choices")).isEmpty();
    assertThat(usageChunk.at("/usage/completion_tokens").asInt())
        .isEqualTo(25)
        .isEqualTo((int) contentChunks);
    assertThat(usageChunk.at("/usage/prompt_tokens").asInt())
        .isEqualTo(6); // "be brief" + "count to three please"
    assertThat(usageChunk.at("/usage/total_tokens").asInt()).isEqualTo(31);
    for (JsonNode c : chunks) {
      assertThat(c.get("object").asText()).isEqualTo("chat.completion.chunk");
      assertThat(c.get("model").asText()).isEqualTo("gpt-test");
      assertThat(c.get("system_fingerprint").asText()).isNotEmpty();
      assertThat(c.has("usage") && c.get("usage").isNull())
          .as("usage: null before the usage chunk")
          .isTrue();
      assertThat(c.at("/choices/0").has("logprobs") && c.at("/choices/0/logprobs").isNull())
          .isTrue();
    }
    assertThat(chunks.get(chunks.size() - 1).at("/choices/0/finish_reason").asText())
        .isEqualTo("stop");
    assertThat(chunks.get(0).at("/choices/0/delta/role").asText()).isEqualTo("assistant");
  }

  @Test
  void withoutIncludeUsageNoUsageFieldAndNoUsageChunk() throws Exception {
    List<Event> ev =
        events(
            "/v1/chat/completions",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"stream\":true,\"pi_tokens\":5,\"pi_delay_ms\":0}");
    assertThat(ev).hasSize(5 + 1 + 1); // tokens, finish chunk, [DONE]
    assertThat(ev.get(0).data().has("usage")).isFalse();
  }

  @Test
  void maxCompletionTokensCutsTheStreamWithFinishReasonLength() throws Exception {
    List<Event> ev =
        events(
            "/v1/chat/completions",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"stream\":true,\"pi_tokens\":25,\"max_completion_tokens\":10,\"pi_delay_ms\":0,"
                + "\"stream_options\":{\"include_usage\":true}}");
    JsonNode finish = ev.get(ev.size() - 3).data();
    assertThat(finish.at("/choices/0/finish_reason").asText()).isEqualTo("length");
    assertThat(ev.get(ev.size() - 2).data().at("/usage/completion_tokens").asInt()).isEqualTo(10);
    List<Event> legacy =
        events(
            "/v1/chat/completions",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"stream\":true,\"pi_tokens\":25,\"max_tokens\":7,\"pi_delay_ms\":0}");
    assertThat(legacy).hasSize(7 + 2);
  }

  @Test
  void refusalsComeBackAsOpenAiErrorObjects() throws Exception {
    HttpResponse<String> n =
        HTTP.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + lab.emitter.port() + "/v1/chat/completions"))
                .header("Authorization", "Bearer " + KEY)
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"stream\":true,\"n\":2}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(n.statusCode()).isEqualTo(400);
    assertThat(n.headers().firstValue("Content-Type")).hasValue("application/json");
    JsonNode e = Json.MAPPER.readTree(n.body()).get("error");
    assertThat(e.get("type").asText()).isEqualTo("invalid_request_error");
    assertThat(e.get("param").asText()).isEqualTo("n");
    assertThat(e.get("message").asText()).contains("one choice");
    assertThat(e.has("code")).isTrue();

    HttpResponse<Stream<String>> noKey =
        post(
            "/v1/chat/completions",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"stream\":true}",
            false);
    assertThat(noKey.statusCode()).isEqualTo(401);
    assertThat(
            Json.MAPPER
                .readTree(String.join("\n", noKey.body().toList()))
                .at("/error/code")
                .asText())
        .isEqualTo("invalid_api_key");

    HttpResponse<Stream<String>> nowhere = post("/v1/embeddings", "{}", true);
    assertThat(nowhere.statusCode()).isEqualTo(404);
    assertThat(String.join("", nowhere.body().toList()))
        .contains("\"error\"")
        .contains("/v1/embeddings");
  }

  @Test
  void theResponsesApiStreamsItsEventsInOrder() throws Exception {
    List<Event> ev =
        events(
            "/v1/responses",
            "{\"model\":\"gpt-test\",\"stream\":true,\"input\":\"say four words\",\"pi_tokens\":12,"
                + "\"pi_delay_ms\":1}");
    List<String> names = ev.stream().map(Event::name).toList();
    assertThat(names.subList(0, 4))
        .containsExactly(
            "response.created",
            "response.in_progress",
            "response.output_item.added",
            "response.content_part.added");
    assertThat(names.subList(4, 16)).containsOnly("response.output_text.delta");
    assertThat(names.subList(16, names.size()))
        .containsExactly(
            "response.output_text.done",
            "response.content_part.done",
            "response.output_item.done",
            "response.completed");
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < ev.size(); i++) {
      JsonNode d = ev.get(i).data();
      assertThat(d.get("type").asText()).isEqualTo(names.get(i));
      assertThat(d.get("sequence_number").asInt()).isEqualTo(i);
      if (names.get(i).equals("response.output_text.delta")) {
        text.append(d.get("delta").asText());
        assertThat(d.get("pi_seq").asInt()).isEqualTo(i - 4);
        assertThat(d.get("pi_ts").asLong()).isPositive();
      }
    }
    JsonNode completed = ev.get(ev.size() - 1).data().get("response");
    assertThat(completed.get("status").asText()).isEqualTo("completed");
    assertThat(completed.at("/usage/output_tokens").asInt()).isEqualTo(12);
    assertThat(completed.at("/usage/input_tokens").asInt()).isEqualTo(3);
    assertThat(completed.at("/output/0/content/0/text").asText()).isEqualTo(text.toString());
    assertThat(ev.get(16).data().get("text").asText()).isEqualTo(text.toString());
  }

  @Test
  void theMeteredClientTimesEveryResponsesDelta() throws Exception {
    RequestPlan plan =
        RequestPlan.responses("127.0.0.1", lab.emitter.port(), 30, 0, 5, "gpt-test")
            .withHeaders(List.of(new Header("Authorization", "Bearer " + KEY)));
    BatchResult r = lab.measurePaced(5_000_000L, plan, ClientOptions.single());
    assertThat(r.firstError()).isNull();
    assertThat(r.frames()).isEqualTo(30);
    assertThat(r.uncheckedFrames() + r.corruptFrames() + r.lostFrames()).isZero();
    // every delta read on its own, frames this host's stalls merged aside (s256: 1.25 frames a
    // read, 3 of the 6 extra frames read in a stall of 7 ms)
    assertThat(lab.framesPerReadOutsideHostStalls(r)).as(r.oneLine()).isLessThan(1.2);
  }
}
