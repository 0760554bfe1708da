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

  /**
   * The pair's simulation of {@code c}: at the nominal ceiling, or, where that does not match the
   * cell and one of the stages is the cork, at the first other ceiling that does ({@link
   * #atAnother}). A compressor writing about as often as the ceiling (`compress=gzip,flush=bytes,
   * bytes=2873B -> cork` as a browser: an output each 101 frames of 60 B every 2 ms, 202 ms apart)
   * had its outputs let go one or two at a time as each connection's ceiling fell, 106 frames a
   * release or 205 in one cell, and the nominal ceiling's two refused every count: no candidate (a
   * chain bench, 2026-12-07).
   */
  static Simulated asMeasured(CellEvidence c, Stage first, Stage second) {
    Simulated nominal = PairSimulation.simulate(c, first, second);
    if (SimulatedCell.matches(c, nominal)) return nominal;
    Simulated other = atAnother(c, first, second);
    return other == null ? nominal : other;
  }

  /** How far past the ceilings a connection showed a stage's timer still meets them. */
  private static final double WINDOW_SLACK_MS = 5;

  /**
   * Whether {@code model} is a hold, a clock or a compressor whose writes come as far apart as the
   * ceilings a connection shows, then the cork, and one side's releases of {@code t} (the target)
   * and {@code m} (the model) carried one of its windows' frames, the other two: whether its second
   * write meets a socket still corked is the connection's ceiling's choice, made per connection,
   * not the model's. `cork -> timer=213ms` released 60 B frames every 2 ms 107 at a time on one
   * map's target and 214 on the next one's, whose model, a hold of 222.2 ms, released 112
   * (`flushlab map`, 2026-12-07).
   */
  static boolean decidesWindowsPerRelease(String model, CellEvidence t, CellEvidence m) {
    Stage[] stages = ChainStages.of(model);
    if (stages == null || stages[1].kind() != Kind.CORK) return false;
    Kind k = stages[0].kind();
    boolean timed = k == Kind.HOLD || k == Kind.PERIODIC || k == Kind.FLUSH_TIMER;
    boolean counted = k == Kind.FLUSH_OUTPUT || k == Kind.FLUSH_INPUT;
    if (!timed && !counted) return false;
    if (!t.held() || !m.held() || t.drained() || m.drained()) return false;
    double fewer = Math.min(t.releaseFrames(), m.releaseFrames());
    double more = Math.max(t.releaseFrames(), m.releaseFrames());
    // a compressor's count writes an output each so many frames: its window is one output, the
    // fewer side's frames, as long in time as the ceiling (`compress=gzip,flush=bytes,bytes=2873B
    // -> cork` as a browser wrote 60 B frames every 2 ms 101 at a time, 202 ms apart, which the
    // target's cork let go two at a time and its model's one: a chain bench, 2026-12-07)
    double windowMs = timed ? stages[0].value() : fewer * t.intervalMs();
    if (windowMs < OTHERS_MS[0] - WINDOW_SLACK_MS
        || windowMs > OTHERS_MS[OTHERS_MS.length - 1] + WINDOW_SLACK_MS) return false;
    double window = windowMs / Math.max(1e-9, t.intervalMs());
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
