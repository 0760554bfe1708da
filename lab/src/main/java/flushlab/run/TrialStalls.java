package flushlab.run;

import flushlab.core.HiccupMeter;
import flushlab.core.StallLog;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * This host's stalls that could have decided one trial of {@code probe idle}, and how long they
 * count for: over the think's end for a pass through a target on this host, from when the silence
 * could begin for a cut, each moment once.
 *
 * @param stalls the stalls that count
 * @param ms how long they count for
 */
record TrialStalls(List<StallLog.Stall> stalls, double ms) {

  /**
   * Where this host's stalls begin to count against a trial that started at {@code startedNanos}. A
   * stall lengthens the silence only by holding the write that ends it, so without comments only
   * the time from the think's earliest end counts: a cut before then came from the target alone (a
   * trial of 1500 ms through a 1495 ms timeout was thrown out for 51 ms of stalls, none over 7.5
   * ms, scattered through the think, and the suite's two probe tests were skipped in every run).
   * With comments every write ends a silence, so the whole trial counts.
   */
  static long silenceWindowStart(long startedNanos, double thinkMs, double keepAliveMs) {
    return keepAliveMs > 0 ? startedNanos : startedNanos + (long) (thinkMs * 1e6);
  }

  /**
   * How long the probe waits for the meter's thread to have woken past a trial's end before judging
   * it.
   */
  static final long WATCHER_WAIT_NANOS = 200_000_000L;

  /**
   * A pass through a target on this host: the target's timer was late only by a stall that held it
   * past the write ending the silence, one covering the think's end (one ending before it would
   * have let the timer cut the stream then; s91: a 6.4 ms stall early in a 200 ms think threw out a
   * pass no stall could have made). It counts for its own length.
   */
  static TrialStalls overThinksEnd(long started, long ended, double thinkMs) {
    return overThinksEnd(HiccupMeter.get().host(), started, ended, thinkMs);
  }

  /** As {@link #overThinksEnd(long, long, double)}, of the stalls {@code log} holds. */
  static TrialStalls overThinksEnd(StallLog log, long started, long ended, double thinkMs) {
    long thinkEnd = started + (long) (thinkMs * 1e6);
    HiccupMeter.get().awaitWatcherPast(ended, WATCHER_WAIT_NANOS);
    List<StallLog.Stall> over =
        log.between(started, ended).stream()
            .filter(st -> st.fromNanos() - thinkEnd <= 0 && st.toNanos() - thinkEnd >= 0)
            .toList();
    return new TrialStalls(over, longestMs(over));
  }

  /**
   * A cut: every stall that could lengthen the silence ({@link #silenceWindowStart}), each moment
   * once.
   */
  static TrialStalls afterSilenceBegan(
      boolean cut, long started, long ended, double thinkMs, double keepAliveMs) {
    long from = silenceWindowStart(started, thinkMs, keepAliveMs);
    if (!cut || ended - from <= 0)
      return new TrialStalls(List.of(), 0); // a cut before the think was due to end
    HiccupMeter.get().awaitWatcherPast(ended, WATCHER_WAIT_NANOS);
    List<StallLog.Stall> stalls = HiccupMeter.get().host().between(from, ended);
    return new TrialStalls(stalls, coveredMs(stalls, from, ended));
  }

  private static double longestMs(List<StallLog.Stall> stalls) {
    long longest = 0;
    for (StallLog.Stall st : stalls) longest = Math.max(longest, st.nanos());
    return longest / 1e6;
  }

  /**
   * How much of [from, to] these stalls covered, in ms, each moment once: the host's log holds the
   * watcher's stalls and the loop stalls judged the host's, which overlap when one stall stopped
   * both (summed, a 400 ms stall read as 751 ms).
   */
  static double coveredMs(List<StallLog.Stall> stalls, long from, long to) {
    List<StallLog.Stall> byStart = new ArrayList<>(stalls);
    byStart.sort(Comparator.comparingLong(StallLog.Stall::fromNanos));
    long sum = 0;
    long reached = from;
    for (StallLog.Stall s : byStart) {
      long a = Math.max(reached, s.fromNanos());
      long b = Math.min(to, s.toNanos());
      if (b > a) {
        sum += b - a;
        reached = b;
      }
    }
    return sum / 1e6;
  }
}
