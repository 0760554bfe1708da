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
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * One stream the emitter is asked for: the typed form that scenarios, flags, the map and the
 * console build, that writes its own {@code /sse} query and that the emitter reads back through
 * {@link #fromQuery}. The defaults of a stream live here and nowhere else.
 *
 * <p>Example: {@code StreamSpec.DEFAULT.withFrameBytes(1100).withIntervalNanos(20_000_000)} asks
 * for 41 frames of 1,100 B every 20 ms, {@code /sse?frames=41&size=1100&interval=20000000ns&...}.
 *
 * @param frames frames (tokens) per response; in bulk mode, as many as {@code totalBytes} takes
 * @param totalBytes bulk mode: the body's bytes in frames of {@code frameBytes}; 0 when not bulk
 * @param frameBytes bytes of each SSE event on the wire (sse endpoint)
 * @param transfer body framing (sse endpoint)
 * @param headers extra response headers (sse endpoint)
 * @param compression how the emitter compresses the body for a request that accepts it (sse
 *     endpoint)
 * @param contentType the response's Content-Type (sse endpoint): what many proxies decide to stream
 *     or buffer on
 * @param keepAliveNanos an SSE comment once nothing was written for this long (0: none), as servers
 *     send to keep idle timeouts away
 * @param method how the client asks for the sse endpoint: GET, or POST with a small JSON body (a
 *     proxy may treat them apart)
 */
public record StreamSpec(
    Endpoint endpoint,
    int frames,
    long totalBytes,
    int frameBytes,
    long intervalNanos,
    long thinkNanos,
    Transfer transfer,
    XAccelBuffering xAccelBuffering,
    List<ResponseHeader> headers,
    Compression compression,
    String contentType,
    long keepAliveNanos,
    RequestMethod method) {

  public static final int DEFAULT_FRAMES = 41;
  public static final String DEFAULT_CONTENT_TYPE = "text/event-stream";

  /**
   * A media type with optional parameters, as Content-Type carries it: type/subtype[;
   * name=value]... in HTTP's token characters.
   */
  private static final Pattern MEDIA_TYPE =
      Pattern.compile(
          "[!#$%&'*+.^_`|~0-9A-Za-z-]+/[!#$%&'*+.^_`|~0-9A-Za-z-]+(\\s*;\\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+=(\"[^\"\\r\\n]*\"|[!#$%&'*+.^_`|~0-9A-Za-z-]+))*");

  public static final int MAX_CONTENT_TYPE_CHARS = 200;
  public static final int DEFAULT_FRAME_BYTES = 60;
  public static final long DEFAULT_INTERVAL_NANOS = 50_000_000L;

  /** 41 plain frames of 60 B every 50 ms, chunked, at once. */
  public static final StreamSpec DEFAULT =
      new StreamSpec(
          Endpoint.SSE,
          DEFAULT_FRAMES,
          0,
          DEFAULT_FRAME_BYTES,
          DEFAULT_INTERVAL_NANOS,
          0,
          Transfer.CHUNKED,
          XAccelBuffering.ABSENT,
          List.of(),
          Compression.NONE,
          DEFAULT_CONTENT_TYPE,
          0,
          RequestMethod.GET);

  public static final int MAX_FRAMES = 1_000_000;
  public static final int MAX_FRAME_BYTES = 16 * 1024 * 1024;
  public static final long MAX_INTERVAL_NANOS = 60_000_000_000L;
  public static final long MAX_THINK_NANOS = 60_000_000_000L;
  public static final long MAX_STREAM_NANOS = 3_600_000_000_000L;
  public static final long MAX_TOTAL_BYTES = 1L << 30;

  /** The query parameters {@link #fromQuery} knows. */
  public static final String PARAMETERS =
      "frames, size, interval, think, total, transfer, content_type, sse_keepalive, x_accel_buffering, encoding, flush, cache_control, header";

  /** What encoding= takes: identity (never compress) or a content coding. */
  public static final List<String> ENCODINGS = List.of("identity", "gzip", "deflate", "br", "zstd");

  /** A query the emitter refuses with HTTP 400 and this one-line reason. */
  public static final class Invalid extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    Invalid(String message) {
      super(message);
    }
  }

  public StreamSpec {
    headers = List.copyOf(headers);
  }

  public boolean paced() {
    return intervalNanos > 0;
  }

  public boolean bulk() {
    return totalBytes > 0;
  }

  /**
   * Frames the response carries: {@code frames}, or in bulk mode as many frames of frameBytes as
   * totalBytes takes.
   */
  public int frameCount() {
    return bulk() ? (int) ((totalBytes + frameBytes - 1) / frameBytes) : frames;
  }

  /** From the first frame's deadline to the last's. */
  public long streamNanos() {
    return thinkNanos + intervalNanos * (long) (frameCount() - 1);
  }

  public StreamSpec withEndpoint(Endpoint e) {
    return new StreamSpec(
        e,
        frames,
        totalBytes,
        frameBytes,
        intervalNanos,
        thinkNanos,
        transfer,
        xAccelBuffering,
        headers,
        compression,
        contentType,
        keepAliveNanos,
        method);
  }

  public StreamSpec withFrames(int n) {
    return new StreamSpec(
        endpoint,
        n,
        totalBytes,
        frameBytes,
        intervalNanos,
        thinkNanos,
        transfer,
        xAccelBuffering,
        headers,
        compression,
        contentType,
        keepAliveNanos,
        method);
  }

  /** Bulk mode (0: back to counting frames). */
  public StreamSpec withTotalBytes(long b) {
    return new StreamSpec(
        endpoint,
        frames,
        b,
        frameBytes,
        intervalNanos,
        thinkNanos,
        transfer,
        xAccelBuffering,
        headers,
        compression,
        contentType,
        keepAliveNanos,
        method);
  }

  public StreamSpec withFrameBytes(int b) {
    return new StreamSpec(
        endpoint,
        frames,
        totalBytes,
        b,
        intervalNanos,
        thinkNanos,
        transfer,
        xAccelBuffering,
        headers,
        compression,
        contentType,
        keepAliveNanos,
        method);
  }

  public StreamSpec withIntervalNanos(long n) {
    return new StreamSpec(
        endpoint,
        frames,
        totalBytes,
        frameBytes,
        n,
        thinkNanos,
        transfer,
        xAccelBuffering,
        headers,
        compression,
        contentType,
        keepAliveNanos,
        method);
  }

  public StreamSpec withThinkNanos(long n) {
    return new StreamSpec(
        endpoint,
        frames,
        totalBytes,
        frameBytes,
        intervalNanos,
        n,
        transfer,
        xAccelBuffering,
        headers,
        compression,
        contentType,
        keepAliveNanos,
        method);
  }

  public StreamSpec withTransfer(Transfer t) {
    return new StreamSpec(
        endpoint,
        frames,
        totalBytes,
        frameBytes,
        intervalNanos,
        thinkNanos,
        t,
        xAccelBuffering,
        headers,
        compression,
        contentType,
        keepAliveNanos,
        method);
  }

  public StreamSpec withXAccelBuffering(XAccelBuffering x) {
    return new StreamSpec(
        endpoint,
        frames,
        totalBytes,
        frameBytes,
        intervalNanos,
        thinkNanos,
        transfer,
        x,
        headers,
        compression,
        contentType,
        keepAliveNanos,
        method);
  }

  public StreamSpec withHeaders(List<ResponseHeader> h) {
    return new StreamSpec(
        endpoint,
        frames,
        totalBytes,
        frameBytes,
        intervalNanos,
        thinkNanos,
        transfer,
        xAccelBuffering,
        h,
        compression,
        contentType,
        keepAliveNanos,
        method);
  }

  public StreamSpec withMethod(RequestMethod m) {
    return new StreamSpec(
        endpoint,
        frames,
        totalBytes,
        frameBytes,
        intervalNanos,
        thinkNanos,
        transfer,
        xAccelBuffering,
        headers,
        compression,
        contentType,
        keepAliveNanos,
        m);
  }

  public StreamSpec withKeepAliveNanos(long n) {
    return new StreamSpec(
        endpoint,
        frames,
        totalBytes,
        frameBytes,
        intervalNanos,
        thinkNanos,
        transfer,
        xAccelBuffering,
        headers,
        compression,
        contentType,
        n,
        method);
  }

  public StreamSpec withContentType(String t) {
    return new StreamSpec(
        endpoint,
        frames,
        totalBytes,
        frameBytes,
        intervalNanos,
        thinkNanos,
        transfer,
        xAccelBuffering,
        headers,
        compression,
        t,
        keepAliveNanos,
        method);
  }

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

  public StreamSpec withCompression(Compression c) {
    return new StreamSpec(
        endpoint,
        frames,
        totalBytes,
        frameBytes,
        intervalNanos,
        thinkNanos,
        transfer,
        xAccelBuffering,
        headers,
        c,
        contentType,
        keepAliveNanos,
        method);
  }

  /**
   * The response headers the emitter adds: X-Accel-Buffering when asked for, then the extra ones.
   */
  public List<ResponseHeader> responseHeaders() {
    if (xAccelBuffering == XAccelBuffering.ABSENT) return headers;
    List<ResponseHeader> all = new ArrayList<>(headers.size() + 1);
    all.add(new ResponseHeader("X-Accel-Buffering", xAccelBuffering.text()));
    all.addAll(headers);
    return all;
  }

  /** The request path and query that ask the emitter for this stream: {@code /sse?...}. */
  public String ssePathAndQuery() {
    return Endpoint.SSE.path + "?" + toQuery();
  }

  /** The {@code /sse} query: every value in its base unit, so it reads back exactly. */
  public String toQuery() {
    StringBuilder q =
        new StringBuilder(128)
            .append("size=")
            .append(frameBytes)
            .append("&interval=")
            .append(intervalNanos)
            .append("ns")
            .append("&think=")
            .append(thinkNanos)
            .append("ns")
            .append("&transfer=")
            .append(transfer.text());
    if (bulk()) {
      q.append("&total=").append(totalBytes);
    } else {
      q.append("&frames=").append(frames);
    }
    if (keepAliveNanos > 0) q.append("&sse_keepalive=").append(keepAliveNanos).append("ns");
    if (!contentType.equals(DEFAULT_CONTENT_TYPE))
      q.append("&content_type=").append(URLEncoder.encode(contentType, StandardCharsets.UTF_8));
    if (xAccelBuffering != XAccelBuffering.ABSENT)
      q.append("&x_accel_buffering=").append(xAccelBuffering.text());
    if (compression.coding() != null) q.append("&encoding=").append(compression.coding().text());
    if (!compression.flush().equals(FlushPolicy.EACH))
      q.append("&flush=").append(compression.flush().text());
    if (compression.cacheControl() != CacheControl.NO_CACHE)
      q.append("&cache_control=").append(compression.cacheControl().text());
    for (ResponseHeader h : headers) {
      q.append("&header=")
          .append(URLEncoder.encode(h.name() + ":" + h.value(), StandardCharsets.UTF_8));
    }
    return q.toString();
  }

  /**
   * Reads a {@code /sse} query (null or empty: the defaults); a bad value is refused naming the
   * parameter and what is allowed.
   */
  public static StreamSpec fromQuery(String query) {
    StreamSpec s = DEFAULT;
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
            s = s.withFrames((int) integer(key, value, 1, MAX_FRAMES));
            framesGiven = true;
            break;
          case "size":
            s =
                s.withFrameBytes(
                    (int) bytes(key, value, FrameCodec.MIN_FRAME_BYTES, MAX_FRAME_BYTES));
            break;
          case "interval":
            s = s.withIntervalNanos(duration(key, value, 0, MAX_INTERVAL_NANOS));
            break;
          case "think":
            s = s.withThinkNanos(duration(key, value, 0, MAX_THINK_NANOS));
            break;
          case "total":
            total = bytes(key, value, FrameCodec.MIN_FRAME_BYTES, MAX_TOTAL_BYTES);
            break;
          case "transfer":
            s = s.withTransfer(choice(key, value, Transfer::named, Transfer.settingNames()));
            break;
          case "sse_keepalive":
            s = s.withKeepAliveNanos(duration(key, value, 0, MAX_THINK_NANOS));
            break;
          case "content_type":
            if (!validContentType(value)) {
              throw new Invalid(
                  "bad parameter 'content_type': '"
                      + value
                      + "' (allowed: a media type such as text/event-stream, "
                      + "text/event-stream; charset=utf-8, application/x-ndjson or text/plain, at most "
                      + MAX_CONTENT_TYPE_CHARS
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
                                    ENCODINGS)));
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
                throw new Invalid("bad parameter 'header': '" + value + "'" + allowed);
              try {
                headers.add(
                    new ResponseHeader(
                        value.substring(0, colon).trim(), value.substring(colon + 1).trim()));
              } catch (IllegalArgumentException e) {
                throw new Invalid(
                    "bad parameter 'header': '" + value + "': " + e.getMessage() + allowed);
              }
              break;
            }
          default:
            throw new Invalid("unknown parameter '" + key + "' (known: " + PARAMETERS + ")");
        }
      }
    }
    s = s.withHeaders(headers);
    if (total > 0) {
      if (framesGiven) throw new Invalid("bad parameters: give 'frames' or 'total', not both");
      long n = (total + s.frameBytes() - 1) / s.frameBytes();
      if (n > MAX_FRAMES) {
        throw new Invalid(
            "bad parameter 'total': "
                + total
                + " B in frames of "
                + s.frameBytes()
                + " B makes "
                + n
                + " frames (allowed: at most "
                + MAX_FRAMES
                + ")");
      }
      s = s.withTotalBytes(total).withFrames((int) n);
    }
    return s.checked();
  }

  /** Refuses combinations that are each fine alone but impossible together; returns this. */
  public StreamSpec checked() {
    int n = frameCount();
    long size = frameBytes;
    if (n * size > MAX_TOTAL_BYTES) {
      throw new Invalid(
          "bad parameters: frames x size is "
              + n * size
              + " B (allowed: at most "
              + MAX_TOTAL_BYTES
              + " B)");
    }
    if (streamNanos() > MAX_STREAM_NANOS) {
      throw new Invalid(
          "bad parameters: think + interval x frames exceeds the 1 hour limit of one stream");
    }
    if (transfer == Transfer.LENGTH && keepAliveNanos > 0) {
      throw new Invalid(
          "bad parameters: transfer=length with sse_keepalive (comments would overrun the Content-Length announced; "
              + "use transfer=chunked or close)");
    }
    if (transfer == Transfer.LENGTH && compression.coding() != null) {
      throw new Invalid(
          "bad parameters: transfer=length with encoding="
              + compression.coding().text()
              + " (a compressed body's length "
              + "is not known before it is sent; use transfer=chunked or close)");
    }
    if (endpoint == Endpoint.SSE
        && isNdjson(contentType)
        && (size > MAX_NDJSON_FRAME_BYTES
            || size < FrameCodec.fixedBytes(n - 1) + NDJSON_EXTRA_BYTES)) {
      throw new Invalid(
          "bad parameter 'size': "
              + size
              + " B for NDJSON frames (allowed: "
              + (FrameCodec.fixedBytes(n - 1) + NDJSON_EXTRA_BYTES)
              + ".."
              + MAX_NDJSON_FRAME_BYTES
              + " B: one JSON line per frame, written whole)");
    }
    if (endpoint == Endpoint.SSE && size < FrameCodec.fixedBytes(n - 1)) {
      throw new Invalid(
          "bad parameter 'size': "
              + size
              + " B cannot hold frame "
              + (n - 1)
              + " (allowed: at least "
              + FrameCodec.fixedBytes(n - 1)
              + " B)");
    }
    return this;
  }

  private interface Parser<T> {
    T parse(String value);
  }

  private static <T> T choice(String key, String value, Parser<T> parser, List<String> allowed) {
    try {
      return parser.parse(value);
    } catch (IllegalArgumentException e) {
      throw new Invalid(
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
      throw new Invalid("bad percent-encoding in '" + s + "'");
    }
  }

  private static long integer(String key, String value, long min, long max) {
    long v;
    try {
      v = Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new Invalid(
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
    if (v < min || v > max) {
      throw new Invalid(
          "bad parameter '"
              + key
              + "': "
              + v
              + " is out of range (allowed: "
              + min
              + ".."
              + max
              + ")");
    }
    return v;
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
      throw new Invalid(
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
    if (v < min || v > max) {
      throw new Invalid(
          "bad parameter '"
              + key
              + "': "
              + v
              + " B is out of range (allowed: "
              + min
              + ".."
              + max
              + " B)");
    }
    return v;
  }

  private static long duration(String key, String value, long min, long max) {
    long v;
    try {
      v = Units.parseDurationNanos(value);
    } catch (IllegalArgumentException e) {
      throw new Invalid("bad parameter '" + key + "': " + e.getMessage());
    }
    if (v < min || v > max) {
      throw new Invalid(
          "bad parameter '"
              + key
              + "': "
              + value
              + " is out of range (allowed: "
              + Units.formatDuration(min)
              + ".."
              + Units.formatDuration(max)
              + ")");
    }
    return v;
  }
}
