package flushlab.emitter;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import flushlab.core.HiccupMeter;
import flushlab.core.Json;
import flushlab.http.HttpRequestParser.Request;
import flushlab.stream.MediaTypes;
import flushlab.stream.StreamSpec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * What the emitter answers each request with, whichever protocol it came on: a paced stream (/sse,
 * OpenAI's streaming routes), a completion after its generation time, an audit, or an error. The
 * protocol's responder writes the answer ({@link Responder}).
 */
final class EmitterRoutes {
  /** Where an answer goes: the HTTP/1.1 or the HTTP/2 responder of the request's connection. */
  interface Responder {
    /** A whole answer at once. */
    void respond(Request r, int status, String type, String body);

    /** A paced stream. */
    void stream(Request r, StreamAnswer answer);

    /**
     * A whole answer after {@code delayNanos} (a completion's generation time), dropped with its
     * request if the stream or the connection goes first.
     */
    void respondLater(Request r, long delayNanos, String type, Supplier<String> body);

    /** The largest event this protocol writes whole (an h2 DATA frame, or the write buffer). */
    int maxEventBytes();
  }

  private static final String ROUTES =
      "GET /sse, POST /v1/chat/completions, POST /v1/responses, GET /v1/models, "
          + "GET /emitter/streams/{id}, GET /healthz";

  private final AuditRegistry audits;
  private final AtomicLong streamIds;

  /** When set, /v1/* requests must carry "Authorization: Bearer" this. */
  private final String apiKey;

  EmitterRoutes(AuditRegistry audits, AtomicLong streamIds, String apiKey) {
    this.audits = audits;
    this.streamIds = streamIds;
    this.apiKey = apiKey;
  }

  AuditRegistry audits() {
    return audits;
  }

  /** Answers {@code r} through {@code to}; a request that asks for something invalid gets a 400. */
  void route(Request r, Responder to) {
    try {
      routeOrThrow(r, to);
    } catch (BadRequest | StreamSpec.Invalid e) {
      to.respond(r, 400, "text/plain", e.getMessage() + "\n");
    }
  }

  private void routeOrThrow(Request r, Responder to) {
    String target = r.target();
    int q = target.indexOf('?');
    String path = q < 0 ? target : target.substring(0, q);
    String method = r.method();
    if (path.equals("/sse")) {
      // POST too: a proxy may stream one method and buffer the other (a cloudflared quick tunnel
      // streamed POST and buffered GET)
      if (!method.equals("GET") && !method.equals("POST")) {
        to.respond(r, 405, "text/plain", "use GET or POST for /sse\n");
        return;
      }
      StreamSpec spec = StreamSpec.fromQuery(q < 0 ? "" : target.substring(q + 1));
      PlainFrameSource source =
          new PlainFrameSource(
              spec.frameCount(),
              spec.frameBytes(),
              to.maxEventBytes(),
              MediaTypes.isNdjson(spec.contentType()));
      to.stream(r, StreamAnswer.of(streamIds.incrementAndGet(), spec, source));
    } else if (path.startsWith("/v1/")) {
      try {
        routeOpenAi(r, method, path, to);
      } catch (BadRequest e) {
        OpenAiError error = OpenAiError.of(e);
        to.respond(r, error.status(), "application/json", error.body());
      }
    } else if (path.startsWith("/emitter/streams/") && method.equals("GET")) {
      audit(r, path.substring("/emitter/streams/".length()), to);
    } else if (path.equals("/healthz")) {
      to.respond(r, 200, "text/plain", "ok\n");
    } else {
      to.respond(
          r, 404, "text/plain", "no route " + method + " " + path + " (routes: " + ROUTES + ")\n");
    }
  }

  private void audit(Request r, String number, Responder to) {
    long id;
    try {
      id = Long.parseLong(number);
    } catch (NumberFormatException e) {
      to.respond(r, 400, "text/plain", "stream id must be a number\n");
      return;
    }
    PacingAudit.Summary summary = audits.summary(id);
    if (summary != null) {
      // judged here: only this process's meter saw the loop that wrote the stream
      to.respond(
          r, 200, "application/json", Json.write(summary.judged(HiccupMeter.get().loopLedger())));
    } else if (audits.isRunning(id)) {
      to.respond(r, 409, "text/plain", "stream " + id + " is still running\n");
    } else {
      to.respond(
          r,
          404,
          "text/plain",
          "no audit for stream "
              + id
              + " (unknown, or older than the last "
              + AuditRegistry.MAX_SUMMARIES
              + " streams)\n");
    }
  }

  private boolean keyMatches(String authorization) {
    if (authorization == null) return false;
    byte[] want = ("Bearer " + apiKey).getBytes(StandardCharsets.UTF_8);
    // compared in constant time: no timing hint of how much of the key was right
    return MessageDigest.isEqual(want, authorization.getBytes(StandardCharsets.UTF_8));
  }

  /** OpenAI's routes: errors come back in OpenAI's JSON shape, which gateways and SDKs parse. */
  private void routeOpenAi(Request r, String method, String path, Responder to) {
    if (apiKey != null && !keyMatches(r.headers().get("Authorization")))
      throw OpenAiError.unauthorized();
    boolean chat = path.equals("/v1/chat/completions");
    if (chat || path.equals("/v1/responses")) {
      if (!method.equals("POST"))
        throw new OpenAiError(405, "invalid_request_error", null, null, "use POST for " + path);
      ChatRequestSpec spec =
          chat ? ChatRequestSpec.parseChat(r.body()) : ChatRequestSpec.parse(r.body());
      long created = System.currentTimeMillis() / 1000;
      if (!spec.stream()) {
        if (!chat)
          throw OpenAiError.invalid(
              "stream",
              "the flushlab emitter serves /v1/responses as a stream only: send \"stream\": true");
        long wait = spec.thinkNanos() + spec.delayNanos() * (long) (spec.tokens() - 1);
        to.respondLater(r, wait, "application/json", () -> completion(spec));
        return;
      }
      long id = streamIds.incrementAndGet();
      FrameSource source =
          chat
              ? new ChatFrameSource(id, spec, created)
              : new ResponsesFrameSource(id, spec, created);
      long totalBytes = (long) source.maxEventBytes() * spec.tokens() + source.trailer().length;
      if (totalBytes > StreamSpec.MAX_TOTAL_BYTES) {
        throw OpenAiError.invalid(
            "pi_tokens",
            "bad fields: pi_tokens x the event size makes up to "
                + totalBytes
                + " B (allowed: at most "
                + StreamSpec.MAX_TOTAL_BYTES
                + " B per stream; fewer tokens or a shorter model name)");
      }
      to.stream(r, StreamAnswer.openAi(id, spec, source));
    } else if (path.equals("/v1/models") && method.equals("GET")) {
      ObjectNode root = Json.MAPPER.createObjectNode().put("object", "list");
      ArrayNode data = root.putArray("data");
      data.addObject()
          .put("id", "flushlab-echo")
          .put("object", "model")
          .put("created", 0)
          .put("owned_by", "flushlab");
      to.respond(r, 200, "application/json", root.toString());
    } else {
      throw OpenAiError.noRoute(method, path);
    }
  }

  /** A non-streamed chat completion of {@code spec}, as OpenAI answers one. */
  private String completion(ChatRequestSpec spec) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < spec.tokens(); i++) text.append(ChatFrameSource.word(i)).append(' ');
    ObjectNode root =
        Json.MAPPER
            .createObjectNode()
            .put("id", "chatcmpl-flushlab-" + streamIds.incrementAndGet())
            .put("object", "chat.completion")
            .put("created", System.currentTimeMillis() / 1000)
            .put("model", spec.model());
    ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
    choice.putObject("message").put("role", "assistant").put("content", text.toString());
    choice.putNull("logprobs");
    choice.put("finish_reason", spec.finishReason());
    root.put("system_fingerprint", ChatFrameSource.SYSTEM_FINGERPRINT);
    root.putObject("usage")
        .put("prompt_tokens", spec.promptTokens())
        .put("completion_tokens", spec.tokens())
        .put("total_tokens", spec.promptTokens() + spec.tokens());
    return root.toString();
  }
}
