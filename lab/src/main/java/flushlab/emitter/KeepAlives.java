package flushlab.emitter;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * SSE comment keep-alives of one paced stream: once nothing has been written for the period (a long
 * think, a slow model), a comment line goes out, as servers send to keep idle timeouts from cutting
 * a stream; clients ignore it. Only between events, into a socket (and a window) that takes it now;
 * otherwise the next tick tries. Confined to the stream's event loop.
 */
final class KeepAlives {
  /** What a keep-alive writes: an SSE comment, which every client ignores. */
  static final byte[] COMMENT = ": keep-alive\n\n".getBytes(StandardCharsets.US_ASCII);

  /** The stream the comments go into. */
  interface Stream {
    /** Whether the stream has ended: no more ticks. */
    boolean ended();

    /** Whether a comment may go now: between events, into a socket and window that take it. */
    boolean mayWriteComment();

    /** Writes one comment. */
    void writeComment();
  }

  private final EventLoop loop;
  private final long periodNanos;
  private final Stream stream;
  private long lastWriteNanos;
  private ScheduledFuture<?> timer;

  /** {@code periodNanos} 0 sends none. */
  KeepAlives(EventLoop loop, long periodNanos, Stream stream) {
    this.loop = loop;
    this.periodNanos = periodNanos;
    this.stream = stream;
  }

  /** The response's head has just gone: the quiet counts from now. */
  void start() {
    lastWriteNanos = System.nanoTime();
    if (periodNanos > 0) timer = loop.schedule(this::tick, periodNanos, TimeUnit.NANOSECONDS);
  }

  /** The stream wrote at {@code nanos}: the quiet counts from then. */
  void wrote(long nanos) {
    lastWriteNanos = nanos;
  }

  void cancel() {
    if (timer != null) timer.cancel(false);
  }

  private void tick() {
    timer = null;
    if (stream.ended()) return;
    long now = System.nanoTime();
    long quiet = now - lastWriteNanos;
    if (quiet >= periodNanos && stream.mayWriteComment()) {
      stream.writeComment();
      lastWriteNanos = now;
      quiet = 0;
    }
    timer =
        loop.schedule(this::tick, Math.max(1_000_000L, periodNanos - quiet), TimeUnit.NANOSECONDS);
  }
}
