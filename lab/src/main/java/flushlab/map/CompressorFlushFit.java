package flushlab.map;

import flushlab.map.PairSimulation.Kind;
import flushlab.map.PairSimulation.Stage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A compressor's flush beside another holding stage (a hold, a clock or a threshold), fitted on the
 * cells of the clients that accept its coding by simulating the two in series: what value the cells
 * allow, and, where they leave it loose, the one cell that pins it.
 *
 * <p>Why pinning: a compressor flushing every N bytes of its input in front of a clock releases, at
 * each tick, the whole flushes since the last one, so where it flushes more often than the clock
 * ticks a release carries two or three flushes, and values far apart give releases alike (`flush=
 * input,bytes=2684B -> timer=165ms,periodic=true` was answered with 1798 B, verified on 7 of 7
 * cells: 90 frames a release are two flushes of 45 frames or three of 30). A cell whose frames come
 * slowly enough that each release is one flush reads N off its releases.
 */
public final class CompressorFlushFit {
  private CompressorFlushFit() {}

  /** How a compressor beside another stage flushes, as the simulation runs it. */
  public enum Flush {
    /** `flush=timer,after=T`: T ms after a write reached it. */
    TIMER(Kind.FLUSH_TIMER),
    /** `flush=input,bytes=N`: once N bytes of its input (the events' own) are in. */
    INPUT(Kind.FLUSH_INPUT),
    /**
     * `flush=bytes,bytes=N`: each write flushed, sent once N compressed bytes wait (counted as the
     * accepting client received them).
     */
    OUTPUT(Kind.FLUSH_OUTPUT);

    private final Kind kind;

    Flush(Kind kind) {
      this.kind = kind;
    }

    /** The stage the simulation runs for it. */
    Kind kind() {
      return kind;
    }
  }

  /**
   * What the cells allow of a compressor's flush beside another stage.
   *
   * @param value the value given: of those that match every cell, the closest to what the cells
   *     showed
   * @param low the lowest value that matches every cell
   * @param high the highest
   * @param alike the values as close as {@code value} (their simulations release alike on every
   *     cell that scores): which of them it is, no cell measured tells
   * @param beside the other stage's value the fit held, where not the one it was given (NaN): a
   *     threshold read on the other client's cells to a percent or two
   */
  public record Fitted(double value, double low, double high, Span alike, double beside) {
    public Fitted(double value, double low, double high, Span alike) {
      this(value, low, high, alike, Double.NaN);
    }

    /** More than a model's parameter may be off (5 % either way) lies between low and high. */
    public boolean loose() {
      return high > low * LOOSE;
    }

    /**
     * Values wider apart than a model's parameter may be off fit as closely as the one given: a
     * clock's ticks bring a compressor behind it a batch each, so its releases tell an input count
     * only to a batch (`timer=285ms,periodic=true -> compress=gzip,flush=input,bytes=1956B` fitted
     * every cell alike from 1.8 to 3.4 KB, and 2425 B was given, verified 9 of 9: a chain bench,
     * 2026-12-06).
     */
    public boolean untold() {
      return alike.hi() > alike.lo() * LOOSE;
    }

    /**
     * What fits alike lies within {@link ThresholdPairFit#PINNED} (6 %), so the value given, its
     * middle, is within 3 % of any of it: pinned as the map pins a pair's thresholds.
     */
    public boolean pinned() {
      return alike.hi() <= alike.lo() * ThresholdPairFit.PINNED;
    }
  }

  /** The ratio of the highest to the lowest value allowed past which the fit is loose. */
  static final double LOOSE = 1.10;

  /**
   * The value of a compressor's flush beside {@code other}, the stage clients that do not accept
   * the coding saw alone (a hold or a clock of {@code otherValue} ms, or a threshold of {@code
   * otherValue} bytes on the plain wire, which it counts as the relay read them in front of the
   * compressor and as it passes them behind), fitted on the cells of the clients that do: its timer
   * (ms) or its input or output bytes. Of the values (4 % apart) whose simulation, the compressor
   * {@code first} or after {@code other}, matches every cell, the closest to them; null when none
   * does. Only what the compressor holds and when is simulated, so compressed cells serve as well
   * as plain ones.
   */
  public static Double compressorFlush(
      List<CellEvidence> acceptingCells,
      Flush flush,
      TriggerKind other,
      double otherValue,
      boolean first) {
    Fitted f = fit(acceptingCells, List.of(), flush, other, otherValue, first);
    return f == null ? null : f.value();
  }

