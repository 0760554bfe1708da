package flushlab.map;

import java.util.Locale;

/**
 * One-late in front of a hold timer: each frame reaches the hold one interval late, and the hold
 * counts from when the frame came to the relay (the lab's relay carries that time along a chain),
 * so wherever frames come oftener than the hold lets go the two release as the hold alone does: the
 * oldest frame of each release after the hold's time, one frame more or less a release (a hidden
 * `one-late -> timer=227ms` was answered by the hold alone, verified 5 of 5 cells, by a chain
 * bench, 2026-12-06). Where frames come further apart than the hold, the hold lets each go as soon
 * as one-late does: after one interval, not after the hold. A hold answered alone is held to such a
 * cell before it is given.
 */
public final class OneLateInFront {
  private OneLateInFront() {}

  /**
   * The telling cell's interval, in holds: far enough past the hold that one interval and the hold
   * lie more than the replay's 15 % apart (a half), near enough to keep the stream short.
   */
  static final double INTERVAL_IN_HOLDS = 1.5;

  /** The telling cell's frames: six releases the meter keeps (the first and the end's left out). */
  static final int FRAMES = 8;

  /**
   * Whether {@code answer} is a hold timer alone, a target that streams what it got at once to it
   * and compresses for no client: the stage one-late could stand in front of unseen.
   */
  public static boolean mayHide(FlushTrigger answer) {
    return answer.kind() == TriggerKind.TIMER
        && answer.timerMs() != null
        && answer.then() == null
        && answer.before() == null
        && answer.stages() == null
        && (answer.compression() == null || answer.compression().coding() == null);
  }

  /** Token frames every one and a half holds: each leaves after the hold, or after an interval. */
  public static CellPlan tellingCell(double holdMs) {
    long intervalMs = (long) Math.ceil(INTERVAL_IN_HOLDS * holdMs);
    return new CellPlan(60, intervalMs * 1_000_000L, FRAMES);
  }

  /** The hold's chain with one-late in front of it. */
  public static String inFront(String chain) {
    return "one-late -> " + chain;
  }

  /**
   * The answer of one-late then the hold of {@code hold}, given once its replay reproduced every
   * cell: {@code seen} is the telling cell as the target showed it.
   */
  public static FlushTrigger answer(FlushTrigger hold, CellEvidence seen) {
    String timer = "timer=" + ShaperModel.ms(hold.timerMs());
    String verdict =
        String.format(
            Locale.ROOT,
            "one-late then a hold timer of ~%.1f ms: each frame reaches the hold one interval late; "
                + "where frames come oftener than the hold the two release as the hold alone does, "
                + "and in %s each frame waited %.1f ms, one interval, where the hold alone lets it "
                + "go after %.1f ms",
            hold.timerMs(),
            seen.label(),
            seen.waitP50(),
            hold.timerMs());
    return hold.precededBy(TriggerKind.ONE_LATE, verdict).withStages(inFront(timer));
  }
}
