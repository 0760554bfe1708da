package flushlab.map;

import flushlab.map.CompressorFlushFit.Fitted;
import flushlab.map.CompressorFlushFit.Flush;
import flushlab.map.PairSimulation.Kind;
import flushlab.map.PairSimulation.Simulated;
import flushlab.map.PairSimulation.Stage;
import java.util.ArrayList;
import java.util.List;

/**
 * The cells that pin a compressor's flush the accepting cells left loose ({@link
 * CompressorFlushFit}): a compressor flushing every N bytes of its input in front of a clock or a
 * hold releases, at each tick, the whole flushes since the last one, so a release carries two or
 * three flushes and values far apart give releases alike; a cell whose frames come slowly enough
 * that each release is one flush reads N off its releases.
 */
public final class CompressorPinning {
  private CompressorPinning() {}

  /** Sample values between a loose fit's bounds a pinning cell must read apart. */
  private static final int SAMPLES = 6;

  /** A pinning cell's stream lasts this long at most. */
  private static final long MAX_STREAM_MS = 5000;

  /** Releases a pinning cell shows at the highest value, at least: a median of several. */
  private static final int MIN_RELEASES = 2;

  /**
   * A cell that reads a loose fit's value beside a hold or a clock of {@code otherMs}: of small to
   * large frames at 2 to 300 ms, streams up to 5 s, one where the frames a release carries grow
   * with the value at every step from {@code f}'s low to its high (so each release is one flush,
   * not a sum of several), with the most frames a release at the low end (the finest reading); null
   * when no such cell exists, or the other stage is a threshold (whose count behind the compressor
   * is of compressed bytes, which a cell not measured does not have), or the compressor's own count
   * is of its output ({@code flush=bytes}: compressed bytes again; the cells pinning an input count
   * bound it too).
   */
  public static CellPlan pinningCell(
      Fitted f, Flush flush, TriggerKind other, double otherMs, boolean first) {
    Kind kind = CompressorFlushFit.beside(other, first);
    if (kind != Kind.PERIODIC && kind != Kind.HOLD || flush != Flush.INPUT || !f.loose())
      return null;
    Stage fixed = new Stage(kind, otherMs);
    CellPlan best = null;
    double finest = 0;
    for (long size : new long[] {60, 256, 1024, 4096}) {
      for (long ms : HoldingPairFit.TELLING_INTERVALS_MS) {
        // long enough for a few flushes at the high end (a clock's or a hold's releases come
        // in between), within five seconds
        int frames =
            (int)
                Math.max(
                    HoldingPairFit.framesAt(ms),
                    Math.ceil((MIN_RELEASES + 1.5) * f.high() / Math.max(1, size)));
        if (frames * ms > MAX_STREAM_MS) continue;
        CellEvidence plan = HoldingPairFit.planned(size, ms, frames);
        double previous = -1;
        double atLow = 0;
        boolean reads = true;
        for (int i = 0; i < SAMPLES && reads; i++) {
          double v = f.low() * Math.pow(f.high() / f.low(), i / (double) (SAMPLES - 1));
          Simulated sim =
              CompressorFlushFit.simulate(plan, new Stage(flush.kind(), v), fixed, first);
          reads = !sim.drained() && sim.releases() >= MIN_RELEASES && sim.framesP50() > previous;
          if (i == 0) atLow = sim.framesP50();
          previous = sim.framesP50();
        }
        if (reads && atLow > finest) {
          finest = atLow;
          best = new CellPlan(size, ms * 1_000_000L, frames);
        }
      }
    }
    return best;
  }

  /** Cells measured at most to pin the compressor's flushes beside one stage. */
  public static final int MAX_PINNING_CELLS = 2;

  /**
   * Cells to measure as the accepting client before the compressors of {@link
   * BesideACompressor#compressorOnATimer} are fitted: for each flush and order whose value the
   * accepting cells leave loose (more than 5 % either way), the cell that reads it ({@link
   * #pinningCell}), once each, at most {@link #MAX_PINNING_CELLS}; none where those cells pin every
   * value.
   */
  public static List<CellPlan> pinningCells(
      FlushTrigger answer, List<CellEvidence> acceptingCells) {
    PlainStage b = PlainStage.of(answer);
    if (b == null || b.threshold()) return List.of();
    TriggerKind other = answer.compression().others().kind();
    // a hold or a clock (a threshold is left out above): its ms, either side of the compressor
    double ms = b.plainValue();
    List<CellPlan> plans = new ArrayList<>();
    for (Flush flush : b.flushes()) {
      if (flush == Flush.TIMER) continue; // a compressor's timer is not pinned by a cell
      for (boolean compressorFirst : new boolean[] {true, false}) {
        Fitted fitted =
            CompressorFlushFit.fit(acceptingCells, List.of(), flush, other, ms, compressorFirst);
        CellPlan plan =
            fitted == null ? null : pinningCell(fitted, flush, other, ms, compressorFirst);
        if (plan != null && !plans.contains(plan) && plans.size() < MAX_PINNING_CELLS)
          plans.add(plan);
      }
    }
    return plans;
  }
}
