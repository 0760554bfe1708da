package flushlab.stream;

import flushlab.coding.ContentCoding;
import flushlab.coding.FlushPolicy;
import flushlab.core.FrameCodec;
import flushlab.core.Named;
import flushlab.core.Units;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link StreamSpec} as the {@code /sse} query that asks the emitter for it, both ways: written
 * with every value in its base unit, so it reads back exactly, and read with each bad value refused
 * by name with what is allowed ({@link StreamSpec.Invalid}, an HTTP 400).
 */
final class SseQuery {
  private SseQuery() {}

  /** The query parameters {@link #parse} knows. */
  static final String PARAMETERS =
      "frames, size, interval, think, total, transfer, content_type, sse_keepalive, x_accel_buffering, encoding, flush, cache_control, header";

  /** The query that asks for {@code s}. */
  static String encode(StreamSpec s) {
    StringBuilder q =
        new StringBuilder(128)
            .append("size=")
            .append(s.frameBytes())
            .append("&interval=")
            .append(s.intervalNanos())
            .append("ns")
            .append("&think=")
            .append(s.thinkNanos())
            .append("ns")
            .append("&transfer=")
            .append(s.transfer().text());
    if (s.bulk()) {
      q.append("&total=").append(s.totalBytes());
    } else {
      q.append("&frames=").append(s.frames());
    }
    if (s.keepAliveNanos() > 0) q.append("&sse_keepalive=").append(s.keepAliveNanos()).append("ns");
    if (!s.contentType().equals(StreamSpec.DEFAULT_CONTENT_TYPE))
      q.append("&content_type=").append(URLEncoder.encode(s.contentType(), StandardCharsets.UTF_8));
    if (s.xAccelBuffering() != XAccelBuffering.ABSENT)
      q.append("&x_accel_buffering=").append(s.xAccelBuffering().text());
    if (s.compression().coding() != null)
      q.append("&encoding=").append(s.compression().coding().text());
    if (!s.compression().flush().equals(FlushPolicy.EACH))
      q.append("&flush=").append(s.compression().flush().text());
    if (s.compression().cacheControl() != CacheControl.NO_CACHE)
      q.append("&cache_control=").append(s.compression().cacheControl().text());
    for (ResponseHeader h : s.headers()) {
      q.append("&header=")
          .append(URLEncoder.encode(h.name() + ":" + h.value(), StandardCharsets.UTF_8));
    }
    return q.toString();
  }

