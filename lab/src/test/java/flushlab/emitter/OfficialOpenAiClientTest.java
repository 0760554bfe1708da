package flushlab.emitter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.BadRequestException;
import com.openai.errors.UnauthorizedException;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseStreamEvent;
import flushlab.LabFixture;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * OpenAI's official Java SDK against the emitter: every chunk and event passes the SDK's strict
 * validation (each field it requires, of the type it requires), the usage chunk and the Responses
 * API's closing event agree with what was streamed, and refusals arrive as the SDK's typed errors
 * with OpenAI's fields.
 */
class OfficialOpenAiClientTest {
  private static final String KEY = "sk-flushlab-sdk-" + Long.toHexString(System.nanoTime());
  private static LabFixture lab;
  private static OpenAIClient client;

  @BeforeAll
  static void start() throws Exception {
    lab = new LabFixture(EmitterOptions.loopback(0).withApiKey(KEY), 2);
    client =
        OpenAIOkHttpClient.builder()
            .baseUrl("http://127.0.0.1:" + lab.emitter.port() + "/v1")
            .apiKey(KEY)
            .maxRetries(0)
            .build();
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    lab.close();
  }

  @Test
  void aChatStreamWithItsUsageChunkPassesTheSdksValidation() {
    ChatCompletionCreateParams params =
        ChatCompletionCreateParams.builder()
            .model("gpt-test")
            .addUserMessage("count to three")
            .streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build())
            .putAdditionalBodyProperty("pi_tokens", JsonValue.from(15))
            .putAdditionalBodyProperty("pi_delay_ms", JsonValue.from(1))
            .build();
    List<ChatCompletionChunk> chunks = new ArrayList<>();
    try (StreamResponse<ChatCompletionChunk> stream =
        client.chat().completions().createStreaming(params)) {
      stream.stream().forEach(c -> chunks.add(c.validate()));
    }
    StringBuilder text = new StringBuilder();
    for (ChatCompletionChunk c : chunks) {
      c.choices().forEach(ch -> ch.delta().content().ifPresent(text::append));
    }
    ChatCompletionChunk last = chunks.get(chunks.size() - 1);
    assertThat(last.choices()).isEmpty();
    assertThat(last.usage()).isPresent();
    assertThat(last.usage().get().completionTokens()).isEqualTo(15);
    assertThat(text.toString().trim().split(" ")).hasSize(15);
    assertThat(chunks.get(0).systemFingerprint()).isPresent();
    assertThat(chunks.get(chunks.size() - 2).choices().get(0).finishReason())
        .hasValueSatisfying(r -> assertThat(r.asString()).isEqualTo("stop"));
  }

  @Test
  void aResponsesStreamPassesTheSdksValidation() {
    ResponseCreateParams params =
        ResponseCreateParams.builder()
            .model("gpt-test")
            .input("say eight words")
            .maxOutputTokens(8)
            .putAdditionalBodyProperty("pi_delay_ms", JsonValue.from(1))
            .build();
    List<ResponseStreamEvent> events = new ArrayList<>();
    try (StreamResponse<ResponseStreamEvent> stream = client.responses().createStreaming(params)) {
      stream.stream().forEach(e -> events.add(e.validate()));
    }
    assertThat(events.get(0).isCreated()).isTrue();
    StringBuilder text = new StringBuilder();
    events.stream()
        .filter(ResponseStreamEvent::isOutputTextDelta)
        .forEach(e -> text.append(e.outputTextDelta().get().delta()));
    ResponseStreamEvent last = events.get(events.size() - 1);
    assertThat(last.isCompleted()).isTrue();
    var response = last.completed().get().response();
    StringBuilder finalText = new StringBuilder();
    response
        .output()
        .forEach(
            item ->
                item.message()
                    .ifPresent(
                        m ->
                            m.content()
                                .forEach(
                                    c ->
                                        c.outputText()
                                            .ifPresent(t -> finalText.append(t.text())))));
    assertThat(finalText.toString()).isEqualTo(text.toString());
    assertThat(response.usage().get().outputTokens()).isEqualTo(8);
    assertThat(events.stream().filter(ResponseStreamEvent::isOutputTextDelta).count()).isEqualTo(8);
  }

  @Test
  void refusalsAreTheSdksTypedErrors() {
    ChatCompletionCreateParams twoChoices =
        ChatCompletionCreateParams.builder().model("gpt-test").addUserMessage("hi").n(2).build();
    assertThatThrownBy(() -> client.chat().completions().create(twoChoices))
        .isInstanceOfSatisfying(
            BadRequestException.class,
            e -> {
              assertThat(e.statusCode()).isEqualTo(400);
              assertThat(e.param()).hasValue("n");
              assertThat(e.type()).hasValue("invalid_request_error");
            });
    OpenAIClient wrongKey =
        OpenAIOkHttpClient.builder()
            .baseUrl("http://127.0.0.1:" + lab.emitter.port() + "/v1")
            .apiKey("sk-wrong")
            .maxRetries(0)
            .build();
    try {
      assertThatThrownBy(() -> wrongKey.chat().completions().create(twoChoices))
          .isInstanceOfSatisfying(
              UnauthorizedException.class, e -> assertThat(e.code()).hasValue("invalid_api_key"));
    } finally {
      wrongKey.close();
    }
  }
}
