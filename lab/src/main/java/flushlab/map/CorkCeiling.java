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
 * here, and its misfit, which ranks values, is the one at the ceiling it matched; the replay on a
 * real cork judges the answer.
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
    return atAnother(c, first, second) != null;
  }

  /**
   * The pair's simulation of {@code c} at the first ceiling other than the nominal one that matches
   * it, or null: a cell a ceiling of 215 ms matches is ranked by what that ceiling gives, not by
   * the nominal one's refusal (`cork -> timer=213ms` whose 60 B cell released two holds' frames
   * together, 214, was fitted 222.2 ms, misfitting that cell at 210 ms by half its frames wherever
   * the hold was, and its first frames then pinned nothing: `flushlab map`, 2026-12-07).
   */
  static Simulated atAnother(CellEvidence c, Stage first, Stage second) {
    int cork = first.kind() == Kind.CORK ? 0 : second.kind() == Kind.CORK ? 1 : -1;
    if (cork < 0) return null;
    for (double ceiling : OTHERS_MS) {
      Stage[] p = {first, second};
      p[cork] = new Stage(Kind.CORK, ceiling);
      Simulated s = PairSimulation.simulate(c, p[0], p[1]);
      if (SimulatedCell.matches(c, s)) return s;
    }
    return null;
  }

  /** How far past the ceilings a connection showed a stage's timer still meets them. */
  private static final double WINDOW_SLACK_MS = 5;

  /**
   * Whether {@code model} is a hold or a clock whose time lies among the ceilings a connection
   * shows, then the cork, and one side's releases of {@code t} (the target) and {@code m} (the
   * model) carried one of its windows' frames, the other two: whether its second write meets a
   * socket still corked is the connection's ceiling's choice, made per connection, not the model's.
   * `cork -> timer=213ms` released 60 B frames every 2 ms 107 at a time on one map's target and 214
   * on the next one's, whose model, a hold of 222.2 ms, released 112 (`flushlab map`, 2026-12-07).
   */
  static boolean decidesWindowsPerRelease(String model, CellEvidence t, CellEvidence m) {
    Stage[] stages = ChainStages.of(model);
    if (stages == null || stages[1].kind() != Kind.CORK) return false;
    if (stages[0].kind() != Kind.HOLD && stages[0].kind() != Kind.PERIODIC) return false;
    double timer = stages[0].value();
    if (timer < OTHERS_MS[0] - WINDOW_SLACK_MS
        || timer > OTHERS_MS[OTHERS_MS.length - 1] + WINDOW_SLACK_MS) return false;
    if (!t.held() || !m.held() || t.drained() || m.drained()) return false;
    double window = timer / Math.max(1e-9, t.intervalMs());
    double fewer = Math.min(t.releaseFrames(), m.releaseFrames());
    double more = Math.max(t.releaseFrames(), m.releaseFrames());
    return Replay.close(fewer, window, Replay.FRAMES_SHARE, 1)
        && Replay.close(more, 2 * window, Replay.FRAMES_SHARE, 1);
  }

  /**
   * {@code m} with {@code t}'s releases (frames and bytes a release, releases a stream, frames a
   * read, gaps), its waits its own: a cell whose windows a release the ceiling chose ({@link
   * #decidesWindowsPerRelease}) is still held to when its frames left.
   */
  static CellEvidence releasingAs(CellEvidence m, CellEvidence t) {
    return m.with(
        b ->
            b.releaseFrames(t.releaseFrames())
                .releasesPerStream(t.releasesPerStream())
                .releaseBytesP10(t.releaseBytesP10())
                .releaseBytesP50(t.releaseBytesP50())
                .releaseBytesP90(t.releaseBytesP90())
                .framesPerRead(t.framesPerRead())
                .gapP10(t.gapP10())
                .gapP50(t.gapP50())
                .gapP90(t.gapP90()));
  }
}
