package flushlab.map;

import java.util.List;
import java.util.function.Function;

/**
 * A model of two stages that releases as an answer of one mechanism does on every cell the map
 * measures by default, and the cell that would tell the two apart: before the one mechanism is
 * given, that cell is measured on the target and replayed on its model; where the model differs
 * there, the twin is replayed on every cell.
 *
 * @param cell the cell that tells them apart
 * @param why what that cell shows, said before it is measured
 * @param answer the twin's answer, from the telling cell as the target showed it (null where the
 *     cell shows no twin either); null where no one cell names the twin, whose stages are then
 *     fitted again with that cell among the others ({@link ThresholdsInSeries})
 * @param held how the one mechanism's model is compared on that cell
 */
public record Twin(
    CellPlan cell, String why, Function<CellEvidence, FlushTrigger> answer, Held held) {

  /** A twin whose telling cell the one mechanism's replay compares as it does every cell. */
  public Twin(CellPlan cell, String why, Function<CellEvidence, FlushTrigger> answer) {
    this(cell, why, answer, Held.AS_EVERY_CELL);
  }

  /** How the one mechanism's model is compared with the target on the telling cell. */
  public enum Held {
    /** As the replay compares every cell. */
    AS_EVERY_CELL,
    /**
     * A clock's: to its own values, each run's waits read from where its frames fell against the
     * ticks ({@link HoldBehindAClock#difference}): where the slack a replay allows a wait (a
     * clock's period) covers what the twin adds there.
     */
    AT_ITS_PHASE,
    /**
     * To its own values and a release's frames counted exactly ({@link Replay#heldToItsFrames}):
     * where one frame a release more or fewer is all the twin changes, under the quarter a replay
     * allows.
     */
    TO_ITS_FRAMES
  }

  /** A telling cell's frames: six releases the meter keeps (the first and the end's left out). */
  static final int FRAMES = 8;

  /** A telling cell: token frames (60 B) every {@code intervalMs}, rounded up to a millisecond. */
  static CellPlan tokensEvery(double intervalMs) {
    return new CellPlan(60, (long) Math.ceil(intervalMs) * 1_000_000L, FRAMES);
  }

  /**
   * The twin of {@code answer}, a model of one mechanism its replay verified: one-late in front of
   * a hold ({@link OneLateInFront}), a hold in front of the cork read as a threshold or a timer
   * ({@link HoldBeforeTheCork}), a hold behind a clock ({@link HoldBehindAClock}), two thresholds
   * in series that {@code cells}, the cells measured, replay alike ({@link ThresholdsInSeries});
   * null for any other answer.
   */
  public static Twin of(FlushTrigger answer, List<CellEvidence> cells) {
    if (answer.then() != null
        || answer.before() != null
        || answer.stages() != null
        || answer.compression() != null && answer.compression().coding() != null) return null;
    Twin t = OneLateInFront.twin(answer);
    if (t == null) t = HoldBeforeTheCork.twin(answer);
    if (t == null) t = HoldBehindAClock.twin(answer);
    return t != null ? t : ThresholdsInSeries.twin(answer, cells);
  }
}
