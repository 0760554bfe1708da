package flushlab.cluster;

import flushlab.run.Exclusion;
import java.util.List;
import java.util.Map;

/**
 * What a scenario run on a lab's agents measured: the certification runs, every measured run
 * (its merged figures and each agent's beside them, the agents missing from it by name), and
 * each agent's clock offset to the coordinator before and after.
 *
 * @param placement each role and the agent it ran on ("emitter", "client", a relay target's name)
 * @param certified the direct path was clean on every certification run; else nothing was measured
 */
public record ClusterOutcome(String runId, long startedEpochMillis, double seconds, boolean interrupted, boolean certified,
    String certifyVerdict, Map<String, String> placement, List<AgentClock> clocks, List<RunRow> certification, List<RunRow> rows) {

  /** True when any run lost an agent's share. */
  public boolean partial() {
    for (RunRow r : certification) if (r.partial()) return true;
    for (RunRow r : rows) if (r.partial()) return true;
    return false;
  }

  /**
   * An agent's clock minus the coordinator's, in ns, estimated before and after the run, each
   * plus or minus its bound (half the narrowest round trips; 0 when both read one kernel's
   * monotonic clock, the basis then SHARED_MONOTONIC).
   */
  public record AgentClock(String agent, long offsetBeforeNs, long boundBeforeNs, Long offsetAfterNs, Long boundAfterNs, int samples,
      ClockOffset.Basis basis) {
    /** Whether the clock was measured after the runs too (an agent gone by then was not: its after is null, "not measured"). */
    public boolean measuredAfter() {
      return offsetAfterNs != null;
    }

    /** The offset over the run: the mean of before and after, or before alone when after was not measured. */
    long offsetNs() {
      return measuredAfter() ? (offsetBeforeNs + offsetAfterNs) / 2 : offsetBeforeNs;
    }

    /** Its uncertainty: the wider bound, plus half of how far the offset moved during the run (before's bound alone without an after). */
    long boundNs() {
      return measuredAfter() ? Math.max(boundBeforeNs, boundAfterNs) + Math.abs(offsetAfterNs - offsetBeforeNs) / 2 : boundBeforeNs;
    }
  }

  /**
   * One run of one target in one cell (or one certification run).
   *
   * @param exclusion null, or why the run says nothing of the path and is left out of findings: the emitter's own
   *     audit says it wrote a frame later than the pacing tolerance, or every frame the client agents read together
   *     was read in a stall of their own hosts (or the emitter was late while its agent's host stalled)
   * @param hostStalls the client agents' own host stalls over the run (the longest agent's figures) and what they
   *     explain
   * @param missing agents whose share did not come back, with why; the run is then partial
   * @param merged the agents' figures summed; null ("no data") when no share came back
   */
  public record RunRow(String target, int cell, String cellLabel, int run, Exclusion exclusion,
      AgentStalls hostStalls, double emitterLatenessMaxMs,
      Map<String, String> missing, int streamsAsked, Figures merged, List<Figures> perAgent) {
    public boolean excluded() {
      return exclusion != null;
    }

    public String exclusionReason() {
      return exclusion == null ? null : exclusion.reason();
    }

    /** Excluded because an agent's host stalled through it: the host, not the path, was not fit to measure. */
    public boolean spoiledByHostStall() {
      return exclusion != null && exclusion.cause() == Exclusion.Cause.HOST_STALL;
    }

    public boolean partial() {
      return !missing.isEmpty();
    }

    /** Streams asked of the agents whose figures never came back (0 when every share did). */
    public int streamsLost() {
      return Math.max(0, streamsAsked - (merged == null ? 0 : merged.streams()));
    }
  }

  /**
   * One agent's figures (or their merge): counts are exact; frames per read is frames over reads;
   * the one-way emit->recv figure is corrected by the agents' clock offsets and carries its bound.
   */
  public record Figures(String agent, int streams, int streamsOk, int failed, long frames, long reads, long readsWithFrames, double framesPerRead,
      long damaged, double ttftP50Ms, double ttftP99Ms, double gapP50Ms, double gapMaxMs, OneWay emitToRecv) {}

  /**
   * The emit->recv figure across two clocks: corrected p50 and p99 with their plus-or-minus bound,
   * or withheld (null figures) with the reason when the bound is wider than the p50 it would show.
   */
  public record OneWay(Double p50Ms, Double p99Ms, double boundMs, String withheld) {}
}