  /**
   * Reads a {@code /sse} query (null or empty: the defaults); a bad value is refused naming the
   * parameter and what is allowed.
   */
  static StreamSpec parse(String query) {
    StreamSpec s = StreamSpec.DEFAULT;
    boolean framesGiven = false;
    long total = 0;
    List<ResponseHeader> headers = new ArrayList<>();
    if (query != null && !query.isEmpty()) {
      for (String pair : query.split("&")) {
        if (pair.isEmpty()) continue;
        int eq = pair.indexOf('=');
        String key = decode(eq < 0 ? pair : pair.substring(0, eq));
        String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
        switch (key) {
          case "frames":
            s = s.withFrames((int) integer(key, value, 1, StreamSpec.MAX_FRAMES));
            framesGiven = true;
            break;
          case "size":
            s =
                s.withFrameBytes(
                    (int)
                        bytes(key, value, FrameCodec.MIN_FRAME_BYTES, StreamSpec.MAX_FRAME_BYTES));
            break;
          case "interval":
            s = s.withIntervalNanos(duration(key, value, 0, StreamSpec.MAX_INTERVAL_NANOS));
            break;
          case "think":
            s = s.withThinkNanos(duration(key, value, 0, StreamSpec.MAX_THINK_NANOS));
            break;
          case "total":
            total = bytes(key, value, FrameCodec.MIN_FRAME_BYTES, StreamSpec.MAX_TOTAL_BYTES);
            break;
          case "transfer":
            s = s.withTransfer(choice(key, value, Transfer::named, Transfer.settingNames()));
            break;
          case "sse_keepalive":
            s = s.withKeepAliveNanos(duration(key, value, 0, StreamSpec.MAX_THINK_NANOS));
            break;
          case "content_type":
            if (!MediaTypes.validContentType(value)) {
              throw new StreamSpec.Invalid(
                  "bad parameter 'content_type': '"
                      + value
                      + "' (allowed: a media type such as text/event-stream, "
                      + "text/event-stream; charset=utf-8, application/x-ndjson or text/plain, at most "
                      + MediaTypes.MAX_CONTENT_TYPE_CHARS
                      + " characters)");
            }
            s = s.withContentType(value);
            break;
          case "x_accel_buffering":
            s =
                s.withXAccelBuffering(
                    choice(key, value, XAccelBuffering::named, XAccelBuffering.settingNames()));
            break;
          case "encoding":
            s =
                s.withCompression(
                    s.compression()
                        .withCoding(
                            value.equalsIgnoreCase("identity")
                                ? null
                                : choice(
                                    key,
                                    value,
                                    v -> Named.parseOrThrow(ContentCoding.class, v),
                                    StreamSpec.ENCODINGS)));
            break;
          case "flush":
            s =
                s.withCompression(
                    s.compression()
                        .withFlush(
                            choice(key, value, FlushPolicy::parse, List.of(FlushPolicy.VALID))));
            break;
          case "cache_control":
            s =
                s.withCompression(
                    s.compression()
                        .withCacheControl(
                            choice(key, value, CacheControl::named, CacheControl.settingNames())));
            break;
          case "header":
            {
              int colon = value.indexOf(':');
              String allowed = " (allowed: Name:value, a token name and a single-line value)";
              if (colon <= 0)
                throw new StreamSpec.Invalid("bad parameter 'header': '" + value + "'" + allowed);
              try {
                headers.add(
                    new ResponseHeader(
                        value.substring(0, colon).trim(), value.substring(colon + 1).trim()));
              } catch (IllegalArgumentException e) {
                throw new StreamSpec.Invalid(
                    "bad parameter 'header': '" + value + "': " + e.getMessage() + allowed);
              }
              break;
            }
          default:
            throw new StreamSpec.Invalid(
                "unknown parameter '" + key + "' (known: " + PARAMETERS + ")");
        }
      }
    }
    s = s.withHeaders(headers);
    if (total > 0) {
      if (framesGiven)
        throw new StreamSpec.Invalid("bad parameters: give 'frames' or 'total', not both");
      long n = (total + s.frameBytes() - 1) / s.frameBytes();
      if (n > StreamSpec.MAX_FRAMES) {
        throw new StreamSpec.Invalid(
            "bad parameter 'total': "
                + total
                + " B in frames of "
                + s.frameBytes()
                + " B makes "
                + n
                + " frames (allowed: at most "
                + StreamSpec.MAX_FRAMES
                + ")");
      }
      s = s.withTotalBytes(total).withFrames((int) n);
    }
    return checked(s);
  }

