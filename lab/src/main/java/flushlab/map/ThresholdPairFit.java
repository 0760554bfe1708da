package flushlab.map;

import flushlab.map.PairSimulation.Kind;
import flushlab.map.PairSimulation.Stage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Two byte thresholds in series fitted to cells, and the cells that pin them ({@link
 * ThresholdsInSeries} says why the map asks). A threshold shows in a cell only through how many
 * frames of that cell fill it: the first stage's batches are whole frames, the first with the
 * response head, and the second's releases whole batches of the first. So the values two thresholds
 * can take fall into classes, each a span between two of those edges, that release alike on every
 * cell; the fit tries one value of each class, not a grid (on a grid of 1 % steps, `byte-threshold=
 * 2958B -> byte-threshold=7082B` fitted no pair once cells of 197 and 370 B frames pinned it
 * between two steps).
 */
final class ThresholdPairFit {
  private ThresholdPairFit() {}

  /** The least value a threshold is fitted with, as the map's grids start. */
  static final double LOWEST = 200;

  /**
   * How close the pairs left must lie, in each value, for no cell more to be measured: 3 % either
   * way of their middle, so the value given from them, by its own fit, lies within the 5 % a model
   * is held to (at a tenth, as {@link CompressorFlushFit#LOOSE}, a pair of thresholds was given 5.4
   * % off the hidden one's second in a simulation).
   */
  static final double PINNED = 1.06;

  /** A splitting cell's frames on the wire run through the values left, this far apart. */
  private static final double SIZE_STEP = 1.06;

  /** A splitting cell's stream lasts this long at most. */
  static final long MAX_STREAM_MS = 4000;

  /**
   * A class of pairs: every first threshold in {@code first} with every second in {@code second}
   * releases alike on every cell fitted.
   */
  record PairClass(Span first, Span second) {
    Stage[] at(double a, double b) {
      return new Stage[] {new Stage(Kind.THRESHOLD, a), new Stage(Kind.THRESHOLD, b)};
    }

    /**
     * {@code n} by {@code n} pairs across the class, evenly from a twentieth in to a twentieth from
     * each end, to ask where a cell not measured yet would part it.
     */
    List<Stage[]> samples(int n) {
      List<Stage[]> out = new ArrayList<>();
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
          out.add(at(inside(first, share(i, n)), inside(second, share(j, n))));
      return out;
    }

    private static double share(int i, int n) {
      return 0.05 + 0.9 * i / (n - 1);
    }
  }

  /**
   * Samples across each class, each way: enough that a cell's edge is read to a tenth of a class
   * where few classes are left, fewer where many are (each sample a simulation of each cell tried).
   */
  static int samplesEachWay(int classes) {
    return classes <= 4 ? 11 : classes <= 20 ? 5 : 3;
  }

  /** The value a share {@code x} of the way through (lo, hi]. */
  private static double inside(Span s, double x) {
    return s.lo() + x * (s.hi() - s.lo());
  }

  /**
   * The classes of pairs that match every cell ({@code matching} of them), and of those the ones
   * whose fit is within {@link ThresholdSpan#SAME_FIT} of the best ({@code best}).
   */
  record Fitted(List<PairClass> best, int matching) {
    /**
     * The pair given from the best classes: each value the geometric middle of all they span, moved
     * into the class nearest that middle (every value in a class fits alike, so a value is known
     * only to its span, and the middle of it is the answer least far from any; the best class by a
     * hair is wherever the head's bytes and the waits' jitter put it: a second threshold fitting
     * anywhere in 5155..8208 B was fitted at 8183 B); null when none matches.
     */
    Stage[] middle() {
      if (best.isEmpty()) return null;
      double a = Math.sqrt(lowest(best, 0) * highest(best, 0));
      double b = Math.sqrt(lowest(best, 1) * highest(best, 1));
      PairClass nearest = null;
      double closest = Double.MAX_VALUE;
      for (PairClass c : best) {
        double d = away(c.first(), a) + away(c.second(), b);
        if (d < closest) {
          closest = d;
          nearest = c;
        }
      }
      return nearest.at(into(nearest.first(), a), into(nearest.second(), b));
    }

    /** As a pair fit reads it: the middle pair, the classes matching, how they were drawn. */
    HoldingPairFit.GridFit asGridFit() {
      return new HoldingPairFit.GridFit(middle(), matching, "the classes the frames tell apart");
    }
  }

