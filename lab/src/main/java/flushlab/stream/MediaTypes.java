package flushlab.stream;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The media types a stream may be labelled with: what a Content-Type may carry (what {@code
 * content_type=} accepts), and NDJSON, which the emitter writes one JSON line per frame.
 */
public final class MediaTypes {
  private MediaTypes() {}

  /**
   * A media type with optional parameters, as Content-Type carries it: type/subtype[;
   * name=value]... in HTTP's token characters.
   */
  private static final Pattern MEDIA_TYPE =
      Pattern.compile(
          "[!#$%&'*+.^_`|~0-9A-Za-z-]+/[!#$%&'*+.^_`|~0-9A-Za-z-]+(\\s*;\\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+=(\"[^\"\\r\\n]*\"|[!#$%&'*+.^_`|~0-9A-Za-z-]+))*");

  /** The longest Content-Type the lab writes or accepts. */
  public static final int MAX_CONTENT_TYPE_CHARS = 200;

  /**
   * A body labelled NDJSON (application/x-ndjson, parameters aside): the emitter writes one JSON
   * line per frame.
   */
  public static boolean isNdjson(String contentType) {
    String t = contentType.trim().toLowerCase(Locale.ROOT);
    int semi = t.indexOf(';');
    return (semi < 0 ? t : t.substring(0, semi).trim()).equals("application/x-ndjson");
  }

  /**
   * Bytes an NDJSON frame adds over an SSE one of the same data: {"data":"…"} and one newline
   * against "data: " and a blank line.
   */
  public static final int NDJSON_EXTRA_BYTES = 4;

  /** NDJSON frames are written whole: at most one HTTP/2 DATA frame's worth. */
  public static final int MAX_NDJSON_FRAME_BYTES = 16 * 1024;

  /** Whether {@code t} is a media type a Content-Type may carry (what content_type= accepts). */
  public static boolean validContentType(String t) {
    return t != null && t.length() <= MAX_CONTENT_TYPE_CHARS && MEDIA_TYPE.matcher(t).matches();
  }
}
