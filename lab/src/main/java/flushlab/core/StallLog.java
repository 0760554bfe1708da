package flushlab.core;

import java.util.ArrayList;
import java.util.List;

/**
 * The stalls one kind of watcher saw (the host's thread, or the event loops), newest 4096 kept:
 * each a span of System.nanoTime during which the watcher did not run. Written by the watchers,
 * read by whoever judges a run; a stall is rare, so one lock serves both.
 */
public final class StallLog {
  /** One stall: the watcher was due at {@code fromNanos} and ran at {@code toNanos}. */
  public record Stall(long fromNanos, long toNanos) {
    public long nanos() {
      return toNanos - fromNanos;
    }
  }

  private static final int KEPT = 4096;
  private final long[] from = new long[KEPT];
  private final long[] to = new long[KEPT];
  private long written;

  synchronized void add(long fromNanos, long toNanos) {
    int i = (int) (written++ % KEPT);
    from[i] = fromNanos;
    to[i] = toNanos;
  }

  /** The stalls that overlap [fromNanos, toNanos], oldest first. */
  public synchronized List<Stall> between(long fromNanos, long toNanos) {
    List<Stall> out = new ArrayList<>();
    for (long k = Math.max(0, written - KEPT); k < written; k++) {
      int i = (int) (k % KEPT);
      if (to[i] >= fromNanos && from[i] <= toNanos) out.add(new Stall(from[i], to[i]));
    }
    return out;
  }

  /**
   * How much of [fromNanos, toNanos] the logged stalls cover, for a log that one thread writes as
   * its stalls end (the meter's watcher): its stalls follow one another without overlapping, so
   * they add up, and the newest first, the walk stops at the first that ended before the span.
   * Allocates nothing.
   */
  public synchronized long coveredNanos(long fromNanos, long toNanos) {
    long covered = 0;
    for (long k = written - 1; k >= Math.max(0, written - KEPT); k--) {
      int i = (int) (k % KEPT);
      if (to[i] < fromNanos) break;
      covered += Math.max(0, Math.min(to[i], toNanos) - Math.max(from[i], fromNanos));
    }
    return covered;
  }

  /** How many stalls were ever logged. */
  public synchronized long count() {
    return written;
  }
}