  /** Refuses combinations that are each fine alone but impossible together; returns {@code s}. */
  private static StreamSpec checked(StreamSpec s) {
    int n = s.frameCount();
    long size = s.frameBytes();
    if (n * size > StreamSpec.MAX_TOTAL_BYTES) {
      throw new StreamSpec.Invalid(
          "bad parameters: frames x size is "
              + n * size
              + " B (allowed: at most "
              + StreamSpec.MAX_TOTAL_BYTES
              + " B)");
    }
    if (s.streamNanos() > StreamSpec.MAX_STREAM_NANOS) {
      throw new StreamSpec.Invalid(
          "bad parameters: think + interval x frames exceeds the 1 hour limit of one stream");
    }
    if (s.transfer() == Transfer.LENGTH && s.keepAliveNanos() > 0) {
      throw new StreamSpec.Invalid(
          "bad parameters: transfer=length with sse_keepalive (comments would overrun the Content-Length announced; "
              + "use transfer=chunked or close)");
    }
    if (s.transfer() == Transfer.LENGTH && s.compression().coding() != null) {
      throw new StreamSpec.Invalid(
          "bad parameters: transfer=length with encoding="
              + s.compression().coding().text()
              + " (a compressed body's length "
              + "is not known before it is sent; use transfer=chunked or close)");
    }
    if (s.endpoint() == Endpoint.SSE
        && MediaTypes.isNdjson(s.contentType())
        && (size > MediaTypes.MAX_NDJSON_FRAME_BYTES
            || size < FrameCodec.fixedBytes(n - 1) + MediaTypes.NDJSON_EXTRA_BYTES)) {
      throw new StreamSpec.Invalid(
          "bad parameter 'size': "
              + size
              + " B for NDJSON frames (allowed: "
              + (FrameCodec.fixedBytes(n - 1) + MediaTypes.NDJSON_EXTRA_BYTES)
              + ".."
              + MediaTypes.MAX_NDJSON_FRAME_BYTES
              + " B: one JSON line per frame, written whole)");
    }
    if (s.endpoint() == Endpoint.SSE && size < FrameCodec.fixedBytes(n - 1)) {
      throw new StreamSpec.Invalid(
          "bad parameter 'size': "
              + size
              + " B cannot hold frame "
              + (n - 1)
              + " (allowed: at least "
              + FrameCodec.fixedBytes(n - 1)
              + " B)");
    }
    return s;
  }

  private interface Parser<T> {
    T parse(String value);
  }

  private static <T> T choice(String key, String value, Parser<T> parser, List<String> allowed) {
    try {
      return parser.parse(value);
    } catch (IllegalArgumentException e) {
      throw new StreamSpec.Invalid(
          "bad parameter '"
              + key
              + "': '"
              + value
              + "' (allowed: "
              + String.join(", ", allowed)
              + ")");
    }
  }

  private static String decode(String s) {
    try {
      return URLDecoder.decode(s, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new StreamSpec.Invalid("bad percent-encoding in '" + s + "'");
    }
  }

  private static long integer(String key, String value, long min, long max) {
    long v;
    try {
      v = Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new StreamSpec.Invalid(
          "bad parameter '"
              + key
              + "': '"
              + value
              + "' is not a whole number (allowed: "
              + min
              + ".."
              + max
              + ")");
    }
    if (v < min || v > max) throw outOfRange(key, Long.toString(v), min + ".." + max);
    return v;
  }

  /** A value of {@code key} outside what it takes, with what it takes. */
  private static StreamSpec.Invalid outOfRange(String key, String value, String allowed) {
    return new StreamSpec.Invalid(
        "bad parameter '" + key + "': " + value + " is out of range (allowed: " + allowed + ")");
  }

  /** Sizes accept a unit ("2KiB") or a bare number of bytes. */
  private static long bytes(String key, String value, long min, long max) {
    long v;
    try {
      v =
          value.trim().chars().allMatch(Character::isDigit) && !value.isBlank()
              ? Long.parseLong(value.trim())
              : Units.parseBytes(value);
    } catch (IllegalArgumentException e) {
      throw new StreamSpec.Invalid(
          "bad parameter '"
              + key
              + "': "
              + e.getMessage()
              + " (allowed: "
              + min
              + ".."
              + max
              + " B)");
    }
    if (v < min || v > max) throw outOfRange(key, v + " B", min + ".." + max + " B");
    return v;
  }

  private static long duration(String key, String value, long min, long max) {
    long v;
    try {
      v = Units.parseDurationNanos(value);
    } catch (IllegalArgumentException e) {
      throw new StreamSpec.Invalid("bad parameter '" + key + "': " + e.getMessage());
    }
    if (v < min || v > max)
      throw outOfRange(key, value, Units.formatDuration(min) + ".." + Units.formatDuration(max));
    return v;
  }
}
