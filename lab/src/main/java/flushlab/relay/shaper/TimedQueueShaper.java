package flushlab.relay.shaper;

import io.netty.util.concurrent.ScheduledFuture;
import java.util.ArrayDeque;

/**
 * The shared shape of the delaying shapers: items wait in a FIFO until their release time, which
 * never goes backwards, so order is kept whatever the delays. Release times derive from each item's
 * arrival time, so a delay placed after another waits only what remains. When more than {@link
 * #HIGH_WATERMARK_BYTES} wait, upstream reads pause until the queue is under {@link
 * #LOW_WATERMARK_BYTES}: a delay never becomes an unbounded buffer.
 */
abstract class TimedQueueShaper extends Shaper {
  static final long HIGH_WATERMARK_BYTES = 1L << 20;
  static final long LOW_WATERMARK_BYTES = 256L << 10;

  private final ArrayDeque<Chunk> queue = new ArrayDeque<>();
  private final ArrayDeque<Long> releaseAt = new ArrayDeque<>();
  private long lastRelease;
  private long queuedBytes;
  private ScheduledFuture<?> timer;
  private boolean released;

  /** Queues an item to go on at {@code atNanos} (or later, to keep order). */
  protected final void enqueue(Chunk c, long atNanos) {
    long at = Math.max(atNanos, lastRelease);
    lastRelease = at;
    boolean wasEmpty = queue.isEmpty();
    queue.add(c);
    releaseAt.add(at);
    queuedBytes += c.length();
    if (queuedBytes > HIGH_WATERMARK_BYTES) ctx.holdUpstream(this);
    // Release times never decrease, so a pending timer for the head already covers this item.
    if (wasEmpty) pump();
  }

  /** When the next piece of a sliced chunk leaves, given when the previous one did. */
  protected interface PieceClock {
    long next(long previousNanos, int pieceBytes, boolean firstPiece);
  }

  /**
   * Queues a data chunk as pieces of at most {@code pieceBytes}, in order; the clock starts at the
   * chunk's arrival (or the last release, if later) and is advanced once per piece.
   */
  protected final void enqueueSlices(Chunk c, int pieceBytes, PieceClock clock) {
    long t = Math.max(c.arrivalNanos, lastRelease);
    for (int off = 0; off < c.length(); off += pieceBytes) {
      int n = Math.min(pieceBytes, c.length() - off);
      t = clock.next(t, n, off == 0);
      enqueue(c.withBytes(c.bytes.slice(off, off + n).copy()), t);
    }
  }

  private void pump() {
    if (released) return;
    timer = null;
    long now = System.nanoTime();
    while (!queue.isEmpty() && releaseAt.peek() <= now) {
      releaseAt.poll();
      Chunk c = queue.poll();
      queuedBytes -= c.length();
      next.accept(c);
    }
    if (queuedBytes < LOW_WATERMARK_BYTES) ctx.releaseUpstream(this);
    if (!queue.isEmpty()) {
      timer = ctx.schedule(this::pump, releaseAt.peek() - now);
    }
  }

  @Override
  public void release() {
    released = true;
    if (timer != null) timer.cancel(false);
    queue.clear();
    releaseAt.clear();
  }
}
