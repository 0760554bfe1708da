package flushlab.map;

import flushlab.map.PairSimulation.Kind;
import flushlab.map.PairSimulation.Stage;
import flushlab.netpath.NetworkPath;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Two holding stages in series, a byte threshold with a timer either way round or two timers (a
 * proxy's hold timer in front of a framework's buffer, a buffer in front of a clock): no reading
 * back of the cells names them, since each cell shows whichever stage last held it, so each ordered
 * pair is simulated on the frames every cell sent, as the lab's relay runs a chain (a hold counts
 * from when its first byte came from upstream, so delays in series are not counted twice), over a
 * grid of values (4 % apart), and of the values whose simulated releases match every cell (frames a
 * release, the oldest frame's wait) the closest to what the cells showed is a candidate. Like every
 * candidate it is the answer only once its relay, replayed on the target's path, reproduced every
 * cell.
 */
public final class HoldingPairFit {
  private HoldingPairFit() {}

  /**
   * The pairs tried: a threshold with a timer either way round, and two timers (a clock and a hold,
   * two holds, or two clocks).
   */
  private static final Kind[][] PAIRS = {
    {Kind.HOLD, Kind.THRESHOLD},
    {Kind.THRESHOLD, Kind.HOLD},
    {Kind.PERIODIC, Kind.THRESHOLD},
    {Kind.THRESHOLD, Kind.PERIODIC},
    {Kind.PERIODIC, Kind.HOLD},
    {Kind.HOLD, Kind.PERIODIC},
    {Kind.HOLD, Kind.HOLD},
    // two clocks of different periods do not act as one: the second's ticks carry what the first's
    // let go (`timer=216ms,periodic=true -> timer=266ms,periodic=true` was given as a hold then a
    // clock, verified, with no twin named: a chain bench, 2026-12-05)
    {Kind.PERIODIC, Kind.PERIODIC},
    // two buffers in series, the second larger (one no larger lets every write through): the second
    // gathers whole writes of the first, so its releases come in steps of the first's, which no one
    // threshold does where a frame's size is not a divisor of both (`byte-threshold=4698B ->
    // byte-threshold=6266B` as a browser was inconclusive, no candidate tried: a chain bench,
    // 2026-12-06)
    {Kind.THRESHOLD, Kind.THRESHOLD}
  };

  /**
   * A stage writing into the cork more often than its ceiling (`timer=126ms -> cork`: every other
   * write meets a socket still corked, so releases come two writes apart and wait a write and the
   * ceiling), which {@link CorkAfterFit} leaves alone: the cork is the socket's, so it is only ever
   * second, and only on loopback, whose segment the simulation knows.
   */
  private static final Kind[][] CORKED = {
    {Kind.HOLD, Kind.CORK}, {Kind.PERIODIC, Kind.CORK}, {Kind.THRESHOLD, Kind.CORK}
  };

  /**
   * A holding stage then one-late, simulated too: {@link OneLateAfterFit} reads such cells back
   * analytically, and its candidate comes first, but a cell a host stall spread can leave it with
   * none, and then a hold behind a hold twice as long (which releases alike on steady streams) must
   * not be the only pair simulated (a fresh-clone suite, 2026-12-05: `timer=153ms,periodic=true ->
   * one-late` answered `timer=147.8ms -> timer=287.9ms`).
   */
  private static final Kind[][] ONE_LATE_AFTER = {
    {Kind.HOLD, Kind.ONE_LATE}, {Kind.PERIODIC, Kind.ONE_LATE}, {Kind.THRESHOLD, Kind.ONE_LATE}
  };

  /**
   * One-late in front of a threshold: each frame reaches the threshold one interval late, which
   * shows only where the threshold lets frames go alone (frames over it, far apart); in front of a
   * hold or a clock, each release waits one interval more where frames come far apart (`one-late ->
   * timer=147ms` as a browser was inconclusive with no candidate: a chain bench, 2026-12-06).
   */
  private static final Kind[][] ONE_LATE_BEFORE = {
    {Kind.ONE_LATE, Kind.THRESHOLD}, {Kind.ONE_LATE, Kind.HOLD}, {Kind.ONE_LATE, Kind.PERIODIC}
  };

  static final double STEP = 1.04;
  static final double[] MS = grid(20, 600);
  static final double[] BYTES = grid(200, 65536);

  /**
   * The first of two holds, on a 1 % grid: its period is the releases' cadence, read to a ms or
   * two, and the 4 % grid stepped over it. `timer=157ms -> timer=225ms` matched every cell from 156
   * to 158 ms, and at half that, 78.9 ms (two of its windows make one of the second's), and only
   * the half was on the grid: it was answered inconclusive with three pairs none of which was the
   * hidden one (a chain bench, 2026-12-07). A hold before the cork too: 2 ms under its ceiling, two
   * releases meet one cork (`cork -> timer=213ms` replayed as 210.4 ms was refused so: a map).
   */
  static final double[] FINE_MS = grid(20, 600, 1.01);

  private static double[] grid(double lo, double hi) {
    return grid(lo, hi, STEP);
  }

  private static double[] grid(double lo, double hi, double step) {
    List<Double> v = new ArrayList<>();
    for (double x = lo; x <= hi; x *= step) v.add(x);
    return v.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /**
   * One candidate for each ordered pair some values of which match every cell; empty when no pair
   * does.
   */
  public static List<TwoStageCandidate> candidates(
      String target, List<CellEvidence> cells, NetworkPath path) {
    List<CellEvidence> fitted = HoldingStageFits.fittable(cells);
    if (fitted.isEmpty()
        || fitted.stream().anyMatch(CellEvidence::compressed)
        || fitted.stream().noneMatch(CellEvidence::held)) return List.of();
    // the shortest streams first: most values fail on them at once
    List<CellEvidence> order = new ArrayList<>(fitted);
    order.sort((a, b) -> Integer.compare(a.framesPerStream(), b.framesPerStream()));
    List<TwoStageCandidate> out = new ArrayList<>();
    List<Kind[]> pairs = new ArrayList<>(Arrays.asList(ONE_LATE_AFTER));
    pairs.addAll(Arrays.asList(PAIRS));
    pairs.addAll(Arrays.asList(ONE_LATE_BEFORE));
    if (path.equals(NetworkPath.LOOPBACK)) pairs.addAll(Arrays.asList(CORKED));
    for (Kind[] pair : pairs) {
      // two thresholds by the classes of values the cells' frames tell apart: a cell of frames a
      // small part of them pins each to a batch of its own, often narrower than 4 %
      // (ThresholdPairFit)
      GridFit fit =
          pair[0] == Kind.THRESHOLD && pair[1] == Kind.THRESHOLD
              ? ThresholdPairFit.fit(order).asGridFit()
              : onGrid(order, pair);
      if (fit.chosen() == null) continue;
      Stage[] chosen = ThresholdSpan.centred(order, fit.chosen());
      out.add(
          candidate(
              target,
              chosen[0],
              chosen[1],
              fitted,
              fit.matching(),
              fit.tried(),
              ThresholdSpan.loose(order, chosen)));
    }
    return out;
  }

  /**
   * A pair's values fitted: the pair chosen (null when none matches every cell), how many of the
   * values tried matched, and which values were tried ("a 4 % grid").
   */
  record GridFit(Stage[] chosen, int matching, String tried) {}

  /**
   * {@code pair}'s values on the 4 % grid that match every cell of {@code order}, the closest to
   * them chosen ({@link Closest}).
   */
  private static GridFit onGrid(List<CellEvidence> order, Kind[] pair) {
    int matching = 0;
    Closest<Stage[]> closest = new Closest<>();
    boolean fine = pair[0] == Kind.HOLD && (pair[1] == Kind.HOLD || pair[1] == Kind.CORK);
    double[] firsts = fine ? FINE_MS : values(pair[0]);
    double[] seconds =
        pair[1] == Kind.PERIODIC ? ClockPace.periods(order, values(pair[1])) : values(pair[1]);
    // a threshold at its cells' release edges too: beside one-late, which changes no count, and
    // in front of a timer, which lets the threshold's releases through as they came wherever
    // their oldest frame has waited it out (ReleaseEdges)
    if (pair[0] == Kind.THRESHOLD) firsts = ReleaseEdges.with(firsts, order);
    if (pair[0] == Kind.ONE_LATE && pair[1] == Kind.THRESHOLD)
      seconds = ReleaseEdges.with(seconds, order);
    for (double a : firsts) {
      for (double b : seconds) {
        Stage first = new Stage(pair[0], a);
        Stage second = new Stage(pair[1], b);
        double score = ThresholdSpan.score(order, first, second);
        if (Double.isNaN(score)) continue;
        matching++;
        closest.offer(score, new Stage[] {first, second});
      }
    }
    return new GridFit(
        closest.chosen(), matching, String.format("a %.0f %% grid", (STEP - 1) * 100));
  }

  /**
   * Of the values every cell allows, the closest to what the cells showed; where several simulate
   * exactly alike (a threshold no cell's batches come near releases the same over a range), the
   * middle one of them, not the range's edge: `timer=196ms -> byte-threshold=6338B` was fitted with
   * the lowest threshold its batches of 20 frames allowed, 5393 B, and the relay's batches of 21
   * crossed it a hold early, so the replay refused the hidden order and gave the other (a chain
   * bench, 2026-12-05).
   */
  static final class Closest<T> {
    private double best = Double.MAX_VALUE;
    private final List<T> tied = new ArrayList<>();

    void offer(double score, T value) {
      if (score < best - 1e-9 * Math.max(1, best)) {
        best = score;
        tied.clear();
      }
      if (score <= best + 1e-9 * Math.max(1, best)) tied.add(value);
    }

    T chosen() {
      return tied.isEmpty() ? null : tied.get((tied.size() - 1) / 2);
    }

    /** The values offered with the best score, in the order offered. */
    List<T> tied() {
      return List.copyOf(tied);
    }
  }

  static double[] values(Kind k) {
    return switch (k) {
      case THRESHOLD -> BYTES;
      case HOLD, PERIODIC -> MS;
      // the ceiling as this kernel runs it: not a value to fit
      case CORK -> new double[] {CorkAfterFit.CEILING_MS};
      case ONE_LATE -> new double[] {0};
      case FLUSH_TIMER -> MS;
      case FLUSH_INPUT, FLUSH_OUTPUT, INPUT_THRESHOLD -> BYTES;
    };
  }

  private static TwoStageCandidate candidate(
      String target,
      Stage first,
      Stage second,
      List<CellEvidence> cells,
      int matching,
      String tried,
      String loose) {
    TriggerKind k1 = kind(first.kind());
    TriggerKind k2 = kind(second.kind());
    String verdict =
        String.format(
            "%s then %s: the frames every cell sent, run through both in that order, release as the cells did "
                + "(%d pairs of values of %s match every cell: %s)%s",
            describe(first), describe(second), matching, tried, Fits.across(cells), loose);
    String chain = ChainStages.text(first) + " -> " + ChainStages.text(second);
    Double bytes =
        first.kind() == Kind.THRESHOLD
            ? (Double) first.value()
            : second.kind() == Kind.THRESHOLD ? (Double) second.value() : null;
    // the answer's timer is the first stage's that keeps time; with two, the model's chain holds
    // both
    Double ms =
        first.kind() != Kind.THRESHOLD && first.kind() != Kind.ONE_LATE
            ? (Double) first.value()
            : second.kind() == Kind.CORK
                    || second.kind() == Kind.ONE_LATE
                    || second.kind() == Kind.THRESHOLD
                ? null
                : (Double) second.value();
    FlushTrigger both =
        new FlushTrigger(target, k1, bytes, null, ms, null, verdict, List.of(), List.of())
            .followedBy(k2, verdict);
    // the cork is the socket's whatever the chain's order (ShaperModel says the other order alike),
    // and one-late's model is the one OneLateAfterFit gives; two holding stages of the relay keep
    // their order, and their values, in the chain
    boolean byItsKind = second.kind() == Kind.CORK || second.kind() == Kind.ONE_LATE;
    return new TwoStageCandidate(chain, byItsKind ? both : both.withStages(chain));
  }

  private static TriggerKind kind(Kind k) {
    return switch (k) {
      case THRESHOLD, INPUT_THRESHOLD -> TriggerKind.BYTE_THRESHOLD;
      case HOLD -> TriggerKind.TIMER;
      case PERIODIC -> TriggerKind.PERIODIC_TIMER;
      case CORK -> TriggerKind.CORK;
      case ONE_LATE -> TriggerKind.ONE_LATE;
      case FLUSH_TIMER -> TriggerKind.TIMER;
      case FLUSH_INPUT -> TriggerKind.DECODED_THRESHOLD;
      case FLUSH_OUTPUT -> TriggerKind.BYTE_THRESHOLD;
    };
  }

  private static String describe(Stage s) {
    return switch (s.kind()) {
      case THRESHOLD -> String.format("a byte threshold of ~%.0f B", s.value());
      case INPUT_THRESHOLD ->
          String.format("a byte threshold of ~%.0f B of the events' own bytes", s.value());
      case HOLD -> String.format("a hold timer of ~%.1f ms", s.value());
      case PERIODIC -> String.format("a periodic timer of ~%.1f ms", s.value());
      case CORK ->
          String.format(
              "the kernel's cork on the client socket (~%.0f ms from a write, or a full segment)",
              s.value());
      case ONE_LATE -> "one-late (each release written only when the next one comes)";
      case FLUSH_TIMER ->
          String.format("a compressor flushing ~%.1f ms after a write reached it", s.value());
      case FLUSH_INPUT ->
          String.format("a compressor flushing every ~%.0f B of its input", s.value());
      case FLUSH_OUTPUT ->
          String.format("a compressor sending once ~%.0f B of its output wait", s.value());
    };
  }

  /**
   * The intervals a telling cell is drawn from: up to 300 ms, where a hold in front of the cork
   * waits its whole length every frame and a clock a part of its period (`timer=210.4ms -> cork`
   * against `timer=246.1ms,periodic=true -> cork`: 420 and 325 ms at 300 ms, alike at 100 ms and
   * under).
   */
  static final long[] TELLING_INTERVALS_MS = {2, 5, 10, 20, 50, 100, 150, 200, 300};

  /** Frames of a telling cell slower than 100 ms: a stream of 2.25-4.5 s, a dozen releases. */
  static final int SLOW_FRAMES = 15;

  /**
   * Frames of a cell measured to tell models apart: a stream of about 1.2 s, or of a dozen slow
   * releases.
   */
  static int framesAt(long intervalMs) {
    return intervalMs > 100
        ? SLOW_FRAMES
        : (int) Math.max(25, Math.min(600, 1200 / intervalMs + 1));
  }

  /**
   * A cell not measured yet, as the simulation needs it: frames of {@code size} bytes every {@code
   * ms}, each on the wire with a chunk's framing.
   */
  static CellEvidence planned(long size, long ms, int frames) {
    return new CellEvidence(
        "plan",
        size + 6,
        size,
        ms,
        frames,
        1,
        1.0,
        frames - 2,
        1,
        0,
        0,
        0,
        ms,
        ms,
        ms,
        0,
        false,
        null);
  }
}
