package flushlab.map;

import flushlab.map.PairSimulation.Kind;
import flushlab.map.PairSimulation.Stage;

/**
 * How far the phase of a model's clock moves a cell's oldest wait: the model's two stages simulated
 * on the cell with the clock's ticks at {@link #STEPS} phases over its period, the lowest and the
 * highest median wait. Nothing on a path fixes where a clock's ticks fall against a stream's
 * frames, and behind a compressor on a timer of its own a few milliseconds either way moves every
 * release of a stream by one of the compressor's cycles: `compress=gzip,flush=timer,after=41ms ->
 * timer=149ms,periodic=true`, its frames every 10 ms, waited 145.0 ms a release on the target and
 * 196.2 on its own model's relay, which was refused (a fresh-clone suite, 2026-12-06); simulated,
 * that cell waits 142.6 to 192.6 ms as the phase falls. {@link Replay} lets two waits agree when
 * the model puts both within that range: the model at some phase of its clock reproduces each.
 */
record ClockPhases(double lowMs, double highMs) {
  /** Phases tried over a period: a twentieth of a 150 ms clock is 5 ms, under the wait floor. */
  static final int STEPS = 30;

  /**
   * The range over the phases of the chain's clock ({@code stages}, as {@link ChainStages#of} reads
   * them), or null: no clock among them, no chain simulated, or a cell with no release to wait.
   */
  static ClockPhases of(CellEvidence c, Stage[] stages) {
    if (stages == null || c.drained() || c.thinks()) return null;
    int clock = stages[0].kind() == Kind.PERIODIC ? 0 : stages[1].kind() == Kind.PERIODIC ? 1 : -1;
    if (clock < 0) return null;
    double period = stages[clock].value();
    double low = Double.MAX_VALUE;
    double high = -1;
    Stage[] at = stages.clone();
    for (int k = 0; k < STEPS; k++) {
      at[clock] = stages[clock].atPhase(period * k / STEPS);
      Simulated s = PairSimulation.simulate(c, at[0], at[1]);
      if (s.releases() == 0) continue;
      low = Math.min(low, s.waitP50());
      high = Math.max(high, s.waitP50());
    }
    return high < 0 ? null : new ClockPhases(low, high);
  }

  /**
   * Whether a measured wait lies within the range, each end given what two medians may differ by
   * ({@link Replay#WAIT_SHARE} or {@code floorMs}).
   */
  boolean holds(double waitMs, double floorMs) {
    return waitMs >= lowMs - Math.max(floorMs, Replay.WAIT_SHARE * lowMs)
        && waitMs <= highMs + Math.max(floorMs, Replay.WAIT_SHARE * highMs);
  }
}
