package flushlab.stream;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.ArrayList;
import java.util.List;

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
@RecordBuilder
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
    RequestMethod method)
    implements StreamSpecBuilder.With {

  public static final int DEFAULT_FRAMES = 41;
  public static final String DEFAULT_CONTENT_TYPE = "text/event-stream";

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
    return SseQuery.encode(this);
  }

  /**
   * Reads a {@code /sse} query (null or empty: the defaults); a bad value is refused naming the
   * parameter and what is allowed.
   */
  public static StreamSpec fromQuery(String query) {
    return SseQuery.parse(query);
  }
}
