package flushlab.map;

/**
 * A simulated cell held against the measured one ({@link PairSimulation} runs the stages): whether
 * it looks as the cell did, within what the replay allows between two runs, and how far it lies
 * from it, for the fits that rank values by it.
 */
final class SimulatedCell {
  private SimulatedCell() {}

  /**
   * How far the simulated cell lies from the measured one: its frames a release and its oldest
   * frame's wait, relatively.
   */
  static double misfit(CellEvidence c, Simulated s) {
    if (c.drained() || c.releasesPerStream() <= 0)
      return c.heldOnce()
          ? sq((s.firstWaitMs() - c.firstWaitMs()) / Math.max(1, c.firstWaitMs()))
          : 0;
    // a release over a segment: the cork sends its segments at once, so the first frame leaves
    // when the stage let it go, and that wait pins the stage; the largest release is where a
    // segment's edge fell, a step the simulation places only roughly (`cork -> timer=213ms` as a
    // browser: the 4 KiB cell's 112 frames matched by 223 ms and over, not by 210 to 221, so 227.6
    // ms was answered where its first frame had waited 215.6: a chain bench, 2026-12-07)
    if (s.segmented())
      return sq((s.firstWaitMs() - c.firstWaitMs()) / Math.max(1, c.firstWaitMs()));
    return sq((s.framesP50() - c.releaseFrames()) / Math.max(1, c.releaseFrames()))
        + sq((s.waitP50() - c.waitP50()) / Math.max(1, c.waitP50()));
  }

  /**
   * Whether the cell's releases, a segment's edge apart, lie within the simulated ones' spread: its
   * median among the simulated releases (p10 to the largest) and its largest between the simulated
   * p90 and the largest, each within the quarter a replay allows. Where a segment's edge falls is
   * the cork's, run to run, which the simulation places only roughly: a 94 ms hold writing 72 KB of
   * 1.5 KiB frames at a time into the cork released one segment (43 frames) or one and a half (61)
   * on the target, where the simulation gave one (42) and now and then two (84), and matched on
   * neither the largest nor the p90, so `cork -> timer=94ms` had no candidate (a chain bench, seed
   * 20261244, 2026-12-07).
   */
  private static boolean segmentsWithinTheSimulated(CellEvidence c, Simulated s, double largest) {
    double share = 1 - Replay.FRAMES_SHARE;
    double most = s.framesMax() / share;
    return c.releaseFrames() >= share * s.framesP10()
        && c.releaseFrames() <= most
        && largest >= share * s.framesP90()
        && largest <= most;
  }

  /** The cell's largest releases, in frames: its p90 in bytes. */
  static double largestRelease(CellEvidence c) {
    return c.releaseBytesP90() / Math.max(1, c.frameBytes());
  }

  private static double sq(double x) {
    return x * x;
  }

  /**
   * Whether the simulated cell looks as the measured one did, within what the replay allows between
   * two runs.
   */
  static boolean matches(CellEvidence c, Simulated s) {
    if (c.drained()) return s.drained();
    if (s.drained()) return false;
    if (c.heldOnce())
      return s.releases() == 0 && Replay.close(s.firstWaitMs(), c.firstWaitMs(), 0.15, 10);
    if (c.releasesPerStream() <= 0) return s.releases() == 0;
    if (s.releases() == 0) return false;
    boolean firstAlike =
        Replay.close(s.firstWaitMs(), c.firstWaitMs(), 0.15, Math.max(10, c.intervalMs() + 2));
    if (!SteadyGaps.alike(c, s)) return false;
    if (s.segmented()) {
      double largest = largestRelease(c);
      return firstAlike
          && (Math.abs(s.framesMax() - largest) <= Math.max(1, 0.25 * largest)
              || segmentsWithinTheSimulated(c, s, largest));
    }
    boolean frames =
        Math.abs(s.framesP50() - c.releaseFrames()) <= Math.max(1, 0.25 * c.releaseFrames())
            || ReleaseSizes.twoSizesAlike(c, s);
    // the first frame's wait too, as the replay holds it (15 %, 10 ms or one interval and 2 ms): a
    // pair that releases alike but lets the head go a stage later was replayed, and refused, for
    // that alone (`timer=194.5ms -> one-late` against two clocks: the first frame's wait 265.3 and
    // 390.8 ms)
    return frames
        && readsAlike(c, s)
        && Replay.close(s.waitP50(), c.waitP50(), 0.15, Math.max(5, c.intervalMs() + 2))
        && firstAlike;
  }

  /**
   * Releases read in one read each: the frames a read carries on average, as the replay compares
   * them, within what it allows (25 % or one). The median release alone let a threshold behind a
   * clock be fitted where every other tick's batch fell short of it and left with the next (10
   * frames a read on the target, 15 on the model: `timer=212ms,periodic=true ->
   * byte-threshold=7536B`, a chain bench, 2026-12-05). Releases over {@link #ONE_READ_BYTES} may
   * take several reads.
   */
  private static boolean readsAlike(CellEvidence c, Simulated s) {
    if (s.framesPerBatch() <= 0 || c.framesPerRead() <= 0) return true;
    if (c.releaseBytesP90() <= 0 || c.releaseBytesP90() > ONE_READ_BYTES) return true;
    return Replay.close(s.framesPerBatch(), c.framesPerRead(), Replay.FRAMES_SHARE, 1);
  }

  /**
   * A release this small is read in one read: half the client's read buffer ({@link
   * CellSpreads#READ_BYTES}), so that one starting anywhere in a read still fits it.
   */
  static final double ONE_READ_BYTES = CellSpreads.READ_BYTES / 2.0;
}