  /**
   * The same fit with cells measured to pin the value ({@link CompressorPinning#pinningCell}):
   * every cell, those included, bounds it, and the value given is, of the values 1 % apart within
   * those bounds, the one whose releases carry the frames the pinning cells' did. Their waits are
   * not fitted: a clock's phase against the compressor's flushes moves them by up to its period
   * stream to stream. With no pinning cells, the plain fit.
   */
  public static Fitted fit(
      List<CellEvidence> acceptingCells,
      List<CellEvidence> pinning,
      Flush flush,
      TriggerKind other,
      double otherValue,
      boolean first) {
    Kind kind = beside(other, first);
    List<CellEvidence> fitted = new ArrayList<>(HoldingStageFits.fittable(acceptingCells));
    if (kind == null || fitted.isEmpty() || fitted.stream().noneMatch(CellEvidence::held))
      return null;
    List<CellEvidence> pins = HoldingStageFits.fittable(pinning);
    fitted.addAll(pins);
    Stage fixed = new Stage(kind, otherValue);
    Fitted f = fit(fitted, pins, flush, fixed, first, phases(fixed, flush, first));
    // a compressor's timer in front of a clock is fitted at the clock's phase 0 (see phases); where
    // no value matches every cell there, the cells were measured at another phase, which moves a
    // release by one of the compressor's cycles: then at every phase, for a candidate the replay
    // decides on (`compress=gzip,flush=timer,after=59ms -> timer=150ms,periodic=true` had no
    // candidate in that order, and the other order alone was verified: 2026-12-06)
    // Likewise a count behind the clock, where a cell's first release came a tick sooner or later
    // than the few phases tried give: a pinning cell of 60 B every 5 ms behind a 130 ms clock
    // showed its first frame after 390.5 ms in one map and 520.5 in another (three ticks or four
    // before the count was reached), and the first map had no candidate of a count at all
    // (`flushlab map --shape 'timer=130ms,periodic=true -> compress=gzip,flush=input,bytes=4738B'
    // --client browser`, 2026-12-07)
    if (f == null && fixed.kind() == Kind.PERIODIC && (first && flush == Flush.TIMER || !first))
      f = fit(fitted, pins, flush, fixed, first, everyPhase(fixed.value()));
    // a threshold is read on the other client's cells to a percent or two, and behind a compressor
    // flushing by its input each release is whole flushes of a hundred bytes or so, which a
    // percent moves by one: `compress=gzip,flush=input,bytes=6089B -> byte-threshold=2495B`, its
    // threshold read as 2475 B, released 4 KiB frames 50 at a time where 2475 B gives 48, and the
    // pace two fewer frames set was refused (a chain bench, 2026-12-06). Values that near are
    // tried, nearest first, and the one the fit held is the model's. Only for that count: beside a
    // compressor sending by its output the nudge only added a candidate to replay (a fresh-clone
    // suite, 2026-12-06)
    boolean threshold = fixed.kind() == Kind.THRESHOLD && flush == Flush.INPUT;
    for (int i = 0; f == null && threshold && i < NEAR_THRESHOLD.length; i++) {
      Stage near = new Stage(fixed.kind(), otherValue * NEAR_THRESHOLD[i]);
      Fitted at = fit(fitted, pins, flush, near, first, phases(near, flush, first));
      if (at != null) f = new Fitted(at.value(), at.low(), at.high(), at.alike(), near.value());
    }
    return f;
  }

  /** A threshold's values tried beside the one read, nearest first: within 2 %. */
  private static final double[] NEAR_THRESHOLD = {1.01, 1 / 1.01, 1.02, 1 / 1.02};

