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

  /**
   * For a hold timer alone: the cell of token frames every one and a half holds, where each leaves
   * after the hold, or after an interval with one-late in front; null for any other answer.
   */
  static Twin twin(FlushTrigger answer) {
    if (answer.kind() != TriggerKind.TIMER || answer.timerMs() == null) return null;
    return new Twin(
        Twin.tokensEvery(INTERVAL_IN_HOLDS * answer.timerMs()),
        "one-late in front of a hold would let frames further apart than the hold go one interval"
            + " late, not after the hold",
        seen -> answer(answer, seen));
  }

  /**
   * The answer of one-late then the hold of {@code hold}, given once its replay reproduced every
   * cell: {@code seen} is the telling cell as the target showed it.
   */
  static FlushTrigger answer(FlushTrigger hold, CellEvidence seen) {
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
    return hold.precededBy(TriggerKind.ONE_LATE, verdict).withStages("one-late -> " + timer);
  }
}