  /** How far (in log) {@code v} lies outside {@code s}; 0 inside it. */
  private static double away(Span s, double v) {
    return v <= s.lo() ? Math.log(s.lo() / v) : v > s.hi() ? Math.log(v / s.hi()) : 0;
  }

  /** {@code v} moved into (lo, hi], a hair inside an open edge. */
  private static double into(Span s, double v) {
    return Math.max(Math.nextUp(s.lo()) + 1e-6 * s.lo(), Math.min(s.hi(), v));
  }

  /** The classes of pairs of thresholds {@code cells} fit, each tried at its middle. */
  static Fitted fit(List<CellEvidence> cells) {
    // the shortest streams first: most values fail on them at once
    List<CellEvidence> order = new ArrayList<>(cells);
    order.sort((x, y) -> Integer.compare(x.framesPerStream(), y.framesPerStream()));
    double highest = highest(order);
    List<PairClass> matching = new ArrayList<>();
    List<Double> scores = new ArrayList<>();
    double best = Double.MAX_VALUE;
    for (Span a : firstValues(order, highest)) {
      Stage first = new Stage(Kind.THRESHOLD, a.mid());
      for (Span b : secondValues(order, a.mid(), highest)) {
        Stage second = new Stage(Kind.THRESHOLD, b.mid());
        double score = ThresholdSpan.score(order, first, second);
        if (Double.isNaN(score)) continue;
        matching.add(new PairClass(a, b));
        scores.add(score);
        best = Math.min(best, score);
      }
    }
    List<PairClass> out = new ArrayList<>();
    for (int i = 0; i < matching.size(); i++)
      if (scores.get(i) <= best + ThresholdSpan.SAME_FIT) out.add(matching.get(i));
    return new Fitted(out, matching.size());
  }

  /**
   * The most either threshold may be on {@code cells}: what a release a cell held carried, with the
   * frames more a fit allows it ({@link SimulatedCell#matches}: a quarter, or one) (the second lets
   * go once it holds its value, so every release but the end's carries that much, and the first is
   * smaller than the second); 64 KiB where no cell held.
   */
  static double highest(List<CellEvidence> cells) {
    double most = 65536;
    for (CellEvidence c : cells)
      if (c.held() && c.releaseFrames() > 0)
        most =
            Math.min(
                most,
                (c.releaseFrames() + Math.max(1, Replay.FRAMES_SHARE * c.releaseFrames()))
                    * c.frameBytes());
    return most;
  }

  /**
   * One value of each class of first thresholds up to {@code highest}: the first batch of a cell of
   * frames of f wire bytes takes n frames for a threshold over the head and n - 1 frames, up to the
   * head and n; every later one k for one over k - 1 frames, up to k: the spans between two such
   * edges.
   */
  static List<Span> firstValues(List<CellEvidence> cells, double highest) {
    TreeSet<Double> edges = new TreeSet<>(List.of(LOWEST, highest));
    for (double f : frameSizes(cells)) {
      for (double v = f; v < highest; v += f) {
        if (v > LOWEST) edges.add(v);
        if (v + PairSimulation.HEAD_BYTES > LOWEST && v + PairSimulation.HEAD_BYTES < highest)
          edges.add(v + PairSimulation.HEAD_BYTES);
      }
    }
    return spans(edges);
  }

  /**
   * One value of each class of second thresholds over {@code first} up to {@code highest}: in each
   * cell the second stage takes the first's batches whole, its first release from the first batch
   * (whose frames the head's bytes made fewer, the head counted as the second stage's own too) and
   * j - 1 more, every later one from j batches: the spans between two such edges.
   */
  static List<Span> secondValues(List<CellEvidence> cells, double first, double highest) {
    TreeSet<Double> edges = new TreeSet<>(List.of(first, highest));
    double head = PairSimulation.HEAD_BYTES;
    for (double f : frameSizes(cells)) {
      double firstHeld = Math.max(1, Math.ceil((first - head) / f)) * f + head;
      double batch = Math.max(1, Math.ceil(first / f)) * f;
      for (double v = firstHeld; v < highest; v += batch) if (v > first) edges.add(v);
      for (double v = batch; v < highest; v += batch) if (v > first) edges.add(v);
    }
    return spans(edges);
  }

