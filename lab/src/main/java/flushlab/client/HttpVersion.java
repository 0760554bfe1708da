package flushlab.client;

import flushlab.core.Named;

/**
 * Which HTTP the metered client speaks: HTTP/1.1, HTTP/2 over TLS (ALPN h2, an https target),
 * HTTP/2 over plain TCP by prior knowledge (h2c, an http target), as gateways speak to each other,
 * or h2c by Upgrade (an HTTP/1.1 request asking to switch; a server that does not answer 101 is
 * read as HTTP/1.1, as clients do).
 */
public enum HttpVersion implements Named {
  HTTP_1_1("1.1"), H2("h2"), H2C("h2c"), H2C_UPGRADE("h2c-upgrade");

  private final String text;

  HttpVersion(String text) {
    this.text = text;
  }

  @Override
  public String text() {
    return text;
  }

  public boolean h2() {
    return this != HTTP_1_1;
  }
}
