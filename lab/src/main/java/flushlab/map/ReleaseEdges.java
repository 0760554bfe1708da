package flushlab.map;

import java.util.List;

/**
 * A threshold's values at the edges its cells' whole-frame releases set: a threshold that lets n
 * frames of f bytes go together lies in ((n - 1) f, n f], and where a stage that changes no count
 * (one-late) stands beside it, every cell bounds it so. Four cells of 66 to 460 B frames left
 * `one-late -> byte-threshold=5853B` a window of 24 B (5851 to 5874 B), which the 4 % grid, 230 B
 * apart there, stepped over: no pair fitted, and the map was inconclusive (a chain bench,
 * 2026-12-07). A threshold in front of a timer is bounded so by the cells whose releases waited the
 * timer out in the threshold: `byte-threshold=8173B -> timer=92ms` released 124 frames of 66 B at a
 * time, a window of 66 B (8118 to 8184 B) the grid stepped over, and had no candidate (a chain
 * bench, 2026-12-07). The grid keeps its values; the edges join them.
 */
final class ReleaseEdges {
  private ReleaseEdges() {}

  /**
   * {@code grid} with, for each held cell of {@code cells} whose releases carried whole frames, the
   * least and the most bytes a threshold could hold to let its fewest, usual and most frames a
   * release go together; only values within the grid's range.
   */
  static double[] with(double[] grid, List<CellEvidence> cells) {
    GridValues v = new GridValues(grid);
    for (CellEvidence c : cells) {
      if (!c.held() || c.drained() || !(c.frameBytes() > 0)) continue;
      for (double frames :
          new double[] {c.releaseFramesP10(), c.releaseFrames(), c.releaseFramesP90()}) {
        long n = Math.round(frames);
        if (n < 1 || Math.abs(frames - n) > 1e-9) continue;
        edges(v, n, c.frameBytes(), 0);
      }
    }
    return v.toArray();
  }

  /**
   * {@code grid} with the edges of a first threshold whose blocks a second one gathers: for each
   * held cell whose releases carried whole frames, blocks of n frames for every n dividing a
   * release, and its first block, which the response head fills part of (so one frame fewer or the
   * same). A random draw of `byte-threshold=857B -> byte-threshold=1771B` read as one of 2541 B had
   * its first threshold pinned to two bytes by when its first frame left, and no pair on the grid
   * matched: no twin was looked for (`ThresholdsInSeriesTest`, seed 70161847754795).
   */
  static double[] withBlocks(double[] grid, List<CellEvidence> cells) {
    GridValues v = new GridValues(grid);
    for (CellEvidence c : cells) {
      if (!c.held() || c.drained() || !(c.frameBytes() > 0)) continue;
      long r = Math.round(c.releaseFrames());
      if (Math.abs(c.releaseFrames() - r) > 1e-9) continue;
      double f = c.frameBytes();
      for (long n = 1; n < r; n++) {
        if (r % n != 0) continue;
        edges(v, n, f, 0);
        edges(v, n - 1, f, PairSimulation.HEAD_BYTES);
        edges(v, n, f, PairSimulation.HEAD_BYTES);
      }
    }
    return v.toArray();
  }

  /**
   * Joins the least and the most a threshold could hold to let {@code n} frames of {@code f} bytes
   * go together, {@code offset} bytes (the response head's) counted before them.
   */
  private static void edges(GridValues v, long n, double f, double offset) {
    v.add(offset + n * f);
    v.add(offset + (n - 1) * f + 1);
  }
}
