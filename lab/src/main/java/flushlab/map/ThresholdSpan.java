package flushlab.map;

import flushlab.map.PairSimulation.Kind;
import flushlab.map.PairSimulation.Stage;
import java.util.List;

/**
 * The span of a threshold's values that a pair of holding stages fits every cell alike with (the
 * other stage as chosen), read at 1 % steps: a threshold behind or before another stage shows only
 * in cells whose batches come near it, each of which bounds it by a batch, so the value given is
 * the span's middle, and a span wider than 5 % either way of it is said ({@link HoldingPairFit}).
 */
final class ThresholdSpan {
  private ThresholdSpan() {}

  /**
   * How far the pair's simulation is from the cells (the sum of {@link SimulatedCell#misfit}); NaN
   * when a cell does not match.
   */
  static double score(List<CellEvidence> cells, Stage first, Stage second) {
    double score = 0;
    for (CellEvidence c : cells) {
      if (second.kind() == Kind.PERIODIC && !ClockPace.allows(c, second.value())) return Double.NaN;
      Simulated sim = CorkCeiling.asMeasured(c, first, second);
      if (!SimulatedCell.matches(c, sim)) return Double.NaN;
      score += SimulatedCell.misfit(c, sim);
    }
    return score;
  }

  /**
   * Misfits closer than this are one fit: a clock's ticks falling a few milliseconds either side of
   * a frame move a simulated wait by that much (a 96 ms clock then a threshold: 920 and 924 ms
   * against a cell's 926.4, a misfit apart of 5e-5), and a fit that ranks by them reads noise.
   */
  static final double SAME_FIT = 1e-3;

  /**
   * A threshold behind or before another stage shows only in cells whose batches come near it, and
   * each of those bounds it by a batch (a clock's ticks of two 66 B frames bound one to 132 B):
   * every value in that span fits alike, and the grid's best, at its 4 % steps, is wherever noise
   * put it. So the threshold given is the middle of the values (read at 1 % steps) whose fit is
   * within {@link #SAME_FIT} of the chosen one's, the other stage as chosen: `timer=96ms,
   * periodic=true -> byte-threshold=1234B` was given with 1123 B, the lowest of 1123 to 1254 B that
   * every cell allowed (a chain bench, 2026-12-06).
   */
  static Stage[] centred(List<CellEvidence> cells, Stage[] chosen) {
    for (int i = 0; i < 2; i++) {
      if (chosen[i].kind() != Kind.THRESHOLD) continue;
      double best = score(cells, chosen[0], chosen[1]);
      if (Double.isNaN(best)) return chosen;
      double low = edge(cells, chosen, i, best, 1 / 1.01);
      double high = edge(cells, chosen, i, best, 1.01);
      if (Double.isNaN(low) || Double.isNaN(high)) continue;
      Stage[] centred = chosen.clone();
      centred[i] = new Stage(Kind.THRESHOLD, Math.sqrt(low * high));
      chosen = centred;
    }
    return chosen;
  }

  /**
   * What the cells leave loose of a pair's thresholds: "; its second threshold fits every cell
   * alike anywhere in 5155..8208 B, which no cell measured pins" for each threshold whose span of
   * fitting values is wider than 5 % either way of its middle ({@link CompressorFlushFit#LOOSE}, as
   * a compressor's flush is loose); empty when none is. Two buffers in series bound the second only
   * in steps of the first's writes, each a cell of its own frame size.
   */
  static String loose(List<CellEvidence> cells, Stage[] chosen) {
    double best = score(cells, chosen[0], chosen[1]);
    if (Double.isNaN(best)) return "";
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < 2; i++) {
      if (chosen[i].kind() != Kind.THRESHOLD) continue;
      double low = edge(cells, chosen, i, best, 1 / 1.01);
      double high = edge(cells, chosen, i, best, 1.01);
      boolean wide =
          Double.isNaN(low) || Double.isNaN(high) || high > CompressorFlushFit.LOOSE * low;
      if (!wide) continue;
      out.append(
          String.format(
              "; its %s threshold fits every cell alike %s, which no cell measured pins",
              i == 0 ? "first" : "second",
              Double.isNaN(low) || Double.isNaN(high)
                  ? "over more than 40 % either way"
                  : String.format("anywhere in %.0f..%.0f B", low, high)));
    }
    return out.toString();
  }

  /**
   * Stage {@code i}'s threshold values that fit every cell alike with the other stage as in {@code
   * pair}, as {low, high}; null when the pair does not fit or the span goes on past 40 % either
   * way.
   */
  static double[] span(List<CellEvidence> cells, Stage[] pair, int i) {
    double best = score(cells, pair[0], pair[1]);
    if (Double.isNaN(best)) return null;
    double low = edge(cells, pair, i, best, 1 / 1.01);
    double high = edge(cells, pair, i, best, 1.01);
    return Double.isNaN(low) || Double.isNaN(high) ? null : new double[] {low, high};
  }

  /** At most this many 1 % steps either way (40 %): a span wider says nothing of its middle. */
  private static final int MAX_CENTRING_STEPS = 35;

  /**
   * The last value, stepping from stage {@code i}'s by {@code factor}, whose fit is within {@link
   * #SAME_FIT} of {@code best}; NaN when the span goes on past {@link #MAX_CENTRING_STEPS}.
   */
  private static double edge(
      List<CellEvidence> cells, Stage[] pair, int i, double best, double factor) {
    double at = pair[i].value();
    for (int step = 0; step < MAX_CENTRING_STEPS; step++) {
      double v = at * factor;
      if (!(scoreWith(cells, pair, i, v) <= best + SAME_FIT)) return at;
      at = v;
    }
    return Double.NaN;
  }

  private static double scoreWith(List<CellEvidence> cells, Stage[] pair, int i, double value) {
    Stage[] p = pair.clone();
    p[i] = new Stage(Kind.THRESHOLD, value);
    return score(cells, p[0], p[1]);
  }
}
