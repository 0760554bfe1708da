package flushlab.run;

import flushlab.client.BatchResult;
import flushlab.client.SentTogether;
import flushlab.client.StreamResult;
import flushlab.core.HiccupMeter;
import flushlab.core.LongSamples;
import flushlab.core.RunWaits;
import flushlab.core.StallFigures;
import flushlab.core.StallLog;
import io.vertx.core.Context;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Holds a run's merged reads against this process's stalls (its {@link HiccupMeter}). Frames that
 * reach the socket while the reader is stopped are read together when it runs again, exactly as a
 * proxy's release would be; a read that returned during a stall or within {@link
 * #AFTER_STALL_NANOS} of its end is counted as the stall's.
 */
public final class StallJudge {
  /**
   * How long after a stall's end a read still counts as the stall's: the reader's own wake-up after
   * the watcher's.
   */
  static final long AFTER_STALL_NANOS = 5_000_000L;

  /**
   * How long the judge waits for the meter's thread to log a stall the run ended in: it wakes every
   * 2 ms unless stalled itself.
   */
  static final long WATCHER_WAIT_NANOS = 200_000_000L;

  private StallJudge() {}

  /**
   * The run from {@code startNanos} to {@code endNanos} (System.nanoTime), its reads in {@code
   * result}, its frames {@code intervalNanos} apart; {@code who} names the reader. A stall of D
   * explains at most D / interval + 1 extra frames of a read after it (no more frames could pile up
   * while the reader was stopped): the rest of that read was merged before the reader stopped, by
   * whatever holds frames. Frames sent back to back (no interval) arrive together anyway, so no
   * stall explains them.
   */
  public static RunStalls judge(
      BatchResult result, long startNanos, long endNanos, String who, long intervalNanos) {
    return judge(result, startNanos, endNanos, who, intervalNanos, PathWait.NONE);
  }

  /**
   * What the path's other processes waited for a core over the run (a proxy the lab started, a
   * namespace's emitter): the longest wait of any one of their threads, with who they are.
   */
  public record PathWait(String who, long longestThreadWaitNanos) {
    public static final PathWait NONE = new PathWait("", 0);
  }

  /**
   * As above, with the path's other processes: frames the host held there (their busiest thread
   * waiting for a core) are the host's too, on the same terms as the reader's own loops' waits.
   */
  public static RunStalls judge(
      BatchResult result,
      long startNanos,
      long endNanos,
      String who,
      long intervalNanos,
      PathWait path) {
    HiccupMeter meter = HiccupMeter.get();
    if (!Context.isOnEventLoopThread()) meter.awaitWatcherPast(endNanos, WATCHER_WAIT_NANOS);
    List<StallLog.Stall> host = meter.host().between(startNanos, endNanos);
    List<StallLog.Stall> loops = meter.loops().between(startNanos, endNanos);
    int read = 0;
    int extra = 0;
    int inHost = 0;
    int inLoopOnly = 0;
    Explained hostWorst = new Explained();
    Explained loopWorst = new Explained();
    RunWaits waits = meter.loopWaits().during(startNanos, endNanos);
    long byWaits = 0;
    for (StreamResult s : result.streamResults()) {
      LongSamples frames = s.reads().framesPerFramedRead();
      LongSamples at = s.reads().framedReadAt();
      for (int i = 0; i < frames.size() && i < at.size(); i++) {
        int f = (int) frames.get(i);
        read += f;
        if (f <= 1) continue;
        extra += f - 1;
        StallLog.Stall l = covering(loops, at.get(i));
        StallLog.Stall h = covering(host, at.get(i));
        if (h == null) h = begunInAHostStall(host, l);
        Share share = share(h, l, intervalNanos, f);
        if (share.byHost() > 0) {
          inHost += share.byHost();
          hostWorst.add(h, f);
        }
        if (share.byLoop() > 0) {
          inLoopOnly += share.byLoop();
          loopWorst.add(l, f);
        }
        int rest = f - 1 - share.byHost() - share.byLoop();
        if (rest > 0) byWaits += Math.min(rest, waits.framesBefore(at.get(i), f, intervalNanos));
      }
    }
    String hostText = hostWorst.describe("the " + who + "'s host stalled", startNanos, inHost);
    // What no stall explains, the run-queue waits just before each read may (RunWaits): it is
    // counted only when it explains all of the rest, so it can exclude a run the host spoiled but
    // never lends a stall's excuse to part of a target's release (a relay's 40-frame release at a
    // stall stays the relay's, less what the stall piled up).
    int unexplained = extra - inHost - inLoopOnly;
    long waited = waits.totalNanos();
    long allowance =
        contentionAllowance(
            byWaits, pathFrames(path, intervalNanos), result.streamResults().size());
    if (unexplained > 0 && unexplained <= allowance) {
      String onPath =
          path.longestThreadWaitNanos() >= intervalNanos && intervalNanos > 0
              ? String.format(
                  " and %s a thread %.0f ms", path.who(), path.longestThreadWaitNanos() / 1e6)
              : "";
      String contention =
          String.format(
              "the %s's host kept its event loops waiting for a core %.0f ms in all over the run%s (run-queue "
                  + "wait, no stall long enough to log): %d extra frames read together then",
              who, waited / 1e6, onPath, unexplained);
      hostText = hostText == null ? contention : hostText + "; " + contention;
      inHost += unexplained;
    }
    String loopText =
        loopWorst.describe("an event loop of the " + who + " stalled", startNanos, inLoopOnly);
    if (loopText != null)
      loopText +=
          "; no stall of its host explains them: the lab's own code held the loop, and the run is kept";
    return new RunStalls(
        StallFigures.of(host, startNanos),
        StallFigures.of(loops, startNanos),
        read,
        extra,
        inHost,
        inLoopOnly,
        hostText,
        loopText,
        List.copyOf(host),
        path,
        (int) SentTogether.extraFrames(result.streamResults(), intervalNanos));
  }

