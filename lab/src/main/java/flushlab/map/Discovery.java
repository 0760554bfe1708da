package flushlab.map;

import java.util.ArrayList;
import java.util.List;

/**
 * Which cells tell the mechanisms apart, and which locate a value. Three discovery cells, each a
 * stream of about 1.2 s: small frames at a short interval (a byte threshold and a timer both
 * coalesce them), large frames at the same interval (a byte threshold lets each leave alone, a
 * timer still holds them, a cork sends its full segments), and small frames at a long interval (a
 * hold timer waits the same, a byte threshold or an event count waits many intervals, a periodic
 * clock spreads the waits).
 */
final class Discovery {
  static final long SMALL = 60;
  static final long LARGE = 4096;
  static final long SHORT_NANOS = 2_000_000L;
  static final long LONG_NANOS = 50_000_000L;

  private Discovery() {}

  static List<CellPlan> cells() {
    return List.of(
        new CellPlan(SMALL, SHORT_NANOS, 600),
        new CellPlan(LARGE, SHORT_NANOS, 600),
        new CellPlan(SMALL, LONG_NANOS, 25));
  }

  /**
   * For the chat endpoint, whose events are sized by their JSON: only the interval can vary, so a
   * byte threshold and an event count cannot be told apart (the map says so), and a threshold is
   * located only to within one event.
   */
  /**
   * After cells that all streamed: 5 small frames after a 400 ms think with SSE comments every 50
   * ms. A target that passes what comes before the first frame shows the first comment ~50 ms in;
   * one that holds until the first content shows nothing until the first frame (0.45 s).
   */
  static CellPlan thinkCell() {
    return new CellPlan(SMALL, 10_000_000L, 5, 400_000_000L, 50_000_000L);
  }

  /** The longest think the map asks for, to tell a stage's own holding from first-content's. */
  static final long LONGEST_THINK_NANOS = 2_000_000_000L;

  /**
   * The think cell, with a think long enough for a timer of {@code timerMs} to let its first
   * comment go well before the think ends ({@link MapProber#thinkCellFor}); null past the longest.
   */
  static CellPlan thinkCellOutlasting(double timerMs) {
    long think = Math.max(400_000_000L, Math.round(1.5 * (timerMs + 50) * 1e6));
    return think > LONGEST_THINK_NANOS
        ? null
        : new CellPlan(SMALL, 10_000_000L, 5, think, 50_000_000L);
  }

  /**
   * Body bytes of one SSE comment keep-alive (": keep-alive" and its blank line), before any
   * framing.
   */
  static final double COMMENT_BYTES = 14;

  /**
   * The think cell for a byte threshold of {@code thresholdBytes}: comments every millisecond, for
   * long enough that they pass the threshold well before the think ends (a threshold alone lets
   * them go then; first-content holds them until the first frame); null for a threshold the longest
   * think's comments do not pass with room.
   */
  static CellPlan thinkCellPassing(double thresholdBytes) {
    double passedMs = thresholdBytes / COMMENT_BYTES;
    long think = Math.max(400_000_000L, Math.round((1.5 * passedMs + 100) * 1e6));
    return think > LONGEST_THINK_NANOS
        ? null
        : new CellPlan(SMALL, 10_000_000L, 5, think, 1_000_000L);
  }

  static List<CellPlan> chatCells() {
    return List.of(
        new CellPlan(0, SHORT_NANOS, 600),
        new CellPlan(0, LONG_NANOS, 25),
        new CellPlan(0, 10_000_000L, 120));
  }

  static List<CellPlan> chatLonger() {
    return List.of(new CellPlan(0, SHORT_NANOS, 1800));
  }

  static List<String> plan() {
    return cells().stream().map(CellPlan::toString).toList();
  }

  /**
   * For a trigger none of the three reached: the small frames three times longer (3.6 s). The
   * large-frame cell already sent 2.4 MB, so a larger byte threshold would hold a whole response
   * anyway; this one tells a drain from a timer or an event count beyond the first stream.
   */
  static List<CellPlan> longer() {
    return List.of(new CellPlan(SMALL, SHORT_NANOS, 1800));
  }

  /**
   * The longer stream in large frames: a timer releases it after the same wait as small ones, a
   * stage that counts bytes (a buffer, a compressor's own blocks) after another.
   */
  static CellPlan longerLarge() {
    return new CellPlan(LARGE, SHORT_NANOS, 1800);
  }

