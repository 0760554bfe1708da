package flushlab.emitter;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The pacing audits of running streams, and the summaries of the most recent finished ones. Bounded
 * on both sides: running audits by the emitter's connection cap (one stream per connection),
 * finished ones to {@link #MAX_SUMMARIES} summaries of a few dozen bytes each, so a long-running
 * emitter stays small however long or many its streams were. Shared by the emitter's event loops,
 * so every method is synchronized (once per stream, never per frame).
 */
public final class AuditRegistry {
  public static final int MAX_SUMMARIES = 10_000;

  private final Map<Long, PacingAudit> running = new HashMap<>();
  private final Map<Long, PacingAudit.Summary> finished =
      new LinkedHashMap<>(256, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, PacingAudit.Summary> eldest) {
          return size() > MAX_SUMMARIES;
        }
      };
  private Histogram latenessPool;

  /** Starts the audit of a new stream, written on {@code loop}. */
  synchronized PacingAudit start(long streamId, int frames, boolean paced, Object loop) {
    PacingAudit a = new PacingAudit(streamId, frames, paced, loop, this);
    running.put(streamId, a);
    return a;
  }

  synchronized void finished(PacingAudit audit, PacingAudit.Summary summary) {
    running.remove(audit.streamId());
    finished.put(audit.streamId(), summary);
    if (latenessPool != null) audit.addLatenessTo(latenessPool);
    notifyAll(); // a reader waiting for this stream's audit (awaitSummary)
  }

  /**
   * The summary of a finished stream, waiting up to {@code timeoutNanos} while the stream is still
   * being written: the emitter files it on its loop right after the stream's last send(), and a
   * client on another loop (or the emitter's loop held up) can have read the whole stream first.
   * Null when the stream is unknown or evicted, or still running at the timeout. Never call it on
   * an event loop.
   */
  public synchronized PacingAudit.Summary awaitSummary(long streamId, long timeoutNanos)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeoutNanos;
    while (running.containsKey(streamId)) {
      long left = deadline - System.nanoTime();
      if (left <= 0) break;
      wait(Math.max(1, left / 1_000_000));
    }
    return finished.get(streamId);
  }

  /** The summary of a finished stream, or null if it is running, unknown or evicted. */
  public synchronized PacingAudit.Summary summary(long streamId) {
    return finished.get(streamId);
  }

  public synchronized boolean isRunning(long streamId) {
    return running.containsKey(streamId);
  }

  /** Running streams right now (each holds one audit). */
  public synchronized int runningCount() {
    return running.size();
  }

  /**
   * From now on, adds the lateness of every paced stream that finishes to {@code pool} (null
   * stops). For benches that pool many streams; the registry itself keeps no distributions.
   */
  public synchronized void poolLatenessInto(Histogram pool) {
    this.latenessPool = pool;
  }
}
