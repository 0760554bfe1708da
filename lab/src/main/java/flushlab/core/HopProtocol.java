package flushlab.core;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What one hop of a path speaks: the client's hop is measured (results' {@code http} and {@code
 * h2}); the hop behind a target, to the emitter, is what the lab set up or what a proxy's
 * configuration asks for (each proxy reads its own, {@code ProxyKind.upstreamProtocol}). A proxy
 * that holds a stream over one and not the other is then explained by its upstream protocol, not
 * its client's (stock nginx asks HTTP/1.0 upstream).
 */
public enum HopProtocol {
  HTTP_1_0("HTTP/1.0"),
  HTTP_1_1("HTTP/1.1"),
  H2C("h2c"),
  H2("h2"),
  /** The client reaches the emitter itself: there is no hop behind. */
  NONE("none (the emitter itself)"),
  /** A server the lab did not start: its upstream is not the lab's to know. */
  UNKNOWN("unknown (not started by the lab)");

  private final String text;

  HopProtocol(String text) {
    this.text = text;
  }

  @JsonValue
  public String text() {
    return text;
  }
}
