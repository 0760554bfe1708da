package flushlab.scenario;

import com.fasterxml.jackson.annotation.JsonValue;

/** The TCP-layer probes a probe scenario runs ({@code probe:}). */
public enum ProbeKind {
  /** A request burst timed to the response head, over a sweep of body sizes. */
  UPLOAD("upload"),
  /** Small requests on one keep-alive connection, TCP_NODELAY on and off. */
  KEEPALIVE("keepalive");

  private final String text;

  ProbeKind(String text) {
    this.text = text;
  }

  @JsonValue
  public String text() {
    return text;
  }

  /** The probe a scenario names, or null. */
  public static ProbeKind named(String text) {
    for (ProbeKind k : values()) if (k.text.equals(text)) return k;
    return null;
  }

  @Override
  public String toString() {
    return text;
  }
}
