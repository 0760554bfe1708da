package flushlab.map;

import flushlab.netpath.NetworkPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A model held against the target it was read from: each cell the map measured on the target,
 * measured again on a built-in relay running the model, compared by its signature (drained or not,
 * frames per read, frames per release, the oldest frame's wait, the first frame's wait). A cell
 * agrees when each figure is within its tolerance: frames per read and per release within 25 % (or
 * half a frame, or one frame, or one read of a stream read in a few (two where both released alike:
 * the head, and a release that met the stream's end), or a release over one read's buffer read in
 * two: {@link CellSpreads#splitByTheReadBuffer}, or releases of sizes spread wide on both sides,
 * each median within the other's spread: {@link CellSpreads#releasesInEachOthersSpread}, or
 * releases over a segment read in parts on one side or both, the largest alike: {@link
 * CellSpreads#largestReleasesAlike}), the oldest frame's wait within 15 %, 5 ms or, for a model
 * with a stage that counts, one interval and 2 ms (a clock's period for a model of clocks and
 * holds: {@link WaitSlack#movesUpToMs}), whichever is widest (or, where both sides' waits spread
 * wider than that, each median within the other's spread: {@link CellSpreads#inEachOthersSpread},
 * or where the model has a clock, both within the waits its phase moves the cell's between: {@link
 * ClockPhases}), the first frame's within 15 %, 10 ms or one interval and 2 ms, and only where a
 * cell held frames. The floors are what two runs of one relay differ by on this 2-core machine,
 * with room, widened to twice the direct path's own spread where it strays more ({@link
 * Tolerance}). A model ending with Nagle is not held to the frames of each segment the client's
 * ACKs let out ({@link #heldForTheAck}), and a cell where Nagle engaged on one side only is
 * measured on the model once more, once ({@link #nagleEngagedOnOneOnly}).
 */
public final class Replay {
  static final double FRAMES_SHARE = 0.25;
  static final double WAIT_SHARE = 0.15;
  static final double WAIT_FLOOR_MS = 5;

  /**
   * The first frame is one sample a stream, on a fresh connection: a streamed 4 KiB cell's once
   * took 8.6 ms on a relay, 0.1 on its twin.
   */
  static final double FIRST_WAIT_FLOOR_MS = 10;

  private Replay() {}

  /**
   * How far a wait may differ and still agree: the fixed floors (what two runs of one relay differ
   * by on this 2-core machine, with room), widened where the direct path strays more. Each side's
   * wait is a measurement of its own on that path, so two may differ by twice what one frame's
   * delay strays there: its p99 less its p50, from the certification (a veth path or a cluster's
   * agents stray further than loopback, where it is a fraction of a millisecond).
   *
   * @param waitFloorMs the oldest frame's wait: the least difference that may disagree
   * @param firstWaitFloorMs the first frame's wait, likewise
   * @param directSpreadMs the direct path's p99 less p50 of emit->recv it was drawn from (0: not
   *     known)
   */
  public record Tolerance(double waitFloorMs, double firstWaitFloorMs, double directSpreadMs) {
    public static final Tolerance FIXED = new Tolerance(WAIT_FLOOR_MS, FIRST_WAIT_FLOOR_MS, 0);

    public static Tolerance fromDirectPath(double spreadMs) {
      double s = Math.max(0, spreadMs);
      return new Tolerance(Math.max(WAIT_FLOOR_MS, 2 * s), Math.max(FIRST_WAIT_FLOOR_MS, 2 * s), s);
    }

    /**
     * For a model ending with the client socket's Nagle: the first frame's wait may differ by a
     * delayed ACK ({@link #DELAYED_ACK_MIN_MS}). Nagle holds the first release while the response
     * head is unacknowledged, and whether the client's kernel acknowledged the head at once
     * (quick-ACK mode) or on its timer is its choice per connection: a suite run (s117) saw a
     * buffer then Nagle let the first 4 KiB frames go after 3.2 ms on the target and 23.7 on its
     * model.
     */
    public Tolerance forSocketStage() {
      return new Tolerance(
          waitFloorMs, Math.max(firstWaitFloorMs, DELAYED_ACK_MIN_MS), directSpreadMs);
    }

    /** Whether the direct path strayed more than the fixed floors allow. */
    public boolean widened() {
      return waitFloorMs > WAIT_FLOOR_MS || firstWaitFloorMs > FIRST_WAIT_FLOOR_MS;
    }

    /** "waits agree within 15 % or 7.2 ms (twice the direct path's spread, 3.6 ms), ...". */
    public String describe() {
      return String.format(
          "waits agree within %.0f %% or %.1f ms, the first frame's within %.1f ms (the direct path's emit->recv "
              + "p99 less p50: %.2f ms%s)",
          WAIT_SHARE * 100,
          waitFloorMs,
          firstWaitFloorMs,
          directSpreadMs,
          widened()
              ? ", twice which is over the fixed floors"
              : ", under the fixed floors of "
                  + (int) WAIT_FLOOR_MS
                  + " and "
                  + (int) FIRST_WAIT_FLOOR_MS
                  + " ms");
    }
  }

  /**
   * What differs between a cell measured to tell models apart ({@code t}) and {@code model}'s
   * replay of it ({@code m}), the model held to its own values: the floors, and the waits its
   * clock's phase gives the cell ({@link ClockPhases}), but not what a stage's value or a clock's
   * period might move a wait by ({@link WaitSlack}), which lets models apart on that cell agree
   * alike. Frames every 300 ms waited 300 ms through one-late then a 204 ms hold; a clock then a
   * hold, each 202.3 ms, let them go after 202 ms at every phase, within its period of the
   * target's, and both were named alike (a fresh-clone suite, 2026-12-06). Null when they agree.
   */
  public static String heldToItsValues(String model, CellEvidence t, CellEvidence m) {
    return difference(t, m, Tolerance.FIXED, ClockPhases.of(t, ChainStages.forPhases(model)), 0);
  }

  /**
   * As {@link #heldToItsValues}, and the frames a release carries counted exactly: a threshold's
   * releases carry a whole number of frames, the same in each after the first, so where one frame
   * more or fewer a release is all that parts two models (one threshold and two in series, {@link
   * ThresholdsInSeries}: 5 frames of 1717 B a release against 4 or 6), the quarter a replay allows
   * a release's frames would call them alike. Null when they agree.
   */
  public static String heldToItsFrames(String model, CellEvidence t, CellEvidence m) {
    String values = heldToItsValues(model, t, m);
    boolean sameFrames =
        !t.held() || !m.held() || Math.round(t.releaseFrames()) == Math.round(m.releaseFrames());
    if (sameFrames) return values;
    String frames =
        String.format(
            Locale.ROOT,
            "frames per release %.0f and %.0f, counted exactly",
            t.releaseFrames(),
            m.releaseFrames());
    return values == null ? frames : values + "; " + frames;
  }

  /** Compares each target cell with the model's replay of it, in order. */
  public static ReplayVerdict compare(
      String model, List<CellEvidence> target, List<CellEvidence> replayed) {
    return compare(model, target, replayed, false);
  }

  /**
   * As {@link #compare(String, List, List)}; {@code socketStage} when the model ends with the
   * client socket's Nagle: a cell the target released a segment at a time agrees when the model too
   * held it for the client's ACK ({@link #heldForTheAck}), however many frames each release
   * carried.
   */
  public static ReplayVerdict compare(
      String model, List<CellEvidence> target, List<CellEvidence> replayed, boolean socketStage) {
    return compare(model, target, replayed, socketStage, Tolerance.FIXED);
  }

  /** As {@link #compare(String, List, List, boolean)}, waits within {@code tolerance}. */
  public static ReplayVerdict compare(
      String model,
      List<CellEvidence> target,
      List<CellEvidence> replayed,
      boolean socketStage,
      Tolerance tolerance) {
    List<CellMatch> out = new ArrayList<>();
    PairSimulation.Stage[] stages = ChainStages.forPhases(model);
    boolean corked = CellSpreads.corks(model);
    double waitMovesUpToMs = WaitSlack.movesUpToMs(model);
    for (int i = 0; i < target.size() && i < replayed.size(); i++) {
      CellEvidence t = target.get(i);
      CellEvidence m = replayed.get(i);
      if (corked && CorkCeiling.decidesWindowsPerRelease(model, t, m))
        m = CorkCeiling.releasingAs(m, t);
      boolean bothForTheAck =
          socketStage
              && SocketStageFit.segmentAtATime(t, NetworkPath.LOOPBACK_MTU)
              && heldForTheAck(m);
      boolean bothPushed = corked && CellSpreads.bothPushedBySize(t, m);
      out.add(
          new CellMatch(
              t.label(),
              bothForTheAck || bothPushed
                  ? null
                  : difference(
                      t,
                      m,
                      socketStage ? tolerance.forSocketStage() : tolerance,
                      ClockPhases.of(t, stages),
                      waitMovesUpToMs)));
    }
    return new ReplayVerdict(model, List.copyOf(out));
  }

  /**
   * The longest a Linux receiver delays an ACK (TCP_DELACK_MAX, 200 ms): Nagle holds a write no
   * longer, as the ACK of what went before releases it.
   */
  static final double DELAYED_ACK_MAX_MS = 200;

  /** The shortest a Linux receiver delays an ACK on its timer (TCP_DELACK_MIN, 40 ms). */
  static final double DELAYED_ACK_MIN_MS = 40;

  /**
   * A cell Nagle held: several frames a release, no release over one segment (and the frame that
   * tipped it), the oldest frame waiting no longer than a delayed ACK. How many frames a release
   * carries is then the client's kernel's choice (when it acknowledges: on its delayed-ACK timer,
   * or at once when the reader frees enough of its window), not the target's: beside a second
   * suite, stock Nagle after a 4.8 kB buffer released 4 KiB frames 15 at a time on the target's
   * relay and 8 at a time on its model's, which the same stage on two runs does.
   */
  static boolean heldForTheAck(CellEvidence c) {
    return c.held()
        && !c.drained()
        && c.releaseFrames() >= 2
        && c.releaseBytesP90() <= NetworkPath.LOOPBACK_MTU + c.frameBytes()
        && c.waitP50() <= DELAYED_ACK_MAX_MS + c.intervalMs();
  }

  /**
   * The target and the model differ in this cell only by whether the client socket's Nagle held
   * anything: one released it a segment at a time for the client's ACKs, the other streamed it.
   * Whether Nagle engages on a connection is the client's kernel's choice, made as its first
   * segments arrive (it acknowledges at once in quick-ACK mode and when its reader frees window,
   * and delays otherwise), so two runs of one relay can fall either side: a suite run on 2026-12-03
   * saw a 3240 B buffer then Nagle release 4 KiB frames 16 at a time, 32 ms apart, on the target,
   * and stream them (1.82 frames per read) on its model.
   */
  public static boolean nagleEngagedOnOneOnly(CellEvidence target, CellEvidence model) {
    if (target.drained() || model.drained()) return false;
    return SocketStageFit.segmentAtATime(target, NetworkPath.LOOPBACK_MTU) && !model.held()
        || !target.held() && heldForTheAck(model);
  }

  /**
   * A think cell's difference: only whether what was sent before the first frame came before it, on
   * each side.
   */
  static String thinkDifference(CellEvidence t, CellEvidence m) {
    Boolean onTarget = FirstContentFit.nothingBeforeTheFirstFrame(t);
    Boolean onModel = FirstContentFit.nothingBeforeTheFirstFrame(m);
    if (onTarget == null || onModel == null)
      return onTarget == onModel
          ? null
          : "the think cell said nothing on the "
              + (onTarget == null ? "target" : "model")
              + " (no first body byte or frame seen)";
    if (onTarget.equals(onModel)) return null;
    return onTarget
        ? "through the think nothing came before the first frame on the target; the comments did on the model"
        : "through the think the comments came before the first frame on the target; nothing did on the model";
  }

  /**
   * A stream released once, with its last frame or the one before it (at most one and a half
   * intervals, and 5 % of the stream, before its end): beside one held to its end, a frame's bytes
   * of a threshold apart, not a mechanism. `byte-threshold=3966B -> compress=gzip,flush=next` let
   * 120 events of 60 B every 10 ms go once at 1180.5 ms, its threshold's second release at the
   * 119th, and the model of 3993 B, the middle of the 3960..4026 B the plain cells allowed, at the
   * 120th, with the end: refused (a fresh-clone suite, 2026-12-07).
   */
  static boolean releasedAtTheEnd(CellEvidence c) {
    double before = c.streamMs() - c.firstWaitMs();
    return c.heldOnce()
        && before <= AT_THE_END_INTERVALS * c.intervalMs()
        && before <= AT_THE_END_SHARE * c.streamMs();
  }

  private static final double AT_THE_END_INTERVALS = 1.5;

  private static final double AT_THE_END_SHARE = 0.05;

  /**
   * What differs between a cell on the target ({@code t}) and on the model ({@code m}), or null.
   */
  static String difference(CellEvidence t, CellEvidence m) {
    return difference(t, m, Tolerance.FIXED, null, Double.POSITIVE_INFINITY);
  }

  /**
   * As {@link #difference(CellEvidence, CellEvidence)}, waits within {@code tolerance}, and within
   * where the model's clock's phase moves them ({@code phases}, null for a model without one); the
   * oldest frame's wait also within what a stage may move it by ({@code waitMovesUpToMs}, at most
   * an interval: {@link WaitSlack#movesUpToMs}).
   */
  static String difference(
      CellEvidence t,
      CellEvidence m,
      Tolerance tolerance,
      ClockPhases phases,
      double waitMovesUpToMs) {
    // a think cell answers one question, whether anything came before the first frame; its few
    // frames after the think
    // meet a timer at whatever phase its cycles through the comments reached (s11: a 89.4 ms
    // timer's cycle ended 1 ms
    // before the stream on the model and 1 ms after it on the target, one side "held to its end"
    // and the other not)
    if (t.thinks()) return thinkDifference(t, m);
    if (t.drained() != m.drained()) {
      if (releasedAtTheEnd(t.drained() ? m : t)) return null;
      return t.drained()
          ? "the target held every stream to its end, the model did not"
          : "the model held every stream to its end, the target did not";
    }
    if (t.drained()) return null;
    List<String> d = new ArrayList<>();
    // a stream read in a few reads: one read more or less is where a release's split fell (the
    // response head apart, or not), not the mechanism, and moves frames per read by half: 120
    // frames
    // behind a 4 KiB buffer came in 3 reads on the target and 2 on its model (40 and 60 frames per
    // read)
    // (reads a stream are frames over frames per read, which a batch gives to a thousandth, so
    // not back whole: 200 frames at 66.667 a read are 2.99998 reads, a read and a hair from 4,
    // and a clock then one-late's right model was refused for it: a suite run, 2026-12-06)
    // and a release that meets the stream's end leaves with it or just before it, one read more
    // again where both sides released alike (a 98 ms hold then one-late, 200 frames every 2 ms: its
    // fourth release fell on the last frame, 5 reads on the target, 3 on the right model: a
    // fresh-clone suite, 2026-12-06)
    boolean releasedAlike =
        t.held() && m.held() && close(t.releaseFrames(), m.releaseFrames(), FRAMES_SHARE, 1);
    boolean fewReadsApart =
        Math.abs(readsPerStream(t) - readsPerStream(m)) <= (releasedAlike ? 2 : 1) + READS_EPSILON;
    if (!fewReadsApart
        && !CellSpreads.splitByTheReadBuffer(t, m)
        && !close(t.framesPerRead(), m.framesPerRead(), FRAMES_SHARE, 0.5)) {
      d.add(
          String.format(
              "frames per read %.2f on the target, %.2f on the model",
              t.framesPerRead(), m.framesPerRead()));
    }
    if (t.held()
        && m.held()
        && !close(t.releaseFrames(), m.releaseFrames(), FRAMES_SHARE, 1)
        && !CellSpreads.releasesInEachOthersSpread(t, m)
        && !CellSpreads.largestReleasesAlike(t, m)) {
      d.add(
          String.format("frames per release %.0f and %.0f", t.releaseFrames(), m.releaseFrames()));
    }
    // held once (one release, then the end) is held: which of the two a stream shows is again where
    // a read fell
    if (holds(t) != holds(m))
      d.add(
          holds(t)
              ? "the target held frames, the model streamed them"
              : "the model held frames, the target streamed them");
    // a value anywhere in the span the map located (a threshold to within 5 %) can move a release
    // by one frame, and its waits by one interval: 5313 B against a hidden threshold that 5 frames
    // of 1031 B and a 150 B preamble reached, the first frame waited 100.3 ms on the model, 80.1 on
    // the target (one interval, and 2 ms for the timing either side)
    double oneFrame = t.intervalMs() + 2;
    double moved = waitMovesUpToMs > 0 ? Math.min(t.intervalMs(), waitMovesUpToMs) + 2 : 0;
    double waitFloor = Math.max(tolerance.waitFloorMs(), moved);
    if (t.held()
        && m.held()
        && !close(t.waitP50(), m.waitP50(), WAIT_SHARE, waitFloor)
        && !CellSpreads.inEachOthersSpread(t, m, waitFloor)
        && !(phases != null
            && phases.holds(t.waitP50(), waitFloor)
            && phases.holds(m.waitP50(), waitFloor))) {
      d.add(String.format("oldest frame's wait %.1f and %.1f ms", t.waitP50(), m.waitP50()));
    }
    // one sample per stream, on a fresh connection: compared where something held it, not in a cell
    // that streamed
    if ((t.held() || m.held())
        && !close(
            t.firstWaitMs(),
            m.firstWaitMs(),
            WAIT_SHARE,
            Math.max(tolerance.firstWaitFloorMs(), oneFrame))
        && !CellSpreads.firstWaitsInEachOthersSpread(t, m, waitFloor)) {
      d.add(String.format("first frame's wait %.1f and %.1f ms", t.firstWaitMs(), m.firstWaitMs()));
    }
    return d.isEmpty() ? null : String.join("; ", d);
  }

  private static boolean holds(CellEvidence c) {
    return c.held() || c.heldOnce();
  }

  /**
   * Far less than a read, more than frames per read rounded to a thousandth leave off the reads of
   * a stream read in a few ({@link flushlab.client.BatchResult#framesPerRead}).
   */
  private static final double READS_EPSILON = 0.01;

  private static double readsPerStream(CellEvidence c) {
    return c.framesPerRead() > 0 ? c.framesPerStream() / c.framesPerRead() : 0;
  }

  /** Whether a and b lie within {@code share} of the larger, or {@code floor}, of each other. */
  static boolean close(double a, double b, double share, double floor) {
    return Math.abs(a - b) <= Math.max(floor, share * Math.max(Math.abs(a), Math.abs(b)));
  }
}
