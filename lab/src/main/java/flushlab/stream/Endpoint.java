package flushlab.stream;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** What the emitter streams, and the request that asks for it. */
public enum Endpoint {
  /** {@code GET /sse}: plain SSE frames, each carrying its sequence, emit time and CRC. */
  SSE("sse", "GET", "/sse"),
  /** {@code POST /v1/chat/completions}: OpenAI chat completion chunks. */
  CHAT("chat", "POST", "/v1/chat/completions"),
  /** {@code POST /v1/responses}: OpenAI Responses API events. */
  RESPONSES("responses", "POST", "/v1/responses");

  private final String settingName;
  private final String method;
  private final String path;

  Endpoint(String settingName, String method, String path) {
    this.settingName = settingName;
    this.method = method;
    this.path = path;
  }

  /** How scenarios and flags name it: {@code sse}, {@code chat}, {@code responses}. */
  public String settingName() {
    return settingName;
  }

  public String method() {
    return method;
  }

  public String path() {
    return path;
  }

  /** An OpenAI stream: events sized by their JSON, always chunked, read as JSON by the client. */
  public boolean isOpenAi() {
    return this != SSE;
  }

  public static List<String> settingNames() {
    return Arrays.stream(values()).map(Endpoint::settingName).toList();
  }

  /** The endpoint a setting names; an unknown name is refused with the choices. */
  public static Endpoint named(String name) {
    String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    for (Endpoint e : values()) if (e.settingName.equals(n)) return e;
    throw new IllegalArgumentException("'" + name + "' is not one of " + String.join(", ", settingNames()));
  }

  @Override
  public String toString() {
    return settingName;
  }
}
