package flushlab.map;

import java.util.Locale;

/**
 * A hold timer behind a clock: the clock lets its frames go on its ticks, and the hold counts from
 * when each frame came to the relay (the lab's relay carries that time along a chain), so a release
 * whose oldest frame already waited the hold in the clock passes it at once. In every cell the map
 * measures by default the oldest frame of a release waits most of the period, so the two release as
 * the clock alone does (`timer=178ms,periodic=true -> timer=55ms` was answered by the clock alone,
 * verified 5 of 5 cells: a chain bench, 2026-12-06). Frames that come just before the ticks tell: a
 * little under a period apart, each meets the next tick a few milliseconds after it came, and the
 * hold, not the tick, lets it go. A clock answered alone is held to such a cell before it is given,
 * its own model held to its values there (without the period's slack, which covers the hold).
 */
public final class HoldBehindAClock {
  private HoldBehindAClock() {}

  /**
   * How much sooner than the period each frame of the telling cell comes, in periods, and at least
   * {@link #MIN_STEP_MS}: frame k meets its tick k steps after it came, so the releases the meter
   * keeps (frames 2 to 6) wait 2 to 6 steps, a median of 4 (a tenth of the period); a hold longer
   * than that, with the replay's 15 % or 5 ms, shows.
   */
  static final double STEP_IN_PERIODS = 1.0 / 40;

  /**
   * The least step: a clock's tick falls a millisecond or so either way, and a frame that came a
   * step before a tick late by more than the step waits a whole period more.
   */
  static final double MIN_STEP_MS = 4;

  /**
   * For a periodic timer alone: the cell of token frames a step under its period apart, where each
   * waits for its tick a few steps, or for the hold behind the clock; null for any other answer.
   */
  static Twin twin(FlushTrigger answer) {
    if (answer.kind() != TriggerKind.PERIODIC_TIMER || answer.timerMs() == null) return null;
    double period = answer.timerMs();
    long intervalMs = (long) Math.floor(period - Math.max(MIN_STEP_MS, STEP_IN_PERIODS * period));
    double step = period - intervalMs;
    return new Twin(
        new CellPlan(60, intervalMs * 1_000_000L, Twin.FRAMES),
        String.format(
            Locale.ROOT,
            "a hold behind the clock would keep frames that come just before its ticks for the"
                + " hold, where the clock alone lets each go %.1f to %.1f ms after it came",
            2 * step,
            (Twin.FRAMES - 2) * step),
        seen -> answer(answer, step, seen),
        Twin.Held.AT_ITS_PHASE);
  }

  /**
   * The clock then a hold, from the telling cell as the target showed it ({@code seen}): the hold
   * is the shortest wait the cell kept, which the clock alone gives only its earliest frames (two
   * steps); null where the shortest wait is no longer than that, within the replay's tolerance (no
   * hold shows), or as long as the period (no hold behind a clock keeps a frame that long: the
   * default cells would have shown it).
   */
  static FlushTrigger answer(FlushTrigger clock, double step, CellEvidence seen) {
    double hold = seen.waitP10();
    double clockAlone = 2 * step;
    boolean longer = hold > clockAlone + Math.max(Replay.WAIT_FLOOR_MS, Replay.WAIT_SHARE * hold);
    if (!longer || hold >= clock.timerMs() || seen.drained()) return null;
    String chain =
        "timer="
            + ShaperModel.ms(clock.timerMs())
            + ",periodic=true -> timer="
            + ShaperModel.ms(hold);
    String verdict =
        String.format(
            Locale.ROOT,
            "periodic timer of ~%.1f ms, then a hold timer of ~%.1f ms: the hold counts from when"
                + " a frame came, so a release whose oldest frame waited it in the clock passes at"
                + " once, as the clock alone releases; in %s each frame came %.1f ms before a tick"
                + " or more and waited %.1f ms at least (the median %.1f), where the clock alone"
                + " lets the earliest go after %.1f ms",
            clock.timerMs(),
            hold,
            seen.label(),
            2 * step,
            hold,
            seen.waitP50(),
            clockAlone);
    return clock.followedBy(TriggerKind.TIMER, verdict).withStages(chain);
  }

  /**
   * The telling cell on the target ({@code t}) against the replay of it ({@code m}) on the clock
   * {@code model} of {@code period} ms, each run's waits read from where its frames fell against
   * the ticks; null when they agree, else what differs ({@link Replay#heldToItsValues}). The
   * relay's clock starts with the response, the emitter's frames with its stream, and a host stall
   * between the two (the head delivered late, under the emitter's 20 ms tolerance) moves every
   * frame's phase alike: a suite's clock of 246 ms alone waited 33.1 ms at least (median 45.7) on
   * the target and 12.6 (median 25.2) on its model, its first frame 260.3 and 239.8 ms, and the
   * clock was answered with a 33.1 ms hold behind it (s300). So the model's waits are shifted by
   * how much later the target's first frame fell against the ticks, and agree when they then match.
   * Only where the target's first frame waited a whole period (so a hold, shorter than the period,
   * did not set its wait): otherwise as held to its values alone.
   */
  public static String difference(String model, double period, CellEvidence t, CellEvidence m) {
    String plain = Replay.heldToItsValues(model, t, m);
    if (plain == null || t.drained() || m.drained() || !t.held() || !m.held()) return plain;
    if (!(t.firstWaitMs() >= period) || !(m.firstWaitMs() > 0)) return plain;
    double shift = (t.firstWaitMs() - m.firstWaitMs()) % period;
    if (shift > period / 2) shift -= period;
    if (shift < -period / 2) shift += period;
    boolean shifted =
        Replay.close(t.waitP10(), m.waitP10() + shift, Replay.WAIT_SHARE, Replay.WAIT_FLOOR_MS)
            && Replay.close(
                t.waitP50(), m.waitP50() + shift, Replay.WAIT_SHARE, Replay.WAIT_FLOOR_MS);
    return shifted ? null : plain;
  }
}
