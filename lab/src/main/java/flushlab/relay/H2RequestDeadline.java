package flushlab.relay;

import flushlab.core.Units;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.Collection;
import java.util.concurrent.TimeUnit;

/**
 * The request timeout of an HTTP/2 client connection, as the emitter's HTTP/1.1 head has one: one
 * timer per connection at its oldest unfinished request's deadline; that request's stream is reset,
 * a header block still waiting for its CONTINUATIONs ends the connection. Confined to the
 * connection's event loop.
 */
final class H2RequestDeadline {
  /** What the edge does when a deadline passes. */
  interface Expiry {
    /** Whether the connection is closed: no timer is armed for it. */
    boolean closed();

    /** A header block was not complete in time: the connection ends. */
    void headerBlockLate(String why);

    /** A stream's request was not complete in time: it is reset. */
    void requestLate(H2EdgeStream stream, String why);

    /** After the streams were reset: their frames leave. */
    void flush();
  }

  private final EventLoop loop;
  private final long timeoutNanos;
  private final Collection<H2EdgeStream> streams;
  private final Expiry expiry;

  /** Since when a header block has waited for its CONTINUATIONs (0: none). */
  private long blockOpenSince;

  private ScheduledFuture<?> timer;

  H2RequestDeadline(
      EventLoop loop, long timeoutNanos, Collection<H2EdgeStream> streams, Expiry expiry) {
    this.loop = loop;
    this.timeoutNanos = timeoutNanos;
    this.streams = streams;
    this.expiry = expiry;
  }

  /** After the client's bytes were parsed: whether a header block is still open. */
  void headerBlockOpen(boolean open) {
    if (!open) blockOpenSince = 0;
    else if (blockOpenSince == 0) blockOpenSince = System.nanoTime();
    schedule();
  }

  void cancel() {
    if (timer != null) timer.cancel(false);
  }

  /** When the oldest request not complete yet began; Long.MAX_VALUE when none. */
  private long oldestIncomplete() {
    long oldest = blockOpenSince == 0 ? Long.MAX_VALUE : blockOpenSince;
    for (H2EdgeStream l : streams) if (!l.requestEnded) oldest = Math.min(oldest, l.openedNanos);
    return oldest;
  }

  private void schedule() {
    long oldest = oldestIncomplete();
    if (expiry.closed() || timer != null || oldest == Long.MAX_VALUE) return;
    long delay = Math.max(0, oldest + timeoutNanos - System.nanoTime()) + 1;
    timer = loop.schedule(this::fire, delay, TimeUnit.NANOSECONDS);
  }

  private void fire() {
    timer = null;
    if (expiry.closed()) return;
    long deadline = System.nanoTime() - timeoutNanos;
    String within = "within " + Units.formatDuration(timeoutNanos);
    if (blockOpenSince != 0 && blockOpenSince - deadline <= 0) {
      expiry.headerBlockLate("a header block was not complete " + within);
      return;
    }
    for (H2EdgeStream l : streams.toArray(H2EdgeStream[]::new)) {
      if (!l.requestEnded && l.openedNanos - deadline <= 0)
        expiry.requestLate(l, "the request was not complete " + within);
    }
    expiry.flush();
    schedule();
  }
}
