package flushlab.map;

import java.util.List;

/**
 * A clock as the last of two stages lets releases go only on its ticks, so every gap between a
 * cell's releases is a whole number of its periods: where the gaps' p10, median and p90 are each a
 * whole number of the p10 (the cell is paced), a clock last must fit the p10 a whole number of
 * times. The gaps read a period to a fraction of a millisecond where sizes and waits, which the
 * fits rank by, move with the clock's phase: `timer=281ms,periodic=true ->
 * timer=187ms,periodic=true` released every 187.2 or 374.4 ms, and was fitted as a clock of 256
 * then one of 126.4 ms, and as a hold then a clock of 121.5, both verified 8 of 8, the hidden pair
 * matching every cell but ranked below them (a chain bench, 2026-12-07).
 */
final class ClockPace {
  private ClockPace() {}

  /** How far a gap may lie from a whole number of a period: a tick's jitter and a slow clock. */
  static final double SHARE = 0.005;

  static final double FLOOR_MS = 1;

  /** The cell's pace, its gaps' p10, where every gap read is a whole number of it; else NaN. */
  static double pace(CellEvidence c) {
    double p10 = c.gapP10();
    if (c.releasesPerStream() < 2 || !(p10 > 0) || c.drained()) return Double.NaN;
    return wholeTimes(c.gapP50(), p10) > 0 && wholeTimes(c.gapP90(), p10) > 0 ? p10 : Double.NaN;
  }

  /**
   * How many whole times {@code period} goes into {@code gap} (1 or more), within {@link #SHARE} or
   * {@link #FLOOR_MS}; 0 where it does not.
   */
  static long wholeTimes(double gap, double period) {
    long k = Math.round(gap / period);
    return k >= 1 && Math.abs(k * period - gap) <= Math.max(FLOOR_MS, SHARE * gap) ? k : 0;
  }

  /** Whether a clock of {@code periodMs} last ticks at cell {@code c}'s pace (any unpaced cell). */
  static boolean allows(CellEvidence c, double periodMs) {
    double pace = pace(c);
    return Double.isNaN(pace) || wholeTimes(pace, periodMs) > 0;
  }

  /**
   * The periods tried for a clock last: {@code grid} and, for each paced cell, its pace over every
   * whole number that leaves a period within the grid's bounds: the grid's 4 % steps pass over the
   * period the gaps read.
   */
  static double[] periods(List<CellEvidence> cells, double[] grid) {
    GridValues out = new GridValues(grid);
    for (CellEvidence c : cells) {
      double pace = pace(c);
      if (Double.isNaN(pace)) continue;
      for (int k = 1; pace / k >= out.lowest(); k++) out.add(pace / k);
    }
    return out.toArray();
  }
}
