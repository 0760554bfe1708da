package flushlab.run;

import flushlab.core.Named;
import flushlab.emitter.LateFrame;

/**
 * Why a run says nothing of the target: its cause, compared where a decision depends on it, and the
 * sentence with the figures that names it in every output.
 */
public record Exclusion(Cause cause, String reason) {

  public enum Cause implements Named {
    /**
     * The emitter wrote a frame later than the pacing tolerance: the stream was not what was asked
     * for.
     */
    EMITTER_LATE,
    /**
     * The same, and the loop stall that held the frame was this host's (its thread waited for a
     * core, or stood with the JVM).
     */
    EMITTER_HELD_BY_HOST,
    /**
     * Every frame read together was read in a stall of the reading host: the reader stopped, not
     * the target.
     */
    HOST_STALL,
    /** A client agent's share, or the emitter's audit, did not come back: the run is not whole. */
    MISSING_SHARE
  }

  public static Exclusion emitterLate(long latenessNanos, long toleranceNanos) {
    return emitterLate(latenessNanos, toleranceNanos, LateFrame.Held.UNKNOWN);
  }

  /**
   * Late, and what held the frame (", at 0.83 s; its loop stalled ...", or nothing known), the host
   * or not.
   */
  public static Exclusion emitterLate(
      long latenessNanos, long toleranceNanos, LateFrame.Held held) {
    return new Exclusion(
        held.byHost() ? Cause.EMITTER_HELD_BY_HOST : Cause.EMITTER_LATE,
        String.format(
            "emitter late by %.3f ms " + "(tolerance %.3f ms)%s",
            latenessNanos / 1e6, toleranceNanos / 1e6, held.why()));
  }

  public static Exclusion hostStall(String sentence) {
    return new Exclusion(Cause.HOST_STALL, sentence);
  }

  public static Exclusion missing(String sentence) {
    return new Exclusion(Cause.MISSING_SHARE, sentence);
  }
}