  private static List<Double> frameSizes(List<CellEvidence> cells) {
    return cells.stream().map(CellEvidence::frameBytes).filter(f -> f > 0).distinct().toList();
  }

  /** The spans between neighbouring edges. */
  private static List<Span> spans(TreeSet<Double> edges) {
    List<Span> out = new ArrayList<>();
    Double previous = null;
    for (double e : edges) {
      if (previous != null) out.add(new Span(previous, e));
      previous = e;
    }
    return out;
  }

  /**
   * For two thresholds in series fitted on {@code cells}: the cell that splits the classes of pairs
   * fitting them all best (a few pairs across each) into the smallest groups that would release
   * alike there, or null when those classes lie within {@link #PINNED} in both values, or no cell
   * splits them. A cell of small frames bounds each pair by the first's batches, so pairs of every
   * multiple (a first of a half of what releases and a second of more than it, a third and more
   * than two thirds) fit them alike: `byte-threshold=3857B -> byte-threshold=5364B`, held to a cell
   * of 1717 B frames, was fitted again as 2573 B then 7344 B, which releases six of them too.
   */
  public static CellPlan splitting(List<CellEvidence> cells) {
    List<CellEvidence> fitted = HoldingStageFits.fittable(cells);
    if (fitted.isEmpty()) return null;
    List<PairClass> classes = fit(fitted).best();
    if (classes.isEmpty() || within(classes, 0) && within(classes, 1)) return null;
    double smallest = lowest(classes, 0);
    double largest = highest(classes, 1);
    List<Stage[]> left = new ArrayList<>();
    for (PairClass c : classes) left.addAll(c.samples(samplesEachWay(classes.size())));
    CellPlan best = null;
    // what the values left span (in log, the two added): a cell is measured for the widest part of
    // it that the target could leave, as a bisection's halves
    double narrowest =
        Math.log(highest(classes, 0) / lowest(classes, 0) * largest / lowest(classes, 1));
    for (double wire = smallest / 6; wire <= 1.1 * largest; wire *= SIZE_STEP) {
      long size = Math.round(wire) - 6;
      if (size < 1) continue;
      int frames = Math.max(Twin.FRAMES, 8 * ((int) Math.ceil(1.1 * largest / wire) + 1));
      if (frames * ThresholdsInSeries.INTERVAL_MS > MAX_STREAM_MS) continue;
      CellEvidence plan = HoldingPairFit.planned(size, ThresholdsInSeries.INTERVAL_MS, frames);
      Map<Long, double[]> groups = new HashMap<>();
      boolean unread = false;
      for (Stage[] p : left) {
        Simulated sim = PairSimulation.simulate(plan, p[0], p[1]);
        unread |= sim.drained() || sim.releases() < 2;
        double[] g =
            groups.computeIfAbsent(
                Math.round(sim.framesP50()),
                k -> new double[] {Double.MAX_VALUE, 0, Double.MAX_VALUE, 0});
        g[0] = Math.min(g[0], p[0].value());
        g[1] = Math.max(g[1], p[0].value());
        g[2] = Math.min(g[2], p[1].value());
        g[3] = Math.max(g[3], p[1].value());
      }
      if (unread) continue;
      double widest = 0;
      for (double[] g : groups.values())
        widest = Math.max(widest, Math.log(g[1] / g[0] * g[3] / g[2]));
      boolean narrower = widest < narrowest - 1e-9;
      boolean asNarrowShorter =
          best != null && widest <= narrowest + 1e-9 && frames < best.frames();
      if (narrower || asNarrowShorter) {
        narrowest = widest;
        best = new CellPlan(size, ThresholdsInSeries.INTERVAL_MS * 1_000_000L, frames);
      }
    }
    return best;
  }

  private static Span span(PairClass c, int i) {
    return i == 0 ? c.first() : c.second();
  }

  private static double lowest(List<PairClass> classes, int i) {
    return classes.stream().mapToDouble(c -> span(c, i).lo()).min().orElseThrow();
  }

  private static double highest(List<PairClass> classes, int i) {
    return classes.stream().mapToDouble(c -> span(c, i).hi()).max().orElseThrow();
  }

  /** Whether value {@code i} of every class lies within {@link #PINNED}. */
  private static boolean within(List<PairClass> classes, int i) {
    return highest(classes, i) <= PINNED * lowest(classes, i);
  }
}