  /**
   * The extra frames the host's waits for a core can have piled up in {@code streams} streams:
   * {@code byWaits}, what this process's loops' waits just before each read explain of it ({@link
   * RunWaits#framesBefore}), and in each stream once what the path's busiest thread's longest wait
   * does ({@code pathFramesPerStream}: it is one slice, so it piles up one read).
   */
  static long contentionAllowance(long byWaits, long pathFramesPerStream, int streams) {
    return byWaits + pathFramesPerStream * streams;
  }

  /**
   * The frames one stream can have piled up behind the path's busiest thread: its wait taken as one
   * unbroken slice, whole intervals only (as {@link RunWaits#framesBefore} counts a tick's).
   */
  static long pathFrames(PathWait path, long intervalNanos) {
    return intervalNanos <= 0 ? 0 : path.longestThreadWaitNanos() / intervalNanos;
  }

  /** A merged read's extra frames that a host stall and a loop stall alone explain. */
  record Share(int byHost, int byLoop) {}

  /**
   * The host's stall (null when none covers the read) explains what it can pile up; a longer loop
   * stall over the same read explains the rest, as the lab's own (s80: a 9 ms host stall at the end
   * of a 60 ms hold of every loop took a read's 12 extra frames as the host's 2, left 10
   * unexplained, and the hold went unnamed). A loop stall the host caused is in the host's log at
   * its full length, so it leaves the loop nothing.
   */
  static Share share(StallLog.Stall host, StallLog.Stall loop, long intervalNanos, int frames) {
    int byHost = host == null ? 0 : piledUp(host, intervalNanos, frames);
    int byLoop = loop == null ? 0 : Math.max(0, piledUp(loop, intervalNanos, frames) - byHost);
    return new Share(byHost, byLoop);
  }

  /**
   * The extra frames of a read of {@code frames} that a stall can have piled up: at most its length
   * over the interval, plus one, and no more than came within the stall and the reader's wake-up
   * after it ({@link #AFTER_STALL_NANOS}): frames sent an interval apart that a path let go as they
   * came are read apart unless the reader stood still that long. A 2 ms stall once excused both
   * runs of a clock's replay whose first tick released two frames sent 172 ms apart, which no stall
   * of 2 ms can merge (a fresh-clone suite, s290).
   */
  static int piledUp(StallLog.Stall stall, long intervalNanos, int frames) {
    if (intervalNanos <= 0) return 0;
    long within = (stall.nanos() + AFTER_STALL_NANOS) / intervalNanos;
    return (int) Math.min(frames - 1, Math.min(stall.nanos() / intervalNanos + 1, within));
  }