  private static Fitted fit(
      List<CellEvidence> fitted,
      List<CellEvidence> pins,
      Flush flush,
      Stage fixed,
      boolean first,
      double[] phases) {
    double low = Double.NaN;
    double high = Double.NaN;
    HoldingPairFit.Closest<Double> closest = new HoldingPairFit.Closest<>();
    for (double v :
        FlushValues.tried(flush.kind, jittered(flush.kind, fixed, first, phases), pins)) {
      double score = score(fitted, pins, new Stage(flush.kind, v), fixed, first, phases);
      if (Double.isNaN(score)) continue;
      if (Double.isNaN(low)) low = v;
      high = v;
      if (pins.isEmpty()) closest.offer(score, v);
    }
    if (Double.isNaN(low)) return null;
    // the bounds on a finer grid: a pinning cell of 45-frame releases tells values 2 % apart, and
    // the grid's 4 % steps are most of the 5 % a model's value may be off (a clock then a
    // compressor's 59 ms timer was fitted at 62.4, the grid's value next to the 61 ms its cells
    // showed: 2026-12-06). All of them, not around the grid's closest value alone: a cell of 10 ms
    // frames gathers a compressor's flushes of 7 only between 60 and 62 ms, which the grid steps
    // over (57.7, 60.0, 62.4), so its closest value was a 49.3 ms timer four of whose cycles make a
    // 200 ms clock's period, and 48.4 ms was answered for a hidden 60 (a map, 2026-12-06)
    // (a grid of 1 % already, for a fit judged a few ms either way, is not read again)
    boolean fine = jittered(flush.kind, fixed, first, phases);
    for (double v = low / HoldingPairFit.STEP;
        !fine && v <= high * HoldingPairFit.STEP;
        v *= FlushValues.FINE) {
      double score = score(fitted, pins, new Stage(flush.kind, v), fixed, first, phases);
      if (!Double.isNaN(score)) closest.offer(score, v);
    }
    Double chosen = closest.chosen();
    if (chosen == null) return null;
    List<Double> tied = closest.tied();
    Span alike = new Span(Collections.min(tied), Collections.max(tied));
    return new Fitted(chosen, low, high, alike);
  }

  /** Whether a fit judges its cells against the ticks a few ms either way ({@link TickJitter}). */
  private static boolean jittered(Kind compressor, Stage fixed, boolean first, double[] phases) {
    return compressor == Kind.FLUSH_TIMER
        && first
        && fixed.kind() == Kind.PERIODIC
        && phases.length == 1;
  }

  /** The other stage as the simulation runs it beside the compressor; null for any other kind. */
  static Kind beside(TriggerKind other, boolean compressorFirst) {
    return switch (other) {
      case PERIODIC_TIMER -> Kind.PERIODIC;
      case TIMER -> Kind.HOLD;
      // a threshold in front of the compressor counts the events' bytes; behind it, the
      // compressed bytes, as an accepting client receives them (what its cells give)
      case BYTE_THRESHOLD -> compressorFirst ? Kind.THRESHOLD : Kind.INPUT_THRESHOLD;
      // the cork is the client socket's: behind the compressor only
      case CORK -> compressorFirst ? Kind.CORK : null;
      case ONE_LATE -> Kind.ONE_LATE;
      default -> null;
    };
  }

  /**
   * The clock's phases a fit simulates: its ticks from the stream's start (the relay's clock starts
   * with the response), or a few ms before the frames' own times: the emitter's frames reach it a
   * little later, so a frame due on a tick may come after it. Not for a compressor's timer in front
   * of the clock: it counts from the frames' times as the clock does from the stream's, and there
   * the offsets alias (a timer of 78.9 ms, its flushes landing just after the ticks, matched the
   * cells of one of 158 ms before a clock of 200.3 ms), so phase 0 alone, unless it fits nothing.
   */
  private static double[] phases(Stage fixed, Flush flush, boolean first) {
    double period = fixed.value();
    boolean phased = fixed.kind() == Kind.PERIODIC && !(first && flush == Flush.TIMER);
    return phased ? new double[] {0, period - 1, period - 2.5, period - 5} : new double[] {0};
  }

  /** {@link ClockPhases#STEPS} phases over a clock's period. */
  private static double[] everyPhase(double period) {
    double[] out = new double[ClockPhases.STEPS];
    for (int k = 0; k < out.length; k++) out[k] = period * k / out.length;
    return out;
  }

