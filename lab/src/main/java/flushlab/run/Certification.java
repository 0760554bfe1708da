package flushlab.run;

import flushlab.client.BatchResult;
import flushlab.client.SentTogether;
import flushlab.client.StreamResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The direct-path certification that must pass before any target row counts.
 *
 * @param framesPerRead over the kept runs together
 * @param emitToRecvMs the direct path's own one-way delay (p50): what a target's waits are measured
 *     beyond
 * @param emitToRecvP99Ms its p99: how far one frame's delay strays on this path with no proxy on it
 *     (what a replay's tolerances widen by: {@link flushlab.map.Replay.Tolerance#fromDirectPath})
 * @param verdict "certified", or why not: the direct path coalesced, its streams failed, or this
 *     host stalled in every run
 */
public record Certification(
    boolean certified,
    double framesPerRead,
    double emitToRecvMs,
    double emitToRecvP99Ms,
    List<RunRecord> runs,
    String verdict) {

  /** A certification whose spread is not known (p99 taken as the p50). */
  public Certification(
      boolean certified,
      double framesPerRead,
      double emitToRecvMs,
      List<RunRecord> runs,
      String verdict) {
    this(certified, framesPerRead, emitToRecvMs, emitToRecvMs, runs, verdict);
  }

  /** How far the direct path's delay strays: p99 less p50, in ms (0 when not known). */
  public double spreadMs() {
    return Math.max(0, emitToRecvP99Ms - emitToRecvMs);
  }

  /**
   * The certification its runs make: the kept runs' frames per read at or under {@code ceiling},
   * every stream read. Otherwise why not, in the order that names a cause outside the direct path
   * first: a budget that ran out ({@code budgetSpent}), this host's stalls in every run, no run
   * kept, streams that failed, frames read together outside any stall.
   */
  static Certification judged(
      List<RunRecord> runs, double ceiling, boolean interrupted, boolean budgetSpent) {
    List<StreamResult> kept = new ArrayList<>();
    for (RunRecord r : runs) if (!r.excluded()) kept.addAll(r.result().streamResults());
    BatchResult all = new BatchResult(kept);
    double apart = sentApart(all, runs);
    boolean certified =
        !interrupted && all.streamsOk() > 0 && all.errorCount() == 0 && apart <= ceiling;
    String verdict;
    if (certified) {
      verdict =
          all.framesPerRead() <= ceiling
              ? "certified"
              : String.format(
                  "certified (%.3f frames per read with what this lab's emitter, late on its host, "
                      + "wrote together counted once)",
                  apart);
    } else if ((kept.isEmpty() || all.errorCount() > 0 || all.streamsOk() == 0) && budgetSpent) {
      // a request's timeout is what is left of the budget: one cut at the budget's end says nothing
      // of the direct path
      // (s119: two runs excluded for this host's stalls, the third cut after 319 ms, and the path
      // was blamed); a budget
      // spent before the first run began leaves no run at all, which says nothing of this host
      // either (CI at f41475e)
      boolean stalled = runs.stream().anyMatch(RunRecord::spoiledByHostStall);
      String cut =
          runs.isEmpty()
              ? "before its first run began"
              : kept.isEmpty()
                  ? "its last run cut at the budget's end ("
                      + runs.get(runs.size() - 1).exclusionReason()
                      + ")"
                  : "its last request cut at the budget's end (" + all.firstError() + ")";
      verdict =
          "not certified: --budget ran out during certification, "
              + cut
              + (stalled
                  ? "; this host stalled during certification, "
                      + hostStalls(runs)
                      + ", and each run it excluded was measured "
                      + "once more"
                  : "")
              + ": map again with a longer --budget"
              + (stalled ? " or on a quieter host" : "");
    } else if (kept.isEmpty()
        && !runs.isEmpty()
        && runs.stream().allMatch(RunRecord::spoiledByHostStall)) {
      verdict =
          "not certified: this host stalled during certification, "
              + hostStalls(runs)
              + "; every run it excluded was "
              + "measured once more and stalled again (no proxy is involved in the direct path: try again on a quieter host)";
    } else if (kept.isEmpty()) {
      // where this host stalled through some of them, the verdict says so: the runs it did not
      // spoil were excluded for an emitter late with no stall logged, and "no run was kept (the
      // client's host stalled 23 ms ...)" named the stall only in passing (a fresh-clone suite,
      // s275, 2026-12-07)
      boolean someStalled = runs.stream().anyMatch(RunRecord::spoiledByHostStall);
      verdict =
          "not certified: no run was kept ("
              + (runs.isEmpty() ? "none finished" : runs.get(runs.size() - 1).exclusionReason())
              + ")"
              + (someStalled
                  ? "; this host stalled during certification, " + hostStalls(runs)
                  : "");
    } else if (all.errorCount() > 0 || all.streamsOk() == 0) {
      verdict = "not certified: the direct path's streams failed (" + all.firstError() + ")";
    } else {
      verdict =
          String.format(
              "not certified: the direct path read %.3f frames per read, over the ceiling of %.2f, outside any stall "
                  + "of this host (the direct path is not clean)%s",
              all.framesPerRead(),
              ceiling,
              apart < all.framesPerRead() - 0.0005
                  ? String.format(
                      "; %.3f with what this lab's emitter wrote together counted once", apart)
                  : "");
    }
    return new Certification(
        certified,
        all.framesPerRead(),
        all.emitToRecvMs().p50(),
        all.emitToRecvMs().p99(),
        List.copyOf(runs),
        verdict);
  }

  /**
   * The kept runs' frames per read with the frames this lab's emitter wrote together counted once
   * (each run's {@link RunStalls#extraSentTogether}): what the direct path itself merged.
   */
  static double sentApart(BatchResult kept, List<RunRecord> runs) {
    long together = 0;
    for (RunRecord r : runs)
      if (!r.excluded() && r.stalls() != null) together += r.stalls().extraSentTogether();
    return SentTogether.framesPerReadLess(kept, together);
  }

  /** The line every measuring command prints: the frames per read, the runs kept and why. */
  String line(double ceiling) {
    long excluded = runs.stream().filter(RunRecord::excluded).count();
    return String.format(
        "certification: direct path %.3f frames per read over %d kept runs (ceiling %.2f, %d excluded): %s",
        framesPerRead, runs.size() - excluded, ceiling, excluded, verdict);
  }

  /** The host stalls of the runs excluded for them: "2 over 20 ms; longest 48.2 ms". */
  /**
   * What the stalls were: the client's host's, where its meter saw any, and the last excluded run's
   * reason, which names the emitter's host when it was the one held (a suite's three-agent run said
   * "0 time(s) over 20 ms, the longest 0.0 ms" of runs its emitters' host had spoiled).
   */
  static String hostStalls(List<RunRecord> runs) {
    int over20 = 0;
    double max = 0;
    String last = null;
    for (RunRecord r : runs) {
      if (r.excluded()) last = r.exclusionReason();
      if (r.stalls() == null) continue;
      over20 += r.stalls().host().over20Ms();
      max = Math.max(max, r.stalls().host().maxMs());
    }
    String client =
        max > 0
            ? String.format(
                "the client's host stalled %d time(s) over 20 ms, the longest %.1f ms", over20, max)
            : null;
    String excluded = last == null ? null : "the last run excluded: " + last;
    if (client == null) return excluded == null ? "no stall figure was kept" : excluded;
    return excluded == null ? client : client + "; " + excluded;
  }
}
