package flushlab.map;

/**
 * A cell whose releases came at one steady pace (a clock's ticks, a threshold's every N frames)
 * shows that pace to a fraction of a millisecond, more closely than any size or wait: a simulation
 * of it releases at that pace too. `timer=107ms,periodic=true -> cork` released 4 KiB frames every
 * 107.3 ms (p10 107.3, p90 107.4), and was fitted as a clock of 116.8 ms, verified 6 of 6 cells:
 * the cork's segments blurred the sizes and waits the fit weighed (a chain bench, 2026-12-06).
 */
final class SteadyGaps {
  private SteadyGaps() {}

  /**
   * Whether the simulation releases at the cell's pace, where the cell's was steady: its gaps' p10
   * to p90 within {@link #STEADY_SHARE} of their median (or {@link #STEADY_MS}), over releases the
   * simulation has too; then its median gap within {@link #SHARE} (or {@link #FLOOR_MS}) of the
   * cell's. Any other cell agrees.
   */
  static boolean alike(CellEvidence c, Simulated s) {
    if (!steady(c) || s.releases() == 0) return true;
    return Replay.close(s.gapP50(), c.gapP50(), SHARE, FLOOR_MS);
  }

  /** The cell released at one pace: at least two releases a stream, their gaps one within noise. */
  static boolean steady(CellEvidence c) {
    return c.releasesPerStream() >= 2
        && c.gapP50() > 0
        && c.gapP90() - c.gapP10() <= Math.max(STEADY_MS, STEADY_SHARE * c.gapP50());
  }

  /** Gaps this close (p10 to p90) are one pace: a clock's ticks spread 0.1 ms on this host. */
  static final double STEADY_SHARE = 0.02;

  static final double STEADY_MS = 1;

  /**
   * How far a simulated pace may lie from the cell's: a fit's grid is 4 % apart, so one of its
   * values lies within 2 % of any pace, and a relay's clock runs a few tenths of a millisecond slow
   * a tick (107.3 ms for 107).
   */
  static final double SHARE = 0.03;

  static final double FLOOR_MS = 2;
}
