package flushlab.map;

import flushlab.map.PairSimulation.Kind;
import flushlab.map.PairSimulation.Stage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Two byte thresholds in series (an application's output buffer in front of a proxy's): the second
 * gathers whole writes of the first, so where a frame is a small part of the first the two release
 * as one threshold of a multiple of the first (`byte-threshold=3857B -> byte-threshold=5364B` was
 * answered as one threshold of 7755 B, verified 6 of 6 cells: a chain bench, 2026-12-06). They part
 * where a frame is a large part of the first: its writes then overshoot it by most of a frame, and
 * the second lets one of them go where one threshold would take more frames, or takes two where it
 * would take fewer. A threshold answered alone is held to the cell that parts it from the most
 * pairs the cells measured so far replay alike; where it differs there, the pairs are fitted again
 * with that cell.
 */
public final class ThresholdsInSeries {
  private ThresholdsInSeries() {}

  /**
   * The first of two thresholds tried, at least: a twelfth of the one answered
   * (`byte-threshold=1127B -> byte-threshold=5615B`, a first of a fifth, was answered as one
   * threshold of 5907 B, verified 7 of 7 cells, while pairs were looked for from a sixth: a chain
   * bench, 2026-12-07).
   */
  static final double LOWEST_FIRST = 1.0 / 12;

  /** The second, at most: a tenth over the one answered (it releases a multiple of the first). */
  static final double HIGHEST_SECOND = 1.1;

  /**
   * A telling cell's frames on the wire run from {@link #LOWEST_FIRST} of the threshold answered to
   * 1/1.3 of it, this far apart; of those, only frames the threshold holds a whole number and
   * between a quarter and three quarters of one more of ({@link #ROOM}), so a frame more or fewer a
   * release is the pairs', not a few percent the fit was off. A pair whose first is a small part of
   * the one threshold parts from it only where that first's batches overshoot it by most of a frame
   * (for 1127 B then 5615 B, against 5907 B: 560 B frames, 12 a release against 11).
   */
  private static final double SIZE_STEP = 1.03;

  /** How far from a whole number of frames the threshold answered must lie, either way. */
  static final double ROOM = 0.25;

  /** A telling cell's interval: a threshold counts bytes, not time, and a short stream is cheap. */
  static final long INTERVAL_MS = 10;

  /** Releases the one threshold shows in a telling cell, the first and the end's among them. */
  static final int RELEASES = 10;

  /** The stage behind a threshold that lets every write through: one threshold alone. */
  private static final Stage THROUGH = new Stage(Kind.THRESHOLD, 0);

  /**
   * For a byte threshold alone, the cell that parts it from the pairs of thresholds {@code cells}
   * replay alike; null for any other answer, or when no pair replays alike or no cell parts them.
   */
  static Twin twin(FlushTrigger answer, List<CellEvidence> cells) {
    if (answer.kind() != TriggerKind.BYTE_THRESHOLD || answer.thresholdBytes() == null) return null;
    // a cell that could not be read has no frames to fit (a map's cells hold null for it)
    List<CellEvidence> fitted =
        HoldingStageFits.fittable(cells.stream().filter(Objects::nonNull).toList());
    if (fitted.isEmpty()) return null;
    double threshold = answer.thresholdBytes();
    List<Stage[]> alike = alikePairs(fitted, threshold);
    if (alike.isEmpty()) return null;
    Telling telling = tellingCell(threshold, alike);
    if (telling == null) return null;
    Stage[] example = alike.get(alike.size() / 2);
    return new Twin(
        telling.cell(),
        String.format(
            Locale.ROOT,
            "two byte thresholds in series (%d pairs, %s among them) release as one of ~%.0f B on"
                + " every cell so far, and %d of them apart from it where a frame is a large part"
                + " of the first",
            alike.size(),
            ChainStages.text(example[0]) + " -> " + ChainStages.text(example[1]),
            threshold,
            telling.parted()),
        null,
        Twin.Held.TO_ITS_FRAMES);
  }

  /** A telling cell and how many of the pairs it parts from the one threshold. */
  record Telling(CellPlan cell, int parted) {}

  /**
   * The pairs of thresholds, on the map's 4 % grid, whose simulations match every cell: a first of
   * {@link #LOWEST_FIRST} of {@code threshold} up to it, a second over the first up to {@link
   * #HIGHEST_SECOND} of it.
   */
  static List<Stage[]> alikePairs(List<CellEvidence> cells, double threshold) {
    List<Stage[]> out = new ArrayList<>();
    for (double a : ReleaseEdges.withBlocks(HoldingPairFit.BYTES, cells)) {
      if (a < LOWEST_FIRST * threshold || a >= threshold) continue;
      for (double b : HoldingPairFit.BYTES) {
        if (b <= a || b > HIGHEST_SECOND * threshold) continue;
        Stage[] pair = {new Stage(Kind.THRESHOLD, a), new Stage(Kind.THRESHOLD, b)};
        if (!Double.isNaN(ThresholdSpan.score(cells, pair[0], pair[1]))) out.add(pair);
      }
    }
    return out;
  }

  /**
   * Of the frames {@link #SIZE_STEP} says, every {@link #INTERVAL_MS}, the cell where the most of
   * {@code alike} release apart from the one threshold; of two parting as many, the shorter stream;
   * null when none parts any.
   */
  static Telling tellingCell(double threshold, List<Stage[]> alike) {
    Telling best = null;
    for (double wire = LOWEST_FIRST * threshold; wire <= threshold / 1.3; wire *= SIZE_STEP) {
      double frac = threshold / wire - Math.floor(threshold / wire);
      long size = Math.round(wire) - 6;
      if (size < 1 || frac < ROOM || frac > 1 - ROOM) continue;
      int perRelease = (int) Math.ceil(threshold / (size + 6));
      int frames = perRelease * RELEASES;
      CellEvidence plan = HoldingPairFit.planned(size, INTERVAL_MS, frames);
      Simulated one = PairSimulation.simulate(plan, new Stage(Kind.THRESHOLD, threshold), THROUGH);
      int parted = 0;
      for (Stage[] p : alike) if (apart(one, PairSimulation.simulate(plan, p[0], p[1]))) parted++;
      boolean more = best == null ? parted > 0 : parted > best.parted();
      boolean asManyShorter =
          best != null && parted == best.parted() && parted > 0 && frames < best.cell().frames();
      if (more || asManyShorter)
        best = new Telling(new CellPlan(size, INTERVAL_MS * 1_000_000L, frames), parted);
    }
    return best;
  }

  /**
   * Whether two simulations of a cell part, the frames a release carries counted exactly ({@link
   * Replay#heldToItsFrames}): one drains and the other not, or their releases carry other numbers
   * of frames.
   */
  static boolean apart(Simulated a, Simulated b) {
    if (a.drained() != b.drained()) return true;
    return Math.abs(a.framesP50() - b.framesP50()) >= 1;
  }
}
