package flushlab.map;

/**
 * (lo, hi]: a value known to be above lo and at most hi (a threshold or a timer, as the cells
 * locate it).
 */
record Span(double lo, double hi) {
  static final Span ANY = new Span(0, Double.POSITIVE_INFINITY);

  Span above(double v) {
    return new Span(Math.max(lo, v), hi);
  }

  Span atMost(double v) {
    return new Span(lo, Math.min(hi, v));
  }

  boolean empty() {
    return lo >= hi;
  }

  boolean bounded() {
    return hi < Double.POSITIVE_INFINITY;
  }

  double mid() {
    return bounded() ? (lo + hi) / 2 : lo;
  }

  /** Relative width: how tightly the value is located. */
  double width() {
    return bounded() ? (hi - lo) / hi : Double.POSITIVE_INFINITY;
  }

  String text(String unit) {
    if (!bounded()) return "above " + Math.round(lo) + " " + unit;
    return Math.round(lo) + ".." + Math.round(hi) + " " + unit;
  }
}
