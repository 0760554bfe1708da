package flushlab.client;

import flushlab.core.Named;

/**
 * Which HTTP the metered client speaks: as its client profile would (auto: over TLS a browser and
 * curl offer h2 and http/1.1 by ALPN and speak what the server picks; the SDKs and the lab's own
 * request speak HTTP/1.1, as do all over plain TCP), HTTP/1.1, HTTP/2 over TLS (ALPN h2 only, an
 * https target), HTTP/2 over plain TCP by prior knowledge (h2c, an http target), as gateways speak
 * to each other, or h2c by Upgrade (an HTTP/1.1 request asking to switch; a server that does not
 * answer 101 is read as HTTP/1.1, as clients do).
 */
public enum HttpVersion implements Named {
  AUTO("auto"),
  HTTP_1_1("1.1"),
  H2("h2"),
  H2C("h2c"),
  H2C_UPGRADE("h2c-upgrade");

  private final String text;

  HttpVersion(String text) {
    this.text = text;
  }

  @Override
  public String text() {
    return text;
  }

  /** HTTP/2 whatever the server says (auto decides per connection). */
  public boolean h2() {
    return this == H2 || this == H2C || this == H2C_UPGRADE;
  }
}