  /**
   * {@code loop} itself, as the host's, when it began while the host stood still (a host stall
   * under way at its start): its loop was stopped by the host, and what it then took to catch up is
   * the host's too. A 70 ms stall injected into this host's process left a client loop stalled 65
   * ms from inside it to 11 ms past its end, the read after it out of the host stall's reach, and
   * the run was kept as the lab's own loop stall (HostStallTest in a fresh-clone suite, s274; in
   * s271 `RequestHeadersTest`'s certification was refused on an 84 ms client loop stall no host
   * stall covered, whose start its output does not give). A loop stall that began before the host's
   * stays the lab's, and so does one that outlasted the host's by more than a loop catches up in
   * ({@link #CATCH_UP_NANOS}): a 60 ms hold of every loop by the lab's own code that began inside a
   * 7 ms host stall was excused whole as the host's, 53 ms, and the run measured again
   * (HostStallTest in a fresh-clone suite, s286). Null otherwise.
   */
  static StallLog.Stall begunInAHostStall(List<StallLog.Stall> host, StallLog.Stall loop) {
    if (loop == null) return null;
    for (StallLog.Stall s : host)
      if (loop.fromNanos() - s.fromNanos() >= 0
          && loop.fromNanos() - s.toNanos() <= 0
          && loop.toNanos() - s.toNanos() <= CATCH_UP_NANOS) return loop;
    return null;
  }

  /**
   * How long past a host stall a loop it stopped may take to run again: two of its ticks (s274's
   * loop ran again 11 ms after the host's 70 ms stall ended).
   */
  static final long CATCH_UP_NANOS = 2 * HiccupMeter.LOOP_TICK_NANOS;

  /**
   * The longest stall a read at {@code readNanos} falls in (or just after), or null. The host's log
   * holds the watcher thread's stalls and the loop stalls the host caused, which overlap: a 107 ms
   * stall of the watcher and a 2 ms one of a loop that resumed late inside it. The longest is what
   * let the most frames pile up; the first found once explained 1 of a read's 4 extra frames, and a
   * run whose reader's host stalled for 100 ms was kept as the path's.
   */
  static StallLog.Stall covering(List<StallLog.Stall> stalls, long readNanos) {
    StallLog.Stall longest = null;
    for (StallLog.Stall s : stalls) {
      if (readNanos - s.fromNanos() >= 0
          && readNanos - s.toNanos() <= AFTER_STALL_NANOS
          && (longest == null || s.nanos() > longest.nanos())) {
        longest = s;
      }
    }
    return longest;
  }

  /** The longest stall that merged reads, with the most frames one of its reads took together. */
  private static final class Explained {
    StallLog.Stall longest;
    int framesTogether;
    private final Set<Long> stalls = new HashSet<>();

    void add(StallLog.Stall s, int frames) {
      stalls.add(s.fromNanos());
      if (longest == null || s.nanos() > longest.nanos()) {
        longest = s;
        framesTogether = frames;
      } else if (s.fromNanos() == longest.fromNanos()) {
        framesTogether = Math.max(framesTogether, frames);
      }
    }

    String describe(String what, long startNanos, int extraFrames) {
      if (longest == null) return null;
      String at =
          String.format(
              "%.0f ms at %.2f s", longest.nanos() / 1e6, (longest.fromNanos() - startNanos) / 1e9);
      if (stalls.size() == 1 && extraFrames == framesTogether - 1) {
        return String.format("%s %s: %d frames read together then", what, at, framesTogether);
      }
      if (stalls.size() == 1) {
        return String.format(
            "%s %s: %d extra frames read together in it, %d in one read",
            what, at, extraFrames, framesTogether);
      }
      return String.format(
          "%s %d times, longest %s: %d extra frames read together in its stalls, %d in one read",
          what, stalls.size(), at, extraFrames, framesTogether);
    }
  }
}
