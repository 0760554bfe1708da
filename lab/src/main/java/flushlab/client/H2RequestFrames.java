package flushlab.client;

import flushlab.http.H2;
import flushlab.http.Hpack;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;

/**
 * What the metered client writes to open an HTTP/2 connection and each request on it: the
 * connection's start, a request as HEADERS (CONTINUATIONs past one frame) and DATA, or the first
 * request as HTTP/1.1 asking to switch to h2c.
 */
final class H2RequestFrames {
  private H2RequestFrames() {}

  /** The client's SETTINGS: no push, its stream window, the default frame size. */
  static byte[] settings(int initialWindow) {
    return H2.settings(
        H2.SETTINGS_ENABLE_PUSH,
        0,
        H2.SETTINGS_INITIAL_WINDOW_SIZE,
        initialWindow,
        H2.SETTINGS_MAX_FRAME_SIZE,
        H2.DEFAULT_MAX_FRAME);
  }

  /**
   * A new connection's first bytes: the preface, SETTINGS, and a WINDOW_UPDATE raising the
   * connection's window to {@code connectionWindow} when that is over the default.
   */
  static void connectionStart(ByteArrayOutputStream out, int initialWindow, int connectionWindow) {
    out.writeBytes(H2.PREFACE);
    out.writeBytes(settings(initialWindow));
    if (connectionWindow > H2.DEFAULT_WINDOW)
      out.writeBytes(H2.windowUpdate(0, connectionWindow - H2.DEFAULT_WINDOW));
  }

  /** The request on stream {@code id}: HEADERS (END_STREAM without a body), then its DATA. */
  static void request(
      ByteArrayOutputStream out,
      int id,
      RequestPlan plan,
      boolean keepAlive,
      boolean tls,
      Hpack hpack) {
    Http2Headers headers =
        new DefaultHttp2Headers()
            .method(plan.method())
            .scheme(tls ? "https" : "http")
            .authority(authority(plan))
            .path(plan.pathAndQuery());
    for (String line : plan.headLines(keepAlive, false)) {
      int colon = line.indexOf(':');
      String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      // HTTP/2 forbids the connection-specific ones, and carries Host and the length its own way
      if (H2.CONNECTION_SPECIFIC.contains(name)
          || name.equals("host")
          || name.equals("content-length")) continue;
      headers.add(name, line.substring(colon + 1).trim());
    }
    boolean body = plan.body().length > 0;
    try {
      headerBlock(out, id, hpack.encode(id, headers), !body);
    } catch (Http2Exception e) {
      throw new IllegalArgumentException("HTTP/2 request headers: " + e.getMessage(), e);
    }
    for (int off = 0; off < plan.body().length; off += H2.DEFAULT_MAX_FRAME) {
      int n = Math.min(H2.DEFAULT_MAX_FRAME, plan.body().length - off);
      boolean last = off + n == plan.body().length;
      out.writeBytes(
          H2.frame(
              H2.DATA,
              last ? H2.FLAG_END_STREAM : 0,
              id,
              Arrays.copyOfRange(plan.body(), off, off + n)));
    }
  }

  /**
   * The first request, as HTTP/1.1 asking to switch to h2c (RFC 7540 3.2), carrying the client's
   * SETTINGS; its answer will be stream 1.
   */
  static byte[] upgradeRequest(RequestPlan plan, int initialWindow) {
    byte[] settings = settings(initialWindow);
    String payload =
        Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(Arrays.copyOfRange(settings, H2.FRAME_HEADER_BYTES, settings.length));
    StringBuilder sb =
        new StringBuilder(512)
            .append(plan.method())
            .append(' ')
            .append(plan.pathAndQuery())
            .append(" HTTP/1.1\r\n");
    for (String line : plan.headLines(true, false)) {
      if (line.regionMatches(true, 0, "Connection:", 0, 11)) continue;
      sb.append(line).append("\r\n");
    }
    sb.append("Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: ")
        .append(payload)
        .append("\r\n\r\n");
    byte[] head = sb.toString().getBytes(StandardCharsets.ISO_8859_1);
    byte[] all = Arrays.copyOf(head, head.length + plan.body().length);
    System.arraycopy(plan.body(), 0, all, head.length, plan.body().length);
    return all;
  }

  /** HEADERS, then CONTINUATIONs when the block is larger than one frame. */
  private static void headerBlock(
      ByteArrayOutputStream out, int id, byte[] block, boolean endStream) {
    int first = Math.min(block.length, H2.DEFAULT_MAX_FRAME);
    int flags =
        (endStream ? H2.FLAG_END_STREAM : 0) | (first == block.length ? H2.FLAG_END_HEADERS : 0);
    out.writeBytes(H2.frame(H2.HEADERS, flags, id, Arrays.copyOfRange(block, 0, first)));
    for (int off = first; off < block.length; off += H2.DEFAULT_MAX_FRAME) {
      int n = Math.min(H2.DEFAULT_MAX_FRAME, block.length - off);
      out.writeBytes(
          H2.frame(
              H2.CONTINUATION,
              off + n == block.length ? H2.FLAG_END_HEADERS : 0,
              id,
              Arrays.copyOfRange(block, off, off + n)));
    }
  }

  private static String authority(RequestPlan plan) {
    String h = plan.host().indexOf(':') >= 0 ? "[" + plan.host() + "]" : plan.host();
    return h + ":" + plan.port();
  }
}
