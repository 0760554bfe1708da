package flushlab.map;

import flushlab.map.PairSimulation.Kind;
import flushlab.map.PairSimulation.Stage;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * A clock's ticks a few milliseconds either side of where a simulation put them, and of those
 * simulations, what a cell measured at any of them could show. Where a clock's period is close to a
 * whole number of a compressor's cycles, every cycle's flush meets a tick, and a relay's timer that
 * fires a millisecond late or a frame that comes one early decides, tick by tick, whether a release
 * gathers one flush more or less and whether its oldest frame waited one cycle more:
 * `compress=gzip,flush=timer,after=51ms -> timer=208ms,periodic=true` released four 26-frame
 * flushes of 2 ms frames a tick and, once a stream, five (104 and 130 frames, p10 and p90), its
 * oldest frame waiting 208 ms on one run and 257 ms on the next. At its one phase the simulation of
 * 51 ms gave 104 every tick, waiting 209 ms, and was refused; a 58.2 ms timer passed and was
 * answered (a CI run, 2026-12-06). The ticks are moved further earlier than later: the relay's
 * clock starts with the response, a few ms before the first frame reaches it, and where the cycles
 * fall a little short of the period the flushes drift onto the ticks (a 45 ms timer's five 46 ms
 * cycles before a 233 ms clock released five flushes and once six, which the simulation gives with
 * its ticks 4 to 6 ms earlier; at 3 ms either way the fit answered 31.9 ms).
 */
final class TickJitter {
  private TickJitter() {}

  /** How far before a simulated tick a real relay's may fall against the frames. */
  static final double EARLIER_MS = 6;

  /** How far after. */
  static final double LATER_MS = 3;

  /**
   * How far the clock's period may be from the one measured, either way: the releases' gaps give it
   * to a few tenths of a ms, and over a stream's four to six ticks that decides which way the
   * flushes drift against them. `...after=51ms -> timer=208ms,periodic=true`, measured as 208.3 ms,
   * released once three flushes of 26 frames and once five on the maps after; at 208.3 the four 52
   * ms cycles drift only one way and give five, never three (a map answered 41.4 ms).
   */
  static final double PERIOD_SLACK_MS = 0.5;

  /** The steps the ticks are moved by. */
  private static final double STEP_MS = 1;

  /**
   * The simulations of {@code c} through the two stages with the clock (first or second) at {@code
   * phase} ({@code atPhase}, which the caller ran already) and at every {@link #STEP_MS} from
   * {@link #EARLIER_MS} before it to {@link #LATER_MS} after, {@code atPhase} first; that one alone
   * where neither stage is a clock.
   */
  static List<Simulated> around(
      CellEvidence c, Simulated atPhase, Stage first, Stage second, double phase) {
    int clock = first.kind() == Kind.PERIODIC ? 0 : second.kind() == Kind.PERIODIC ? 1 : -1;
    List<Simulated> out = new ArrayList<>();
    out.add(atPhase);
    if (clock < 0) return out;
    for (double slack : new double[] {0, -PERIOD_SLACK_MS, PERIOD_SLACK_MS})
      for (double d = -EARLIER_MS; d <= LATER_MS; d += STEP_MS) {
        if (d == 0 && slack == 0) continue;
        out.add(
            PairSimulation.simulate(
                c,
                at(first, clock == 0, phase + d, slack),
                at(second, clock == 1, phase + d, slack)));
      }
    return out;
  }

  private static Stage at(Stage s, boolean clock, double phase, double slack) {
    if (!clock) return s;
    double period = s.value() + slack;
    return new Stage(s.kind(), period, ((phase % period) + period) % period);
  }

  /**
   * One simulation whose every figure is, of {@code around}'s (the first's counts of releases and
   * its kind of end), the nearest to the cell's: within one stream a cell's ticks fall at each of
   * those phases in turn, so its fewest frames a release may be one phase's and its most another's.
   */
  static Simulated nearest(CellEvidence c, List<Simulated> around) {
    Simulated s = around.get(0);
    if (around.size() == 1 || s.drained() || s.releases() == 0) return s;
    return new Simulated(
        s.releases(),
        pick(around, Simulated::framesP50, c.releaseFrames()),
        pick(around, Simulated::waitP50, c.waitP50()),
        pick(around, Simulated::firstWaitMs, c.firstWaitMs()),
        s.drained(),
        s.framesPerBatch(),
        pick(around, Simulated::framesMax, SimulatedCell.largestRelease(c)),
        s.segmented(),
        pick(around, Simulated::framesP10, ReleaseSizes.fewest(c)),
        pick(around, Simulated::framesP90, ReleaseSizes.most(c)),
        pick(around, Simulated::waitP10, c.waitP10()),
        pick(around, Simulated::waitP90, c.waitP90()),
        pick(around, Simulated::gapP50, c.gapP50()));
  }

  private static double pick(
      List<Simulated> around, ToDoubleFunction<Simulated> figure, double measured) {
    double best = figure.applyAsDouble(around.get(0));
    for (Simulated s : around) {
      if (s.releases() == 0) continue;
      double v = figure.applyAsDouble(s);
      if (Math.abs(v - measured) < Math.abs(best - measured)) best = v;
    }
    return best;
  }
}
