package flushlab.stream;

import flushlab.core.Named;
import java.util.List;

/**
 * What the emitter streams, and the request that asks for it; scenarios name it sse, chat,
 * responses.
 */
public enum Endpoint implements Named {
  /** {@code GET /sse}: plain SSE frames, each carrying its sequence, emit time and CRC. */
  SSE("GET", "/sse"),
  /** {@code POST /v1/chat/completions}: OpenAI chat completion chunks. */
  CHAT("POST", "/v1/chat/completions"),
  /** {@code POST /v1/responses}: OpenAI Responses API events. */
  RESPONSES("POST", "/v1/responses");

  /** The request's method and path. */
  public final String method;

  public final String path;

  Endpoint(String method, String path) {
    this.method = method;
    this.path = path;
  }

  /** An OpenAI stream: events sized by their JSON, always chunked, read as JSON by the client. */
  public boolean isOpenAi() {
    return this != SSE;
  }

  public static List<String> settingNames() {
    return Named.texts(Endpoint.class);
  }

  /** The endpoint a setting names; an unknown name is refused with the choices. */
  public static Endpoint named(String name) {
    return Named.parseOrThrow(Endpoint.class, name);
  }
}
