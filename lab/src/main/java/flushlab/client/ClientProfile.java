package flushlab.client;

import flushlab.core.Named;
import flushlab.http.Header;
import java.util.List;

/**
 * Which real client the metered client's request looks like: the headers that client sends, in its
 * order. Each list was captured on this project's machine on 2026-12-01 by pointing the client at a
 * loopback server that logged the request head (see docs/PROXIES.md, "Client profiles"). Host,
 * Content-Length and Connection stay the lab's (Connection follows the keep-alive setting), and so
 * do a user's own headers: an {@code Authorization} or an {@code Accept-Encoding} given with {@code
 * --header} replaces the profile's of the same name.
 */
public enum ClientProfile implements Named {
  /** The lab's own request, as before profiles existed: no Accept-Encoding. */
  BARE("flushlab's own request", h("User-Agent", "flushlab"), h("Accept", "text/event-stream")),
  /** curl 7.88.1 (Debian 12) without --compressed: no Accept-Encoding. */
  CURL("curl 7.88.1, `curl -N URL`", h("User-Agent", "curl/7.88.1"), h("Accept", "*/*")),
  /**
   * Chromium 156's EventSource on Linux, with "Chrome" where the headless browser says
   * "HeadlessChrome".
   */
  BROWSER(
      "Chromium 156.0.8078.114's EventSource (Debian 12); Referer left out: it names the page",
      h("Pragma", "no-cache"),
      h("Cache-Control", "no-cache"),
      h("sec-ch-ua-platform", "\"Linux\""),
      h(
          "User-Agent",
          "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36"),
      h("Accept", "text/event-stream"),
      h("sec-ch-ua", "\"Not:A-Brand\";v=\"8\", \"Chromium\";v=\"156\""),
      h("sec-ch-ua-mobile", "?0"),
      h("Sec-Fetch-Site", "same-origin"),
      h("Sec-Fetch-Mode", "cors"),
      h("Sec-Fetch-Dest", "empty"),
      h("Accept-Encoding", "gzip, deflate, br, zstd"),
      h("Accept-Language", "en-US,en;q=0.9")),
  /** The official Python SDK 3.22.1 (httpx) streaming a chat completion. */
  OPENAI_PYTHON(
      "openai-python 3.22.1 on CPython 3.11.7, `client.chat.completions.create(..., stream=True)`",
      h("Accept-Encoding", "gzip, deflate"),
      h("accept", "application/json"),
      h("user-agent", "OpenAI/Python 3.22.1"),
      h("x-stainless-lang", "python"),
      h("x-stainless-package-version", "3.22.1"),
      h("x-stainless-os", "Linux"),
      h("x-stainless-arch", "x64"),
      h("x-stainless-runtime", "CPython"),
      h("x-stainless-runtime-version", "3.11.7"),
      h("x-stainless-async", "false"),
      h("x-stainless-retry-count", "0"),
      h("x-stainless-read-timeout", "600")),
  /** The official Node SDK 6.49.0 (Node 20's fetch, undici) streaming a chat completion. */
  OPENAI_NODE(
      "openai-node 6.49.0 on Node v20.20.2, `client.chat.completions.create({..., stream: true})`",
      h("accept", "application/json"),
      h("user-agent", "OpenAI/JS 6.49.0"),
      h("x-stainless-retry-count", "0"),
      h("x-stainless-lang", "js"),
      h("x-stainless-package-version", "6.49.0"),
      h("x-stainless-os", "Linux"),
      h("x-stainless-arch", "x64"),
      h("x-stainless-runtime", "node"),
      h("x-stainless-runtime-version", "v20.20.2"),
      h("accept-language", "*"),
      h("sec-fetch-mode", "cors"),
      h("accept-encoding", "gzip, deflate"));

  /**
   * The profile a request uses unless told otherwise: the lab's own, so results stay comparable
   * with earlier ones.
   */
  public static final ClientProfile DEFAULT = BARE;

  private final String source;
  private final List<Header> headers;

  ClientProfile(String source, Header... headers) {
    this.source = source;
    this.headers = List.of(headers);
  }

  private static Header h(String name, String value) {
    return new Header(name, value);
  }

  /** Where the header list comes from. */
  /**
   * Whether this client offers HTTP/2 by ALPN over TLS when left to itself: Chromium does, and
   * Debian's curl (built with nghttp2) does; the OpenAI SDKs (httpx and undici by default) and the
   * lab's own request speak HTTP/1.1.
   */
  public boolean offersH2OverTls() {
    return this == BROWSER || this == CURL;
  }

  /**
   * The windows an HTTP/2 client advertises: for each stream (SETTINGS_INITIAL_WINDOW_SIZE) and for
   * the connection (after its first WINDOW_UPDATE).
   */
  public record H2Windows(int stream, int connection) {}

  /**
   * What each client advertises over HTTP/2, captured from it on this machine (its SETTINGS and
   * first WINDOW_UPDATE, read by a bare socket server): Chromium 156, 6 MiB per stream and 15 MiB
   * per connection; curl 7.88.1 (nghttp2 1.52), 32 MiB each; the others speak HTTP/1.1, and the
   * lab's own client the protocol's defaults.
   */
  public H2Windows h2Windows() {
    return switch (this) {
      case BROWSER -> new H2Windows(6_291_456, 15_728_640);
      case CURL -> new H2Windows(33_554_432, 33_554_432);
      default -> new H2Windows(65_535, 65_535);
    };
  }

  public String source() {
    return source;
  }

  /** The headers it sends, in its order. */
  public List<Header> headers() {
    return headers;
  }

  /** Its value of a header (case-insensitive name), or null. */
  public String header(String name) {
    for (Header h : headers) if (h.named(name)) return h.value();
    return null;
  }
}
