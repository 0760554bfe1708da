package flushlab.stream;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The shape of the responses a map sends, where a target may decide by it: the Content-Type and how
 * the body is framed ({@code content_type=application/x-ndjson,transfer=length}). A proxy that
 * streams event streams but holds a body with a Content-Length (Go's ReverseProxy) is mapped as
 * what it does to the shape asked for.
 */
public record ResponseShape(String contentType, Transfer transfer) {
  public static final ResponseShape EVENT_STREAM =
      new ResponseShape(StreamSpec.DEFAULT_CONTENT_TYPE, Transfer.CHUNKED);

  /**
   * The stream-detection matrix `map --shapes matrix` probes: what proxies decide by. Go's
   * ReverseProxy flushes an event stream, and any body of unknown length, at once and holds one
   * with a Content-Length; cloudflared and Spring Cloud Gateway stream only listed media types; a
   * finite JSON body is what a non-streaming API answers.
   */
  public static final List<ResponseShape> DETECTION_MATRIX =
      List.of(
          EVENT_STREAM,
          new ResponseShape("application/x-ndjson", Transfer.CHUNKED),
          new ResponseShape("application/x-ndjson", Transfer.LENGTH),
          new ResponseShape("application/json", Transfer.LENGTH));

  /** The most shapes one `--shapes` list may name: each is a map of its own. */
  public static final int MAX_SHAPES = 8;

  /**
   * `matrix` (the {@link #DETECTION_MATRIX}) or shapes as {@link #parse} takes them, separated by
   * {@code ;}, at most {@link #MAX_SHAPES}, none twice; the message names the shape that is wrong.
   */
  public static List<ResponseShape> parseList(String text) {
    String t = text == null ? "" : text.trim();
    if (t.equals("matrix")) return DETECTION_MATRIX;
    List<ResponseShape> out = new ArrayList<>();
    for (String part : t.split(";")) {
      ResponseShape shape;
      try {
        shape = parse(part.trim());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("'" + part.trim() + "': " + e.getMessage());
      }
      if (out.contains(shape))
        throw new IllegalArgumentException("'" + part.trim() + "' is given twice");
      out.add(shape);
    }
    if (out.size() > MAX_SHAPES)
      throw new IllegalArgumentException(
          out.size() + " shapes; at most " + MAX_SHAPES + " (each is a map of its own)");
    return List.copyOf(out);
  }

  /** The keys a shape takes, for messages. */
  static final String KEYS = "content_type, transfer";

  /**
   * Parses {@code content_type=TYPE,transfer=chunked|close|chunked-always|length} (either key may
   * be left out); the message names the key and what is valid.
   */
  public static ResponseShape parse(String text) {
    Map<String, String> given = new LinkedHashMap<>();
    for (String part : (text == null ? "" : text).split(",")) {
      String p = part.trim();
      int eq = p.indexOf('=');
      if (eq <= 0)
        throw new IllegalArgumentException("'" + p + "' is not key=value (keys: " + KEYS + ")");
      String key = p.substring(0, eq).trim().toLowerCase(Locale.ROOT);
      if (given.put(key, p.substring(eq + 1).trim()) != null)
        throw new IllegalArgumentException(key + " given twice");
    }
    String type = StreamSpec.DEFAULT_CONTENT_TYPE;
    Transfer transfer = Transfer.CHUNKED;
    for (Map.Entry<String, String> e : given.entrySet()) {
      switch (e.getKey()) {
        case "content_type":
          if (!MediaTypes.validContentType(e.getValue())) {
            throw new IllegalArgumentException(
                "content_type="
                    + e.getValue()
                    + " is not a media type (e.g. application/x-ndjson)");
          }
          type = e.getValue();
          break;
        case "transfer":
          try {
            transfer = Transfer.named(e.getValue());
          } catch (IllegalArgumentException x) {
            throw new IllegalArgumentException("transfer=" + x.getMessage());
          }
          break;
        default:
          throw new IllegalArgumentException(
              "unknown key '" + e.getKey() + "' (keys: " + KEYS + ")");
      }
    }
    return new ResponseShape(type, transfer);
  }

  public StreamSpec applyTo(StreamSpec s) {
    return s.withContentType(contentType).withTransfer(transfer);
  }

  /** An SSE stream framed as a stream: the think cell's comments mean something only there. */
  public boolean eventStream() {
    return contentType.trim().toLowerCase(Locale.ROOT).startsWith(StreamSpec.DEFAULT_CONTENT_TYPE)
        && transfer != Transfer.LENGTH;
  }

  /** "application/x-ndjson with a Content-Length", for sentences. */
  public String describe() {
    return contentType
        + switch (transfer) {
          case LENGTH -> " with a Content-Length";
          case CLOSE -> ", ended by closing the connection";
          case CHUNKED_ALWAYS -> ", chunked even to HTTP/1.0";
          case CHUNKED -> ", chunked";
        };
  }

  /** "content_type=application/x-ndjson,transfer=length", as the flag takes it. */
  public String text() {
    return "content_type=" + contentType + ",transfer=" + transfer.text();
  }
}
