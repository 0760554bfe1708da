package flushlab.emitter;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the emitter lets in, so that nothing a client sends can exhaust its memory: at most {@code
 * maxConnections} connections, and at most {@link #REQUEST_BYTES_BUDGET} bytes of unfinished or
 * queued requests held over all of them. Shared by the emitter's event loops.
 */
final class Admission {
  /** Request bytes held at once over all connections (heads and bodies not yet answered). */
  static final long REQUEST_BYTES_BUDGET = 64L << 20;

  private final int maxConnections;
  private final AtomicInteger open = new AtomicInteger();
  private final AtomicLong requestBytes = new AtomicLong();

  Admission(int maxConnections) {
    this.maxConnections = maxConnections;
  }

  /**
   * Counts a new connection; false when it is one over the cap (it is still counted until it
   * closes).
   */
  boolean connectionOpened() {
    return open.incrementAndGet() <= maxConnections;
  }

  void connectionClosed() {
    open.decrementAndGet();
  }

  int maxConnections() {
    return maxConnections;
  }

  int openConnections() {
    return open.get();
  }

  /** Adds delta held request bytes; false (and nothing added) when that would pass the budget. */
  boolean holdRequestBytes(long delta) {
    if (delta <= 0) {
      requestBytes.addAndGet(delta);
      return true;
    }
    if (requestBytes.addAndGet(delta) > REQUEST_BYTES_BUDGET) {
      requestBytes.addAndGet(-delta);
      return false;
    }
    return true;
  }
}
