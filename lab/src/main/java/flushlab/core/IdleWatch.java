package flushlab.core;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Calls {@code onIdle} once when a connection's progress counter has not moved for the idle
 * timeout. It looks a few times per timeout from one timer on the connection's loop, so the
 * per-frame and per-read paths only bump a counter they already keep (Netty's IdleStateHandler
 * wraps every write in a promise and a listener instead). The emitter and the relay share it.
 */
public final class IdleWatch {
  private final LongSupplier progress;
  private final long timeoutNanos;
  private final Runnable onIdle;
  private final ScheduledFuture<?> timer;
  private long seen;
  private long seenAtNanos = System.nanoTime();
  private boolean fired;

  public IdleWatch(EventLoop loop, long timeoutNanos, LongSupplier progress, Runnable onIdle) {
    this.progress = progress;
    this.timeoutNanos = timeoutNanos;
    this.onIdle = onIdle;
    this.seen = progress.getAsLong();
    long period = Math.max(1_000_000L, timeoutNanos / 4);
    this.timer = loop.scheduleAtFixedRate(this::check, period, period, TimeUnit.NANOSECONDS);
  }

  private void check() {
    long now = System.nanoTime();
    long p = progress.getAsLong();
    if (p != seen) {
      seen = p;
      seenAtNanos = now;
    } else if (!fired && now - seenAtNanos >= timeoutNanos) {
      fired = true;
      onIdle.run();
    }
  }

  public void cancel() {
    timer.cancel(false);
  }
}
