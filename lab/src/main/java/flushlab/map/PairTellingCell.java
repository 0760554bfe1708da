package flushlab.map;

import flushlab.map.PairSimulation.Stage;
import java.util.Arrays;
import java.util.function.Predicate;
import java.util.stream.LongStream;

/**
 * The cell that tells two models of two holding stages apart ({@link HoldingPairFit}), both of
 * which reproduced every cell measured: the one where their simulations part furthest past what a
 * replay allows, and not one the target showed already.
 */
public final class PairTellingCell {
  private PairTellingCell() {}

  /**
   * A cell that two chains of this fit, which reproduced every measured cell alike, would show
   * differently: of small to large frames at 2 to 100 ms, streams of about 1.2 s, the one where
   * their simulations lie furthest apart (frames a release or the oldest frame's wait, past what a
   * replay allows); null when none does, or a chain is not one of this fit's.
   */
  public static CellPlan tellingCell(String chainA, String chainB) {
    return tellingCell(chainA, chainB, plan -> false);
  }

  /**
   * As {@link #tellingCell(String, String)}, none of the cells {@code measured} (already on the
   * target, where both chains reproduced it), and only one where the simulations part further than
   * on any of those: the target showed them parting less than the simulation says there, so a cell
   * where they part less tells no more (one-late then a 243 ms clock and its alike twin were named
   * with "a cell of 60 B every 300 ms would tell them apart", a cell measured before the replays,
   * which both reproduced: a chain bench, 2026-12-07). The slower intervals are then tried too;
   * null when no cell parts them further.
   */
  public static CellPlan tellingCell(String chainA, String chainB, Predicate<CellPlan> measured) {
    Stage[] a = ChainStages.of(chainA);
    Stage[] b = ChainStages.of(chainB);
    if (a == null || b == null) return null;
    CellPlan usual = parting(a, b, HoldingPairFit.TELLING_INTERVALS_MS, plan -> false, 0);
    if (usual == null) usual = parting(a, b, SLOWER_INTERVALS_MS, plan -> false, 0);
    if (usual == null) return null;
    double told = 0;
    for (long size : SIZES)
      for (long ms : ALL_INTERVALS_MS) {
        CellPlan plan = new CellPlan(size, ms * 1_000_000L, HoldingPairFit.framesAt(ms));
        if (measured.test(plan)) told = Math.max(told, gap(plan, a, b));
      }
    if (!measured.test(usual) && gap(usual, a, b) > told) return usual;
    return parting(a, b, ALL_INTERVALS_MS, measured, told);
  }

  /**
   * Slower intervals, tried only where none of {@link HoldingPairFit#TELLING_INTERVALS_MS} tells
   * (their streams take 6 to 7.5 s): a long hold with one-late in front lets frames 300 ms apart go
   * one interval late, and a clock then the hold after the hold, which for a hold of 256 ms lies
   * within the replay's 15 % of 300 (`one-late -> timer=251ms` was answered with those two alike
   * and no cell measured: a fresh-clone suite, 2026-12-06); at 400 ms they lie 36 % apart.
   */
  static final long[] SLOWER_INTERVALS_MS = {400, 500};

  /** Every interval a telling cell is drawn from. */
  private static final long[] ALL_INTERVALS_MS =
      LongStream.concat(
              Arrays.stream(HoldingPairFit.TELLING_INTERVALS_MS),
              Arrays.stream(SLOWER_INTERVALS_MS))
          .toArray();

  static CellPlan tellingCell(String chainA, String chainB, long[] intervalsMs) {
    Stage[] a = ChainStages.of(chainA);
    Stage[] b = ChainStages.of(chainB);
    return a == null || b == null ? null : parting(a, b, intervalsMs, plan -> false, 0);
  }

  /**
   * Of {@code intervalsMs}, the cell not {@code measured} where the two chains' simulations part
   * furthest past what a replay allows, and further than {@code beyond}; null when none does.
   */
  private static CellPlan parting(
      Stage[] a, Stage[] b, long[] intervalsMs, Predicate<CellPlan> measured, double beyond) {
    CellPlan best = null;
    double widest = beyond;
    for (long size : SIZES) {
      for (long ms : intervalsMs) {
        CellPlan plan = new CellPlan(size, ms * 1_000_000L, HoldingPairFit.framesAt(ms));
        if (measured.test(plan)) continue;
        double gap = gap(plan, a, b);
        if (gap > widest) {
          widest = gap;
          best = plan;
        }
      }
    }
    return best;
  }

  private static final long[] SIZES = {60, 256, 1024, 4096};

  /**
   * How far two pairs' simulations of {@code cell} part: the larger share their frames a release or
   * their oldest frames' waits differ by, where that is past what a replay allows (25 % or a frame,
   * 15 % or 5 ms); 0 where it is not, or a simulation cannot be read.
   */
  static double gap(CellPlan cell, Stage[] a, Stage[] b) {
    CellEvidence plan =
        HoldingPairFit.planned(
            cell.frameSizeBytes(), cell.intervalNanos() / 1_000_000L, cell.frames());
    Simulated x = PairSimulation.simulate(plan, a[0], a[1]);
    Simulated y = PairSimulation.simulate(plan, b[0], b[1]);
    if (x.drained() || y.drained() || x.releases() == 0 || y.releases() == 0) return 0;
    // the cork's segments: where their edges fall decides the medians, which the simulation
    // does not give (a 153.7 ms hold and clock before the cork parted at 4 KiB every 10 ms,
    // and replayed alike there: `flushlab map`, 2026-12-07)
    if (x.segmented() || y.segmented()) return 0;
    double frames = Math.abs(x.framesP50() - y.framesP50());
    double mostFrames = Math.max(x.framesP50(), y.framesP50());
    double waits = Math.abs(x.waitP50() - y.waitP50());
    double longestWait = Math.max(x.waitP50(), y.waitP50());
    boolean tells =
        frames > Math.max(1, 0.25 * mostFrames) || waits > Math.max(5, 0.15 * longestWait);
    return tells ? Math.max(frames / Math.max(1, mostFrames), waits / Math.max(5, longestWait)) : 0;
  }
}
