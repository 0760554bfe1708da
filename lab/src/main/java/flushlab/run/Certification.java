package flushlab.run;

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
}
