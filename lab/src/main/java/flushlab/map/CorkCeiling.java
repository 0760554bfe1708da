package flushlab.map;

import flushlab.map.PairSimulation.Kind;
import flushlab.map.PairSimulation.Stage;

/**
 * The cork's ceiling is not one constant: the kernel lets a corked partial segment go when its
 * probe timer fires, after the connection's retransmission timeout (200 ms at least, plus what it
 * has learnt of the round trip, which delayed acknowledgements lengthen) and the timer wheel's
 * slack. A simulation runs it at {@link CorkAfterFit#CEILING_MS}; where that falls a few
 * milliseconds short of a clock's second tick, a real connection's ceiling lets the tick in now and
 * then: `timer=107ms,periodic=true -> cork` released 60 B frames sent every 50 ms two ticks or
 * three at a time (4 to 7 frames, 260 to 316 ms apart), which a ceiling of 210 ms never does and
 * one of 218 always does, so the clock was no candidate and its twin, a hold, was answered
 * (`flushlab map`, 2026-12-07). A cell that the nominal ceiling refuses is matched at the others
 * here; the misfit that ranks values stays the nominal one's, and the replay on a real cork judges
 * the answer.
 */
final class CorkCeiling {
  private CorkCeiling() {}

  /**
   * The ceilings a connection showed: 200 ms nominal, and releases that waited 205 to 219 ms over
   * the stage's (`timer=219ms -> cork` read as 227.6 ms: its releases waited 218.6), a few ms
   * beyond.
   */
  static final double[] OTHERS_MS = {200, 205, 215, 220, 225};

  /** Whether {@code c} matches the pair at a ceiling other than the nominal one. */
  static boolean matchesAtAnother(CellEvidence c, Stage first, Stage second) {
    int cork = first.kind() == Kind.CORK ? 0 : second.kind() == Kind.CORK ? 1 : -1;
    if (cork < 0) return false;
    for (double ceiling : OTHERS_MS) {
      Stage[] p = {first, second};
      p[cork] = new Stage(Kind.CORK, ceiling);
      if (SimulatedCell.matches(c, PairSimulation.simulate(c, p[0], p[1]))) return true;
    }
    return false;
  }
}
