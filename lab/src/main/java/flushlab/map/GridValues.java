package flushlab.map;

import java.util.TreeSet;

/**
 * A fit's grid joined by values the cells themselves read (a clock's pace over whole numbers, a
 * threshold's release edges), which the grid's 4 % steps pass over: in order, each once, only those
 * within the grid's own bounds.
 */
final class GridValues {
  private final double lo;
  private final double hi;
  private final TreeSet<Double> values = new TreeSet<>();

  GridValues(double[] grid) {
    lo = grid[0];
    hi = grid[grid.length - 1];
    for (double g : grid) values.add(g);
  }

  /** Joins {@code v} where it lies within the grid's bounds. */
  void add(double v) {
    if (v >= lo && v <= hi) values.add(v);
  }

  /** The grid's least value. */
  double lowest() {
    return lo;
  }

  double[] toArray() {
    return values.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
