package flushlab.emitter;

import com.fasterxml.jackson.databind.JsonNode;
import flushlab.core.Json;
import flushlab.stream.StreamSpec;
import java.util.List;
import java.util.function.Consumer;

/**
 * What a {@code POST /v1/chat/completions} or {@code POST /v1/responses} request asks for. The
 * token count, think time and inter-token delay ride in extra fields that real gateways pass
 * through unchanged; the names are those of the sse-latency tool (pi_tokens, pi_think_ms,
 * pi_delay_ms) so its clients work here. OpenAI's own limits act as OpenAI's do: the response stops
 * at {@code max_completion_tokens} (or the older {@code max_tokens}) with finish_reason "length";
 * {@code n} other than 1 is refused (the lab streams one choice).
 *
 * @param tokens tokens the response carries (pi_tokens, or the default, cut at the limits)
 * @param cutByLimit true when a max_*_tokens limit cut the response (finish_reason "length")
 * @param includeUsage stream_options.include_usage: a final chunk with the usage, usage null before
 * @param promptTokens the words of the prompt (the lab has no tokenizer; a word stands for a token)
 */
public record ChatRequestSpec(
    boolean stream,
    int tokens,
    long thinkNanos,
    long delayNanos,
    String model,
    boolean cutByLimit,
    boolean includeUsage,
    int promptTokens) {
  public static final int DEFAULT_TOKENS = 1000;
  public static final long DEFAULT_DELAY_NANOS = 5_000_000L;
  public static final int MAX_TOKENS = 1_000_000;
  public static final double MAX_MS = 60_000;

  /**
   * OpenAI's model names are short; a longer one is refused rather than repeated in every event.
   */
  public static final int MAX_MODEL_CHARS = 256;

  /** A non-streaming completion is built in memory: about 6 B per token. */
  public static final int MAX_NON_STREAMING_TOKENS = 100_000;

  /** The roles a chat message may have (OpenAI's list, as its 400 names them). */
  static final List<String> ROLES =
      List.of("system", "assistant", "user", "function", "tool", "developer");

  /**
   * A chat completion's body: as {@link #parse(byte[])}, and its {@code messages} checked as OpenAI
   * checks them.
   */
  public static ChatRequestSpec parseChat(byte[] body) {
    ChatRequestSpec spec = parse(body);
    checkMessages(body);
    return spec;
  }

  /**
   * OpenAI answers 400 invalid_request_error for a chat request whose messages are missing, not an
   * array, empty, or hold something that is not a message with a known role; the official SDKs
   * surface that, so a gateway test against this emitter sees what it would see against OpenAI.
   */
  private static void checkMessages(byte[] body) {
    JsonNode root;
    try {
      root = Json.MAPPER.readTree(body);
    } catch (Exception e) {
      return; // parse() has already refused it
    }
    JsonNode messages = root.path("messages");
    if (messages.isMissingNode() || messages.isNull())
      throw OpenAiError.invalid("messages", "Missing required parameter: 'messages'.");
    if (!messages.isArray()) {
      throw OpenAiError.invalid(
          "messages",
          "Invalid type for 'messages': expected an array, but got "
              + kind(messages)
              + " instead.");
    }
    if (messages.isEmpty())
      throw OpenAiError.invalid(
          "messages", "Invalid 'messages': empty array. Expected an array with minimum length 1.");
    for (int i = 0; i < messages.size(); i++) {
      JsonNode m = messages.get(i);
      String at = "messages[" + i + "]";
      if (!m.isObject())
        throw OpenAiError.invalid(
            at,
            "Invalid type for '" + at + "': expected an object, but got " + kind(m) + " instead.");
      JsonNode role = m.path("role");
      if (role.isMissingNode())
        throw OpenAiError.invalid(at + ".role", "Missing required parameter: '" + at + ".role'.");
      if (!role.isTextual() || !ROLES.contains(role.asText())) {
        throw OpenAiError.invalid(
            at + ".role",
            "Invalid value: '"
                + (role.isTextual() ? role.asText() : role.toString())
                + "'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.");
      }
    }
  }

  private static String kind(JsonNode n) {
    return n.isTextual()
        ? "a string"
        : n.isNumber()
            ? "a number"
            : n.isObject()
                ? "an object"
                : n.isBoolean() ? "a boolean" : n.isArray() ? "an array" : "null";
  }

  public static ChatRequestSpec parse(byte[] body) {
    JsonNode root;
    try {
      root = Json.MAPPER.readTree(body);
    } catch (Exception e) {
      throw OpenAiError.invalid(null, "request body is not JSON: " + firstLine(e.getMessage()));
    }
    if (root == null || !root.isObject()) {
      throw OpenAiError.invalid(null, "request body must be a JSON object");
    }
    JsonNode streamNode = root.path("stream");
    if (!streamNode.isMissingNode() && !streamNode.isNull() && !streamNode.isBoolean()) {
      throw OpenAiError.invalid(
          "stream", "bad field 'stream': " + streamNode + " (allowed: true or false)");
    }
    boolean stream = streamNode.asBoolean(false);
    if (root.hasNonNull("n")
        && !(root.get("n").isIntegralNumber() && root.get("n").asLong() == 1)) {
      throw OpenAiError.invalid(
          "n",
          "bad field 'n': "
              + root.get("n")
              + " (the flushlab emitter streams one choice; allowed: 1)");
    }
    int natural =
        root.has("pi_tokens") ? (int) whole(root, "pi_tokens", 1, MAX_TOKENS) : DEFAULT_TOKENS;
    int limit = Integer.MAX_VALUE;
    for (String f : new String[] {"max_completion_tokens", "max_tokens", "max_output_tokens"}) {
      if (root.hasNonNull(f)) limit = Math.min(limit, (int) whole(root, f, 1, MAX_TOKENS));
    }
    // Without pi_tokens a limit is also the length asked for (sse-latency's clients send
    // max_tokens).
    if (!root.has("pi_tokens") && limit != Integer.MAX_VALUE) natural = limit;
    int tokens = Math.min(natural, limit);
    boolean cut = natural > limit;
    long think = root.has("pi_think_ms") ? millis(root, "pi_think_ms") : 0;
    long delay = root.has("pi_delay_ms") ? millis(root, "pi_delay_ms") : DEFAULT_DELAY_NANOS;
    if (think + delay * (long) (tokens - 1) > StreamSpec.MAX_STREAM_NANOS) {
      throw OpenAiError.invalid(
          "pi_tokens",
          "bad fields: pi_think_ms + pi_delay_ms x pi_tokens exceeds the 1 hour limit of one stream");
    }
    String model = "flushlab-echo";
    if (root.hasNonNull("model")) {
      JsonNode m = root.get("model");
      if (!m.isTextual() || m.asText().length() > MAX_MODEL_CHARS) {
        throw OpenAiError.invalid(
            "model",
            "bad field 'model': "
                + (m.isTextual()
                    ? m.asText().length() + " characters"
                    : m.getNodeType().toString().toLowerCase())
                + " (allowed: a string of at most "
                + MAX_MODEL_CHARS
                + " characters)");
      }
      if (!m.asText().isEmpty()) model = m.asText();
    }
    JsonNode options = root.path("stream_options");
    if (!options.isMissingNode() && !options.isNull()) {
      if (!stream)
        throw OpenAiError.invalid(
            "stream_options", "stream_options is only allowed when stream is true");
      if (!options.isObject())
        throw OpenAiError.invalid(
            "stream_options", "bad field 'stream_options': " + options + " (allowed: an object)");
    }
    JsonNode usage = options.path("include_usage");
    if (!usage.isMissingNode() && !usage.isBoolean()) {
      throw OpenAiError.invalid(
          "stream_options.include_usage",
          "bad field 'stream_options.include_usage': " + usage + " (allowed: true or false)");
    }
    if (!stream && tokens > MAX_NON_STREAMING_TOKENS) {
      throw OpenAiError.invalid(
          "pi_tokens",
          "bad field 'pi_tokens': "
              + tokens
              + " for a non-streaming completion (allowed: at most "
              + MAX_NON_STREAMING_TOKENS
              + "; stream larger ones)");
    }
    return new ChatRequestSpec(
        stream, tokens, think, delay, model, cut, usage.asBoolean(false), promptWords(root));
  }

  /** finish_reason of the last choice chunk. */
  public String finishReason() {
    return cutByLimit ? "length" : "stop";
  }

  /**
   * Words in the messages' (chat) or input's (Responses) text: what usage reports as prompt tokens.
   */
  private static int promptWords(JsonNode root) {
    int[] words = {0};
    Consumer<JsonNode> count =
        new Consumer<>() {
          @Override
          public void accept(JsonNode n) {
            if (n.isTextual()) {
              for (String w : n.asText().trim().split("\\s+")) if (!w.isEmpty()) words[0]++;
            } else if (n.isArray()) {
              n.forEach(this);
            } else if (n.isObject()) {
              if (n.has("content")) accept(n.get("content"));
              if (n.has("text")) accept(n.get("text"));
            }
          }
        };
    count.accept(root.path("messages"));
    count.accept(root.path("input"));
    return words[0];
  }

  private static long whole(JsonNode root, String field, long min, long max) {
    JsonNode n = root.get(field);
    if (!n.canConvertToLong() || !n.isIntegralNumber() || n.asLong() < min || n.asLong() > max) {
      throw OpenAiError.invalid(
          field,
          "bad field '"
              + field
              + "': "
              + n
              + " (allowed: a whole number "
              + min
              + ".."
              + max
              + ")");
    }
    return n.asLong();
  }

  private static long millis(JsonNode root, String field) {
    JsonNode n = root.get(field);
    if (!n.isNumber() || n.asDouble() < 0 || n.asDouble() > MAX_MS) {
      throw OpenAiError.invalid(
          field,
          "bad field '"
              + field
              + "': "
              + n
              + " (allowed: milliseconds 0.."
              + (long) MAX_MS
              + ", fractions allowed)");
    }
    return Math.round(n.asDouble() * 1e6);
  }

  private static String firstLine(String s) {
    if (s == null) return "";
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
