package flushlab.relay.shaper;

import flushlab.core.Named;
import flushlab.http.Headers;
import java.util.List;
import java.util.Locale;

/**
 * A proxy that decides once per response, from its headers, whether to stream it or to hold it,
 * following the public code of three: Go's {@code httputil.ReverseProxy} (net/http/httputil/
 * reverseproxy.go, {@code flushInterval}, Go 1.18 on: an event stream by its base media type, or a
 * body without Content-Length, is flushed per write); cloudflared (connection/connection.go, {@code
 * shouldFlush}: a Content-Type starting with text/event-stream or application/grpc); Spring Cloud
 * Gateway (NettyWriteResponseFilter with GatewayProperties' default streamingMediaTypes:
 * text/event-stream and application/stream+json, parameters ignored). What is not streamed is held
 * as {@code otherwise} says: in a buffer of {@code bytes} (Go's server writes through small buffers
 * of a few KiB) or to the end.
 */
public final class StreamIf extends Shaper {
  public static final Param PRESET =
      Param.choice(
          "preset",
          Preset.GO,
          Preset.class,
          "whose rule decides: go (event stream, or no Content-Length), cloudflared (text/event-stream or application/grpc "
              + "prefix), spring-cloud-gateway (text/event-stream or application/stream+json)");
  public static final Param OTHERWISE =
      Param.choice(
          "otherwise",
          Otherwise.BYTES,
          Otherwise.class,
          "what happens to a response the rule does not stream: held in a buffer of bytes=, or to its end");
  public static final Param BYTES =
      Param.size("bytes", "4KiB", 1, 64L << 20, "otherwise=bytes: the buffer it is held in");

  public static final ShaperType TYPE =
      new ShaperType(
          "stream-if",
          false,
          "a proxy that streams a response only when its headers say so (Go's ReverseProxy, cloudflared, Spring Cloud Gateway) "
              + "and holds the others",
          List.of(PRESET, OTHERWISE, BYTES),
          "stream-if,preset=cloudflared,otherwise=drain",
          p -> () -> new StreamIf(p));

  /** What happens to a response the rule does not stream. */
  public enum Otherwise implements Named {
    BYTES,
    DRAIN
  }

  /** Whose rule decides. */
  public enum Preset implements Named {
    GO,
    CLOUDFLARED,
    SPRING_CLOUD_GATEWAY
  }

  private final Preset preset;
  private final Shaper hold;
  private boolean streaming = true;

  StreamIf(Params p) {
    this.preset = p.choice(PRESET, Preset.class);
    boolean drain = p.choice(OTHERWISE, Otherwise.class) == Otherwise.DRAIN;
    this.hold =
        drain
            ? ShaperRegistry.parse("drain-and-flush").create()
            : ShaperRegistry.parse("byte-threshold=" + p.get(BYTES) + "B").create();
  }

  @Override
  protected void onWired() {
    hold.wire(next, ctx);
  }

  /** Whether the rule streams a response with these headers. */
  boolean streams(Headers h) {
    String type = h.get("Content-Type");
    String t = type == null ? "" : type.trim().toLowerCase(Locale.ROOT);
    String base = t.indexOf(';') < 0 ? t : t.substring(0, t.indexOf(';')).trim();
    return switch (preset) {
      case GO -> base.equals("text/event-stream") || h.get("Content-Length") == null;
      case CLOUDFLARED -> t.startsWith("text/event-stream") || t.startsWith("application/grpc");
      case SPRING_CLOUD_GATEWAY ->
          base.equals("text/event-stream") || base.equals("application/stream+json");
    };
  }

  @Override
  public void accept(Chunk c) {
    if (c.kind == Chunk.Kind.RESPONSE_START) streaming = streams(c.headers);
    if (streaming) {
      next.accept(c);
    } else {
      hold.accept(c);
    }
  }

  @Override
  public void release() {
    hold.release();
  }
}
