package flushlab.map;

import flushlab.map.PairSimulation.Kind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The values {@link CompressorFlushFit} tries for a compressor's flush, in order. */
final class FlushValues {
  private FlushValues() {}

  /** The grid a pinned value is read on, and a jittered fit tried on: 1 % steps. */
  static final double FINE = 1.01;

  /**
   * The values tried first for a compressor's flush of kind {@code compressor}, where {@code
   * jittered} fits are judged a few ms either way and {@code pins} are the cells measured to pin
   * it.
   */
  static double[] tried(Kind compressor, boolean jittered, List<CellEvidence> pins) {
    return withFrameSteps(grid(compressor, jittered), compressor, pins);
  }

  /**
   * The values tried first: the 4 % grid, or for a compressor's timer in front of a clock judged a
   * few ms either way ({@link TickJitter}) the 1 % one. There a cell's sizes hold within windows of
   * a percent or two: `...after=106ms -> timer=238ms,periodic=true` matched every cell at 106 ms
   * and at no value of the 4 % grid but 116.8, which was answered (a map, 2026-12-06).
   */
  private static double[] grid(Kind compressor, boolean jittered) {
    if (!jittered) return HoldingPairFit.values(compressor);
    double[] coarse = HoldingPairFit.values(compressor);
    List<Double> v = new ArrayList<>();
    for (double x = coarse[0]; x <= coarse[coarse.length - 1]; x *= FINE) v.add(x);
    return v.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /**
   * An input count's grid with, where cells pin it, the middle of every step of their frames' own
   * bytes: a count behind a clock is told to a frame (CompressorFlushFit's own phase of a pinning
   * cell), a window of 60 B at 4.7 KB that the 4 % grid steps over, and a fit with no value on it
   * has none at all.
   */
  private static double[] withFrameSteps(double[] grid, Kind compressor, List<CellEvidence> pins) {
    if (compressor != Kind.FLUSH_INPUT || pins.isEmpty()) return grid;
    double step = pins.stream().mapToDouble(CellEvidence::bodyBytes).min().orElseThrow();
    if (!(step > 0)) return grid;
    List<Double> v = new ArrayList<>();
    for (double x : grid) v.add(x);
    for (double x = Math.ceil(grid[0] / step) * step + step / 2;
        x <= grid[grid.length - 1];
        x += step) v.add(x);
    Collections.sort(v);
    return v.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
