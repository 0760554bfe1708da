package flushlab.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import flushlab.coding.ContentCoding;
import flushlab.http.Header;
import flushlab.stream.Endpoint;
import flushlab.stream.RequestMethod;
import flushlab.stream.StreamSpec;
import flushlab.tls.ClientTls;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One HTTP/1.1 request the metered client sends, written by hand so nothing between the client and
 * the socket adds headers or buffering. Knows how many frames the response should carry when the
 * request says so (frames=, total=/size=, pi_tokens), so lost frames at the tail are counted.
 */
public record RequestPlan(
    String host,
    int port,
    String method,
    String pathAndQuery,
    byte[] body,
    String contentType,
    List<Header> headers,
    int expectedFrames,
    ClientTls tls,
    ClientProfile profile) {

  /** The model a chat request names unless the user gives one (--model, model:). */
  public static final String DEFAULT_MODEL = "flushlab-echo";

  /**
   * Parses an http:// or https:// URL; a bad one is refused with the reason. An https URL is
   * checked against the system's CAs and its host name until {@link #withTls} says otherwise.
   */
  public static RequestPlan get(String url) {
    URI uri;
    try {
      uri = URI.create(url);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + url + "' is not a URL: " + e.getMessage());
    }
    boolean https = "https".equals(uri.getScheme());
    if (!(https || "http".equals(uri.getScheme())) || uri.getHost() == null) {
      throw new IllegalArgumentException(
          "'" + url + "' is not an http://host:port/path or https://host:port/path URL");
    }
    int port = uri.getPort() < 0 ? (https ? 443 : 80) : uri.getPort();
    String path =
        (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
            + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    String host =
        uri.getHost().startsWith("[")
            ? uri.getHost().substring(1, uri.getHost().length() - 1)
            : uri.getHost();
    return new RequestPlan(
        host,
        port,
        "GET",
        path,
        new byte[0],
        null,
        List.of(),
        expectedFromQuery(uri.getRawPath() == null ? "" : uri.getRawPath(), uri.getRawQuery()),
        https ? ClientTls.system() : null,
        ClientProfile.DEFAULT);
  }

  /**
   * The request that asks the lab's emitter at {@code host:port} for {@code spec}: {@code GET
   * /sse?...} with its query, or a streaming chat or Responses request whose flushlab fields carry
   * the frames, think time and interval.
   */
  public static RequestPlan of(StreamSpec spec, String host, int port, String model) {
    double thinkMs = spec.thinkNanos() / 1e6;
    double intervalMs = spec.intervalNanos() / 1e6;
    return switch (spec.endpoint()) {
      case SSE ->
          spec.method() == RequestMethod.POST
              ? new RequestPlan(
                  host,
                  port,
                  "POST",
                  spec.ssePathAndQuery(),
                  "{}".getBytes(StandardCharsets.US_ASCII),
                  "application/json",
                  List.of(),
                  spec.frameCount(),
                  null,
                  ClientProfile.DEFAULT)
              : new RequestPlan(
                  host,
                  port,
                  "GET",
                  spec.ssePathAndQuery(),
                  new byte[0],
                  null,
                  List.of(),
                  spec.frameCount(),
                  null,
                  ClientProfile.DEFAULT);
      case CHAT -> chat(host, port, spec.frames(), thinkMs, intervalMs, model);
      case RESPONSES -> responses(host, port, spec.frames(), thinkMs, intervalMs, model);
    };
  }

  /** A streaming chat completion with flushlab's per-request fields. */
  public static RequestPlan chat(
      String host, int port, int tokens, double thinkMs, double delayMs) {
    return chat(host, port, tokens, thinkMs, delayMs, DEFAULT_MODEL);
  }

  /** A streaming chat completion naming {@code model}, asking for the usage chunk at the end. */
  public static RequestPlan chat(
      String host, int port, int tokens, double thinkMs, double delayMs, String model) {
    ObjectNode body = streamedBy(model, tokens, thinkMs, delayMs);
    body.putObject("stream_options").put("include_usage", true);
    body.putArray("messages").addObject().put("role", "user").put("content", "stream please");
    return jsonPost(host, port, "/v1/chat/completions", body, tokens);
  }

  /**
   * A streaming OpenAI Responses API request ({@code POST /v1/responses}) with flushlab's
   * per-request fields.
   */
  public static RequestPlan responses(
      String host, int port, int tokens, double thinkMs, double delayMs, String model) {
    ObjectNode body = streamedBy(model, tokens, thinkMs, delayMs).put("input", "stream please");
    return jsonPost(host, port, "/v1/responses", body, tokens);
  }

  /** A streaming request's body for {@code model}, with flushlab's per-request fields. */
  private static ObjectNode streamedBy(String model, int tokens, double thinkMs, double delayMs) {
    return new ObjectMapper()
        .createObjectNode()
        .put("model", model)
        .put("stream", true)
        .put("pi_tokens", tokens)
        .put("pi_think_ms", thinkMs)
        .put("pi_delay_ms", delayMs);
  }

  /** A POST of a JSON body to {@code path}, expecting {@code tokens} frames. */
  private static RequestPlan jsonPost(
      String host, int port, String path, ObjectNode body, int tokens) {
    return new RequestPlan(
        host,
        port,
        "POST",
        path,
        body.toString().getBytes(StandardCharsets.UTF_8),
        "application/json",
        List.of(),
        tokens,
        null,
        ClientProfile.DEFAULT);
  }

  /**
   * The Content-Type the answer is asked to carry: what {@code content_type=} names on the lab's
   * own {@code /sse}, else text/event-stream. The lab's emitter sends its SSE events whatever label
   * it was asked for, so the client reads such an answer as SSE.
   */
  public String askedContentType() {
    int q = pathAndQuery.indexOf('?');
    if (q < 0 || !pathAndQuery.substring(0, q).endsWith("/sse"))
      return StreamSpec.DEFAULT_CONTENT_TYPE;
    for (String pair : pathAndQuery.substring(q + 1).split("&")) {
      if (pair.startsWith("content_type=")) {
        try {
          return URLDecoder.decode(
              pair.substring("content_type=".length()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
          return StreamSpec.DEFAULT_CONTENT_TYPE;
        }
      }
    }
    return StreamSpec.DEFAULT_CONTENT_TYPE;
  }

  /** The same request over TLS checked as {@code tls} says (null: plain TCP). */
  public RequestPlan withTls(ClientTls t) {
    return new RequestPlan(
        host, port, method, pathAndQuery, body, contentType, headers, expectedFrames, t, profile);
  }

  /** The same request with these extra headers, sent after the lab's own. */
  public RequestPlan withHeaders(List<Header> extra) {
    return new RequestPlan(
        host,
        port,
        method,
        pathAndQuery,
        body,
        contentType,
        List.copyOf(extra),
        expectedFrames,
        tls,
        profile);
  }

  /**
   * The same request as {@code c} sends it: that client's headers, the user's own still replacing
   * any of the same name.
   */
  public RequestPlan withProfile(ClientProfile c) {
    return new RequestPlan(
        host, port, method, pathAndQuery, body, contentType, headers, expectedFrames, tls, c);
  }

  /** The same request sent to another address (a gateway in front of the same server). */
  public RequestPlan at(String h, int p) {
    return new RequestPlan(
        h, p, method, pathAndQuery, body, contentType, headers, expectedFrames, tls, profile);
  }

  public String url() {
    return (tls == null ? "http://" : "https://")
        + (host.indexOf(':') >= 0 ? "[" + host + "]" : host)
        + ":"
        + port
        + pathAndQuery;
  }

  /** What results record of a user's header value: never the value itself (it may be a key). */
  public static final String REDACTED = "<redacted>";

  public byte[] bytes(boolean keepAlive) {
    StringBuilder sb =
        new StringBuilder(256)
            .append(method)
            .append(' ')
            .append(pathAndQuery)
            .append(" HTTP/1.1\r\n");
    for (String line : headLines(keepAlive, false)) sb.append(line).append("\r\n");
    sb.append("\r\n");
    byte[] head = sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    byte[] all = new byte[head.length + body.length];
    System.arraycopy(head, 0, all, 0, head.length);
    System.arraycopy(body, 0, all, head.length, body.length);
    return all;
  }

  /**
   * The header lines this request sends, in order, as "Name: value"; with {@code redactUser} the
   * values of the user's own headers read {@link #REDACTED} (results record the rest exactly).
   */
  public List<String> headLines(boolean keepAlive, boolean redactUser) {
    List<String> lines = new ArrayList<>();
    // the user's headers (a gateway's Host, a client's User-Agent) replace the lab's of the same
    // name
    if (!given("host"))
      lines.add("Host: " + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port);
    // the client profile's headers, in its order; the user's own replace any of the same name
    for (Header h : profile.headers()) if (!given(h.name())) lines.add(h.line());
    if (!keepAlive) lines.add("Connection: close");
    if (contentType != null && !given("content-type")) lines.add("Content-Type: " + contentType);
    if (body.length > 0 || method.equals("POST")) lines.add("Content-Length: " + body.length);
    for (Header h : headers) lines.add(redactUser ? h.name() + ": " + REDACTED : h.line());
    return lines;
  }

  /**
   * The content codings this request accepts (a user's Accept-Encoding, else its profile's): the
   * client decodes those.
   */
  public Set<ContentCoding> acceptedCodings() {
    for (Header h : headers)
      if (h.named("accept-encoding")) return ContentCoding.accepted(h.value());
    return ContentCoding.accepted(profile.header("Accept-Encoding"));
  }

  private boolean given(String lowerName) {
    for (Header h : headers) if (h.named(lowerName)) return true;
    return false;
  }

  /**
   * Frames an {@code /sse} response will carry, read with the emitter's own parser (so the defaults
   * are its defaults); -1 when the request is not one the lab's emitter would serve.
   */
  static int expectedFromQuery(String path, String query) {
    if (query == null)
      return path.endsWith(Endpoint.SSE.path) ? StreamSpec.DEFAULT.frameCount() : -1;
    try {
      return StreamSpec.fromQuery(query).frameCount();
    } catch (IllegalArgumentException e) {
      return -1; // the emitter will refuse it with the reason, or it is not the emitter's query
    }
  }
}