  /** How far a pinning cell's simulated releases may lie from its own: a model's tolerance. */
  private static final double PIN_SHARE = 0.05;

  /**
   * The phase a pinning cell behind a clock was measured at: a tick fell when its first frame had
   * waited as long as it did. At the fit's few phases, or any phase a first wait 15 % off allows, a
   * count a tick's batch too high fitted (5092 B for a hidden 4738 behind a 130 ms clock, refused
   * on replay: first frame 522.1 ms against 390.5; held within 10 ms, 4750 B, first frame 522.9
   * against 392.4, since 79 frames of 60 B had come by then: two maps, 2026-12-07).
   */
  private static double[] ownPhase(CellEvidence c, double period) {
    return new double[] {c.firstWaitMs() % period};
  }

  /**
   * NaN when the compressor at this value, beside {@code fixed}, misses a cell; else how far its
   * releases lie from the cells': every cell's, or only the pinning ones' frames a release. Beside
   * a clock the compressor is simulated at several phases of the clock, a cell matching (and
   * scored) at its best: the phase of the target's clock against the stream is not known, and
   * differs run to run. Where a byte count flushes more often than the clock ticks, a release
   * carries two flushes or three as the phase falls (`flush=input,bytes=1820B ->
   * timer=211ms,periodic=true`, whose browser cells showed releases of 93 frames, three flushes,
   * was fitted at 2769 B: at phase 0 the simulation gave four); a compressor's timer behind the
   * clock adds itself to waits the phase sets (`timer=150ms,periodic=true ->
   * compress=gzip,flush=timer,after=70ms` was fitted at 85.4 ms, verified 9 of 9: frames every 50
   * ms had waited 150 ms in the clock on the browser's run, 100 ms at phase 0).
   */
  private static double score(
      List<CellEvidence> cells,
      List<CellEvidence> pins,
      Stage compressor,
      Stage fixed,
      boolean first,
      double[] phases) {
    double score = 0;
    // not beside the cork, whose ceiling runs 200 to 225 ms (CorkCeiling): `...after=112ms -> cork`
    // released 114 frames or 171 where 112 ms simulates 114, and had no candidate (2026-12-07)
    boolean sizes = compressor.kind() == Kind.FLUSH_TIMER && fixed.kind() != Kind.CORK;
    boolean jittered = jittered(compressor.kind(), fixed, first, phases);
    // an output count behind a threshold: each cell's releases are whole blocks of its own size,
    // and the value lies where every cell's steps agree, the pinning cells' and the others' alike
    // (scored on the pinning cells alone, the 4 KiB cell's seven blocks no longer bounded it, and
    // a 256 B cell's two left 488..620 B: a map, 2026-12-07); beside a clock the others' waits
    // move with its phase and say nothing of the value
    boolean byOutput =
        compressor.kind() == Kind.FLUSH_OUTPUT && fixed.kind() == Kind.INPUT_THRESHOLD;
    for (CellEvidence c : cells) {
      if (byOutput && compressor.value() > ReleaseSizes.sentAtOnce(c)) return Double.NaN;
      double best = Double.NaN;
      double fewest = Double.MAX_VALUE;
      double most = 0;
      double soonest = Double.MAX_VALUE;
      double latest = 0;
      boolean ownPhase =
          pins.contains(c) && fixed.kind() == Kind.PERIODIC && !first && c.firstWaitMs() > 0;
      for (double phase : ownPhase ? ownPhase(c, fixed.value()) : phases) {
        Simulated sim = simulate(c, compressor, fixed.atPhase(phase), first);
        fewest = Math.min(fewest, sim.framesP50());
        most = Math.max(most, sim.framesP50());
        soonest = Math.min(soonest, sim.waitP50());
        latest = Math.max(latest, sim.waitP50());
        // a compressor's timer before a clock, at its one phase: where its flushes meet the
        // ticks, a real run's releases take one flush more or less as the ticks fall a few ms
        // either way (TickJitter), and the cell is judged against what those show
        if (jittered)
          sim =
              TickJitter.nearest(c, TickJitter.around(c, sim, compressor, fixed.atPhase(0), phase));
        if (ownPhase ? !onItsTick(c, sim, fixed.value()) : !SimulatedCell.matches(c, sim)) continue;
        // a compressor's timer is read off the sizes its flushes give a clock's releases: how
        // many it gathers is the clock's, and which counts they take (two or three flushes) the
        // timer's; its median alone matched a timer 60 % long
        if (sizes && !ReleaseSizes.alike(c, sim)) continue;
        // a pinning cell's releases are one flush each, so they read the value to a frame: one
        // more than a model's 5 % off them is another value (2024 B for a hidden 2538, 34 frames
        // a release against 43, was within the quarter any cell's median gets, and given: a
        // fresh-clone suite, 2026-12-06)
        if (pins.contains(c)
            && !ownPhase
            && !Replay.close(sim.framesP50(), c.releaseFrames(), PIN_SHARE, 1)) continue;
        double misfit =
            ownPhase
                ? sizesMisfit(c, sim)
                : pins.contains(c)
                    ? framesMisfit(c, sim)
                    : pins.isEmpty() || byOutput
                        ? SimulatedCell.misfit(c, sim) + (sizes ? ReleaseSizes.misfit(c, sim) : 0)
                        : 0;
        if (Double.isNaN(best) || misfit < best) best = misfit;
      }
      if (Double.isNaN(best)) return Double.NaN;
      // a cell whose releases move with the clock's phase bounds the value, and says no more of it
      boolean phaseBound =
          most - fewest > Math.max(1, PHASE_SHARE * most)
              || latest - soonest > Math.max(PHASE_MS, PHASE_SHARE * latest);
      // over every phase almost every cell is phase-bound; each is scored at its best phase then.
      // A pinning cell is scored by its frames a release, one flush each, which the phase does not
      // move (its waits do): left out, `...flush=input,bytes=3937B -> timer=159ms,periodic=true`
      // was given 3829 B, 64 frames a flush where the pinning cell showed 66, and refused on it (a
      // fresh-clone suite, s220, 2026-12-07)
      if (!phaseBound || pins.contains(c) || phases.length == ClockPhases.STEPS) score += best;
    }
    return score;
  }

