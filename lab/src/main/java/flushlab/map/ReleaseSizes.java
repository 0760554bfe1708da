package flushlab.map;

/**
 * A measured cell's release sizes against a simulation's: not the median alone but the fewest and
 * the most frames a release (p10 and p90), where releases gather a whole number of a stage's
 * batches in turn. {@link CompressorFlushFit} reads a compressor's timer beside a clock with it.
 */
final class ReleaseSizes {
  private ReleaseSizes() {}

  /**
   * The cell's fewest and most frames a release (p10 and p90 as the client counted them, or, where
   * a cell did not keep those, of its release bytes over its bytes a frame, give or take one frame)
   * within {@link #SIZES_SHARE} of the simulation's: where releases of one size gather two or three
   * of a stage's batches in turn, which sizes they take tells the batch apart, where the median
   * alone does not. A compressor flushing 59 ms after a write, in front of a clock of 150 ms,
   * flushed 2 ms frames 30 at a time and the clock released two flushes or three (60 and 92 frames,
   * p10 and p90); a timer of 96 ms, 48 and 96 frames, was fitted and verified for its median alone
   * (60 against 48, within a quarter: two maps in four, 2026-12-06). Releases over {@link
   * SimulatedCell#ONE_READ_BYTES}, or too few to spread, are not held to it.
   */
  static boolean alike(CellEvidence c, Simulated s) {
    if (!sizesComparable(c, s)) return true;
    // counted frames are exact: a release of 5 is not one of 6 (a 45 ms timer's single flushes of
    // frames 50 ms apart, 4 or 5 a tick of 233 ms, against a 56.6 ms timer's pairs, 4 or 6)
    double floor = counted(c) ? 0 : 1;
    return Replay.close(s.framesP10(), fewest(c), SIZES_SHARE, floor)
        && Replay.close(s.framesP90(), most(c), SIZES_SHARE, floor);
  }

  /**
   * Releases of two sizes in turn, alike on both sides: the cell's and the simulation's fewest and
   * most frames a release each differ by more than a median may ({@link Replay#FRAMES_SHARE}), they
   * are alike ({@link #alike}), and each side's median lies between the other's fewest and most.
   * Then the median is whichever size came more often in a stream's few releases, which a clock's
   * phase decides, not the mechanism: a compressor flushing every 2538 B of 60 B events in front of
   * a clock of 223 ms released two flushes or three a tick (86 or 129 frames), the median 86 on the
   * target and 129 at the simulation's phase, and every value within 5 % of the hidden one was
   * refused for it (a fresh-clone suite, 2026-12-06: the map answered 2024 B).
   */
  static boolean twoSizesAlike(CellEvidence c, Simulated s) {
    if (!sizesComparable(c, s) || !alike(c, s)) return false;
    double fewest = fewest(c);
    double most = most(c);
    return !Replay.close(fewest, most, Replay.FRAMES_SHARE, 1)
        && !Replay.close(s.framesP10(), s.framesP90(), Replay.FRAMES_SHARE, 1)
        && c.releaseFrames() >= s.framesP10()
        && c.releaseFrames() <= s.framesP90()
        && s.framesP50() >= fewest
        && s.framesP50() <= most;
  }

  /** How far the fewest and most frames a release lie from the simulation's, relatively. */
  static double misfit(CellEvidence c, Simulated s) {
    if (!sizesComparable(c, s)) return 0;
    double a = (s.framesP10() - fewest(c)) / Math.max(1, fewest(c));
    double b = (s.framesP90() - most(c)) / Math.max(1, most(c));
    return a * a + b * b;
  }

  /** Whether the client counted the frames of each release (else they are read off its bytes). */
  private static boolean counted(CellEvidence c) {
    return c.releaseFramesP10() > 0 && c.releaseFramesP90() > 0;
  }

  static double fewest(CellEvidence c) {
    return counted(c) ? c.releaseFramesP10() : c.releaseBytesP10() / c.frameBytes();
  }

  static double most(CellEvidence c) {
    return counted(c) ? c.releaseFramesP90() : c.releaseBytesP90() / c.frameBytes();
  }

  private static boolean sizesComparable(CellEvidence c, Simulated s) {
    return s.releases() > 0
        && c.frameBytes() > 0
        && c.releaseBytesP10() > 0
        && c.releaseBytesP90() <= SimulatedCell.ONE_READ_BYTES;
  }

  /**
   * How far a release's size may differ from the simulation's: a flush that comes a little late
   * takes one frame more (of 10 ms frames a compressor on a 59 ms timer flushed 6 or 7, and a
   * clock's three flushes carried 20 frames where the simulation gives 18), and a compressed frame
   * weighs a little more or less flush to flush.
   */
  static final double SIZES_SHARE = 0.15;

  /**
   * The most a compressor sending by its output can wait for, by what cell {@code c} received: a
   * release is N bytes of output or more, so its median release's output (its chunk's framing taken
   * off), with a percent for a stream's spread; unbounded for a cell with fewer than two releases
   * or not compressed. The blocks' steps alone leave a value of the lab's encoder's sizes, which
   * lie a few percent from a target's: `byte-threshold=1200B ->
   * compress=gzip,flush=bytes,bytes=300B` was answered with 318 B, verified, although 2 KiB events
   * were released 311 B at a time (a map, 2026-12-07).
   */
  static double sentAtOnce(CellEvidence c) {
    if (c.coding() == null || !c.held() || c.drained() || c.releasesPerStream() < 2)
      return Double.POSITIVE_INFINITY;
    double release = c.releaseBytesP50();
    if (!(release > 0)) return Double.POSITIVE_INFINITY;
    return (release - Discovery.chunkFraming(Math.round(release))) * (1 + SENT_SLACK);
  }

  /** How far over a cell's median release an output count may lie: a stream's spread. */
  private static final double SENT_SLACK = 0.01;
}
