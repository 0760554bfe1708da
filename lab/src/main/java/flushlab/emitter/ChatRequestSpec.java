package flushlab.emitter;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a {@code POST /v1/chat/completions} request asks for. The token count, think time and
 * inter-token delay ride in extra fields that real gateways pass through unchanged; the names are
 * those of the sse-latency tool (pi_tokens, pi_think_ms, pi_delay_ms) so its clients work here.
 */
public record ChatRequestSpec(boolean stream, int tokens, long thinkNanos, long delayNanos, String model) {
  public static final int DEFAULT_TOKENS = 1000;
  public static final long DEFAULT_DELAY_NANOS = 5_000_000L;
  public static final int MAX_TOKENS = 1_000_000;
  public static final double MAX_MS = 60_000;
  /** OpenAI's model names are short; a longer one is refused rather than repeated in every event. */
  public static final int MAX_MODEL_CHARS = 256;
  /** A non-streaming completion is built in memory: about 6 B per token. */
  public static final int MAX_NON_STREAMING_TOKENS = 100_000;

  public static ChatRequestSpec parse(byte[] body) {
    JsonNode root;
    try {
      root = flushlab.core.Json.MAPPER.readTree(body);
    } catch (Exception e) {
      throw new SseStreamSpec.BadRequest("request body is not JSON: " + firstLine(e.getMessage()));
    }
    if (root == null || !root.isObject()) {
      throw new SseStreamSpec.BadRequest("request body must be a JSON object");
    }
    boolean stream = root.path("stream").asBoolean(false);
    int tokens = DEFAULT_TOKENS;
    if (root.has("max_tokens")) tokens = (int) whole(root, "max_tokens", 1, MAX_TOKENS);
    if (root.has("pi_tokens")) tokens = (int) whole(root, "pi_tokens", 1, MAX_TOKENS);
    long think = root.has("pi_think_ms") ? millis(root, "pi_think_ms") : 0;
    long delay = root.has("pi_delay_ms") ? millis(root, "pi_delay_ms") : DEFAULT_DELAY_NANOS;
    if (think + delay * (long) (tokens - 1) > SseStreamSpec.MAX_STREAM_NANOS) {
      throw new SseStreamSpec.BadRequest("bad fields: pi_think_ms + pi_delay_ms x pi_tokens exceeds the 1 hour limit of one stream");
    }
    String model = "flushlab-echo";
    if (root.hasNonNull("model")) {
      JsonNode m = root.get("model");
      if (!m.isTextual() || m.asText().length() > MAX_MODEL_CHARS) {
        throw new SseStreamSpec.BadRequest("bad field 'model': " + (m.isTextual() ? m.asText().length() + " characters" : m.getNodeType().toString().toLowerCase())
            + " (allowed: a string of at most " + MAX_MODEL_CHARS + " characters)");
      }
      if (!m.asText().isEmpty()) model = m.asText();
    }
    if (!stream && tokens > MAX_NON_STREAMING_TOKENS) {
      throw new SseStreamSpec.BadRequest("bad field 'pi_tokens': " + tokens + " for a non-streaming completion (allowed: at most "
          + MAX_NON_STREAMING_TOKENS + "; stream larger ones)");
    }
    return new ChatRequestSpec(stream, tokens, think, delay, model);
  }

  private static long whole(JsonNode root, String field, long min, long max) {
    JsonNode n = root.get(field);
    if (!n.canConvertToLong() || !n.isIntegralNumber() || n.asLong() < min || n.asLong() > max) {
      throw new SseStreamSpec.BadRequest("bad field '" + field + "': " + n + " (allowed: a whole number " + min + ".." + max + ")");
    }
    return n.asLong();
  }

  private static long millis(JsonNode root, String field) {
    JsonNode n = root.get(field);
    if (!n.isNumber() || n.asDouble() < 0 || n.asDouble() > MAX_MS) {
      throw new SseStreamSpec.BadRequest("bad field '" + field + "': " + n + " (allowed: milliseconds 0.." + (long) MAX_MS + ", fractions allowed)");
    }
    return Math.round(n.asDouble() * 1e6);
  }

  private static String firstLine(String s) {
    if (s == null) return "";
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