  /**
   * Simulated releases that move more than this share (or {@link #PHASE_MS}) with the clock's phase
   * make a cell phase-bound: frames every 50 ms in a clock of 150 ms wait 100 or 150 ms as it
   * falls.
   */
  private static final double PHASE_SHARE = 0.05;

  private static final double PHASE_MS = 5;

  static Simulated simulate(CellEvidence c, Stage compressor, Stage fixed, boolean first) {
    return first
        ? CorkCeiling.asMeasured(c, compressor, fixed)
        : CorkCeiling.asMeasured(c, fixed, compressor);
  }

  /**
   * A pinning cell behind a clock, simulated at its own phase: its first release on the tick its
   * first frame's wait names (by then so many frames had come, which bounds the count to a frame
   * where the steady releases bound it to a tick's batch), and its fewest and most frames a release
   * as the cell's. Not the median: where a tick brings 26 frames or 27, releases of three ticks and
   * of four came in turn, 79 frames and 104, and the median took either as the phase fell (a map,
   * 2026-12-07).
   */
  private static boolean onItsTick(CellEvidence c, Simulated sim, double period) {
    return !sim.drained()
        && sim.releases() > 0
        && Math.abs(sim.firstWaitMs() - c.firstWaitMs()) <= period / 2
        && Replay.close(sim.framesP10(), c.releaseFramesP10(), PIN_SHARE, 1)
        && Replay.close(sim.framesP90(), c.releaseFramesP90(), PIN_SHARE, 1);
  }

  private static double sizesMisfit(CellEvidence c, Simulated sim) {
    double lo = (sim.framesP10() - c.releaseFramesP10()) / Math.max(1, c.releaseFramesP10());
    double hi = (sim.framesP90() - c.releaseFramesP90()) / Math.max(1, c.releaseFramesP90());
    return lo * lo + hi * hi;
  }

  private static double framesMisfit(CellEvidence c, Simulated sim) {
    double d = (sim.framesP50() - c.releaseFrames()) / Math.max(1, c.releaseFrames());
    return d * d;
  }
}