  /**
   * Cells that vary what the measured ones held fixed: another frame size, another interval, longer
   * streams.
   */
  static List<CellPlan> separatingPlans(List<CellEvidence> measured) {
    List<CellPlan> next = new ArrayList<>();
    boolean oneSize =
        measured.stream().mapToDouble(CellEvidence::frameBytes).distinct().count() < 2;
    boolean oneInterval =
        measured.stream().mapToDouble(CellEvidence::intervalMs).distinct().count() < 2;
    if (oneSize) next.add(new CellPlan(LARGE, SHORT_NANOS, 600));
    if (oneInterval) next.add(new CellPlan(SMALL, LONG_NANOS, 25));
    if (!oneSize && !oneInterval) {
      next.add(new CellPlan(SMALL, 10_000_000L, 120));
      next.add(new CellPlan(1024, 20_000_000L, 60));
    }
    if (measured.stream().anyMatch(CellEvidence::drained)) next.addAll(longer());
    for (CellEvidence c : measured) {
      CellPlan longer = longerThanOneRelease(c);
      if (longer != null) next.add(longer);
    }
    next.removeIf(p -> measured.stream().anyMatch(c -> covers(c, p)));
    return next;
  }

  /** The longest stream a cell is made longer to: as long as {@link #longer}'s. */
  static final double LONGEST_MS = 3600;

  /**
   * A cell released once before its end shows one release, and no gap to time it by: the same cell
   * three times longer (at most {@link #LONGEST_MS}) shows the next ones (a 3398 B buffer then the
   * kernel's cork released 60 B frames every 10 ms once in 120 frames, and no model could be
   * fitted). Null for any other cell, or one already that long.
   */
  static CellPlan longerThanOneRelease(CellEvidence c) {
    if (!c.heldOnce() || c.thinks() || c.intervalMs() <= 0 || c.bodyBytes() <= 0) return null;
    int frames =
        (int)
            Math.min(3L * c.framesPerStream(), (long) Math.floor(LONGEST_MS / c.intervalMs()) + 1);
    return frames > c.framesPerStream()
        ? new CellPlan(Math.round(c.bodyBytes()), Math.round(c.intervalMs() * 1e6), frames)
        : null;
  }

  /**
   * A measured cell already answers this plan: same frame size (any, for chat) and interval, at
   * least as many frames.
   */
  static boolean covers(CellEvidence c, CellPlan p) {
    return (p.frameSizeBytes() == 0 || Math.round(c.bodyBytes()) == p.frameSizeBytes())
        && Math.abs(c.intervalMs() - p.intervalNanos() / 1e6) < 1e-6
        && c.framesPerStream() >= p.frames();
  }

  static List<String> separating(List<CellEvidence> measured) {
    return separatingPlans(measured).stream().map(CellPlan::toString).toList();
  }

  /**
   * Small frames at an interval of 2/5 of the period: a periodic clock then meets the frames half
   * an interval later at each tick, so the oldest frame's wait alternates by I / 2, and releases
   * stay P apart; a hold timer keeps its wait and releases a whole number of intervals apart.
   */
  static CellPlan phaseProbe(double periodMs) {
    long intervalMs = Math.max(4, Math.round(periodMs / 2.5));
    int frames = (int) Math.min(200, Math.ceil(6 * periodMs / intervalMs) + 1);
    return new CellPlan(SMALL, intervalMs * 1_000_000L, frames);
  }

  /**
   * A frame of wire size f leaves alone when f >= N, and waits for another when f < N: one such
   * cell halves (lo, hi]. The frame size asked for is the wire size less the chunk framing.
   */
  static CellPlan bytesProbe(double lo, double hi) {
    double f = Math.sqrt(Math.max(lo, 1) * hi);
    long size = Math.max(48, Math.round(f) - chunkFraming(Math.round(f)));
    return new CellPlan(size, SHORT_NANOS, 24);
  }

  static String locateBytes(double lo, double hi) {
    return bytesProbe(lo, hi) + " (and halving from there until the threshold is within 5 %)";
  }

  /** Bytes of chunk framing around an event of about this size: hex length, CRLF, CRLF. */
  static long chunkFraming(long eventBytes) {
    return Long.toHexString(eventBytes).length() + 4;
  }
}
