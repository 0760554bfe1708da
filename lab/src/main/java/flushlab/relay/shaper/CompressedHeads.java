package flushlab.relay.shaper;

import flushlab.coding.ContentCoding;
import flushlab.http.Headers;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * What the compress shaper decides from a response's head, and the head it sends: which responses
 * it re-encodes, the head of one that passes, and the head of one it re-encodes or holds.
 */
final class CompressedHeads {
  private CompressedHeads() {}

  /**
   * Whether a response may be re-encoded: a status with a body, not already encoded, not marked
   * no-transform, of a type the shaper compresses.
   */
  static boolean compressible(int status, Headers h, Compress.Types types) {
    if (status < 200 || status == 204 || status == 304) return false;
    String enc = h.get("Content-Encoding");
    if (enc != null && !enc.isBlank() && !enc.trim().equalsIgnoreCase("identity")) return false;
    String cc = h.get("Cache-Control");
    if (cc != null && cc.toLowerCase(Locale.ROOT).contains("no-transform")) return false;
    String type = h.get("Content-Type");
    String t = type == null ? "" : type.trim().toLowerCase(Locale.ROOT);
    return switch (types) {
      case EVENT_STREAM -> t.startsWith("text/event-stream");
      case TEXT -> t.startsWith("text/");
      case ANY -> true;
    };
  }

  /** A head as parsed, unchanged in its fields (for a response that passes). */
  static byte[] asParsed(int status, String reason, Headers h) {
    StringBuilder s = statusLine(status, reason);
    for (int i = 0; i < h.size(); i++)
      s.append(h.name(i)).append(": ").append(h.value(i)).append("\r\n");
    return s.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  /**
   * The head as it leaves: chunked (the length of a re-encoded body is not known in advance), with
   * Content-Encoding when {@code encodedAs} is not null, and Vary: Accept-Encoding either way.
   */
  static byte[] rebuilt(int status, String reason, Headers h, ContentCoding encodedAs) {
    StringBuilder s = statusLine(status, reason);
    for (int i = 0; i < h.size(); i++) {
      String name = h.name(i);
      if (name.equalsIgnoreCase("Content-Length") || name.equalsIgnoreCase("Transfer-Encoding"))
        continue;
      s.append(name).append(": ").append(h.value(i)).append("\r\n");
    }
    s.append("Transfer-Encoding: chunked\r\n");
    if (encodedAs != null) s.append("Content-Encoding: ").append(encodedAs.text()).append("\r\n");
    s.append("Vary: Accept-Encoding\r\n\r\n");
    return s.toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  private static StringBuilder statusLine(int status, String reason) {
    return new StringBuilder("HTTP/1.1 ").append(status).append(' ').append(reason).append("\r\n");
  }
}
