package flushlab.map;

import flushlab.map.PairSimulation.Kind;
import flushlab.map.PairSimulation.Stage;
import java.util.List;

/**
 * Cells that pin a threshold a pair of holding stages left loose (issue 35: where too few releases
 * tell, the map measures more rather than give the middle of a range). Behind a hold or a clock a
 * threshold sees the hold's batches, so each cell bounds it only to a batch: `timer=196ms ->
 * byte-threshold=6338B` fitted every cell alike anywhere in 5280..6534 B and was given as 5921 B,
 * 6.6 % off (a chain bench, 2026-12-06). A cell of smaller batches splits that span where its
 * releases take one batch more; of the cells the simulation can plan, the one that leaves the
 * narrowest part of the span untold is measured.
 */
public final class PairPinning {
  private PairPinning() {}

  /**
   * Cells measured to pin a pair's thresholds, at most: two thresholds in series need up to six,
   * each about halving what is left of one value from a span of up to twice ({@link
   * ThresholdPairFit#splitting}); a threshold beside a timer is pinned in one or two.
   */
  public static final int MAX_PINNING_CELLS = 6;

  /** A pinning cell's stream lasts this long at most, where one that short narrows the span. */
  static final long MAX_STREAM_MS = 4000;

  /**
   * Where no cell of {@link #MAX_STREAM_MS} narrows the span, one up to this long, when the budget
   * has room (issue 35: too few releases in a cell means the map measures longer): a hold's batches
   * of 60 B frames every 20 ms bound a threshold behind a 117 ms hold to a batch, and the 4.7 s
   * that reads three releases was passed over, so `timer=115ms -> byte-threshold=3771B` was given
   * as 3574 B, its span 3300..3870 B untold (a chain bench, 2026-12-07).
   */
  public static final long LONGER_STREAM_MS = 8000;

  /** Releases the simulation shows at the span's high end, at least, for a cell to read it. */
  static final int MIN_RELEASES = 2;

  private static final long[] SIZES = {60, 256, 512, 1024, 4096};

  /** The step at which the span is read, as {@link ThresholdSpan} reads it. */
  private static final double STEP = 1.01;

  /**
   * The cell to measure next for the first of {@code candidates} (pairs of holding stages fitted on
   * {@code cells}) whose threshold the cells leave loose (wider than {@link
   * CompressorFlushFit#LOOSE}), or null when none is, or no cell the simulation plans would narrow
   * it.
   */
  public static CellPlan next(List<TwoStageCandidate> candidates, List<CellEvidence> cells) {
    return next(candidates, cells, MAX_STREAM_MS);
  }

  /**
   * As {@link #next(List, List)}, a cell's stream up to {@code longestMs} where none of {@link
   * #MAX_STREAM_MS} would narrow a span.
   */
  public static CellPlan next(
      List<TwoStageCandidate> candidates, List<CellEvidence> cells, long longestMs) {
    List<CellEvidence> fitted = HoldingStageFits.fittable(cells);
    for (TwoStageCandidate c : candidates) {
      Stage[] pair = ChainStages.of(c.chain());
      if (pair == null) continue;
      // two thresholds: pairs of each multiple fit alike, each its own value, not one span
      if (pair[0].kind() == Kind.THRESHOLD && pair[1].kind() == Kind.THRESHOLD) {
        CellPlan split = ThresholdPairFit.splitting(fitted);
        if (split != null && !measured(split, cells)) return split;
        continue;
      }
      for (int i = 0; i < 2; i++) {
        if (pair[i].kind() != Kind.THRESHOLD) continue;
        double[] span = ThresholdSpan.span(fitted, pair, i);
        if (span == null || span[1] <= CompressorFlushFit.LOOSE * span[0]) continue;
        CellPlan plan = pinningCell(pair, i, span[0], span[1], MAX_STREAM_MS);
        if (plan == null && longestMs > MAX_STREAM_MS)
          plan = pinningCell(pair, i, span[0], span[1], longestMs);
        if (plan != null && !measured(plan, cells)) return plan;
      }
    }
    return null;
  }

  /**
   * Whether {@code plan} is one of {@code cells} already: measured again, it pins nothing more
   * (`one-late -> byte-threshold=6800B` had one cell of 155 B frames, which split no pair of
   * thresholds, measured four times, 16 s, and the budget ran out before any pair was replayed: a
   * chain bench, seed 20261246, 2026-12-07).
   */
  static boolean measured(CellPlan plan, List<CellEvidence> cells) {
    String label = plan.toString();
    return cells.stream().anyMatch(c -> label.equals(c.label()));
  }

  /**
   * Of small to large frames at 2 to 300 ms, streams of {@code longestMs} at most, the cell whose
   * simulated releases leave the narrowest part of {@code low..high} untold (threshold values it
   * would show alike), the shorter stream where two leave the same; null when none narrows the
   * span.
   */
  static CellPlan pinningCell(Stage[] pair, int i, double low, double high, long longestMs) {
    CellPlan best = null;
    double narrowest = high / low;
    for (long size : SIZES) {
      for (long ms : HoldingPairFit.TELLING_INTERVALS_MS) {
        // frames for a few releases at the high end, as many as a telling cell has at least
        int frames =
            (int)
                Math.max(
                    HoldingPairFit.framesAt(ms), Math.ceil((MIN_RELEASES + 2) * high / (size + 6)));
        if ((long) frames * ms > longestMs) continue;
        CellEvidence plan = HoldingPairFit.planned(size, ms, frames);
        double untold = widestUntold(plan, pair, i, low, high);
        boolean asNarrowAndShorter =
            best != null
                && untold <= narrowest + 1e-9
                && frames * ms < best.frames() * best.intervalNanos() / 1e6;
        if (untold < narrowest - 1e-9 || asNarrowAndShorter) {
          narrowest = untold;
          best = new CellPlan(size, ms * 1_000_000L, frames);
        }
      }
    }
    return best;
  }

  /**
   * The widest ratio, within {@code low..high}, of threshold values whose simulations on {@code
   * plan} release alike (the frames a release carries, the releases a stream); NaN where a value
   * drains the stream or leaves it too few releases to read.
   */
  static double widestUntold(CellEvidence plan, Stage[] pair, int i, double low, double high) {
    double from = low;
    double widest = 1;
    Simulated previous = null;
    for (double v = low; v <= high * 1.0001; v *= STEP) {
      Stage[] p = pair.clone();
      p[i] = new Stage(Kind.THRESHOLD, v);
      Simulated s = PairSimulation.simulate(plan, p[0], p[1]);
      if (s.drained() || s.releases() < MIN_RELEASES) return Double.NaN;
      if (previous != null
          && (s.framesP50() != previous.framesP50() || s.releases() != previous.releases())) {
        // the values from the last change to this one release alike
        widest = Math.max(widest, v / from);
        from = v;
      }
      previous = s;
    }
    return Math.max(widest, high / from);
  }
}
