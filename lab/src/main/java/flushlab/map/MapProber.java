package flushlab.map;

import flushlab.netpath.NetworkPath;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * `flushlab map`'s strategy: measure the three discovery cells, infer; if nothing was released
 * before the end, measure them three times longer; if the answer is inconclusive, measure the cells
 * it asks for; once a mechanism is known, halve its byte threshold's range until it is within 5 %
 * (a timer is read directly from the oldest frame's wait and needs no bisection). Every cell fits
 * the budget or is not started. The inference is the one scenarios use.
 */
public final class MapProber {
  /**
   * Measures one cell of the target; null when the map must stop (interrupted, or the target failed
   * every stream).
   */
  public interface CellProbe {
    CellEvidence measure(CellPlan plan) throws Exception;

    /**
     * This host's longest stall while {@code plan} was measured, described, where it was long
     * enough to move the cell's releases past what one mechanism allows; null when there was none
     * (or the probe does not know).
     */
    default String hostStalledIn(CellPlan plan) {
      return null;
    }

    /**
     * {@code plan}, measured before through this host's stall, measured once more once this host is
     * quiet, its stalled runs set aside for {@code why}; null when the map must stop.
     */
    default CellEvidence measureAgain(CellPlan plan, String why) throws Exception {
      return null;
    }
  }

  /** Seconds a cell costs beyond its stream: connecting, the guard, the inference. */
  static final double CELL_OVERHEAD_S = 0.3;

  static final double LOCATED_WIDTH = 0.05;

  private final String target;
  private final CellProbe probe;
  private final long deadlineNanos;
  private final Consumer<String> progress;
  private final boolean chat;
  private final boolean eventStream;
  private final List<CellEvidence> cells = new ArrayList<>();

  /** The plan each of {@link #cells} was measured for, in the same order. */
  private final List<CellPlan> cellPlans = new ArrayList<>();

  private final Set<String> measured = new HashSet<>();
  private boolean stopped;

  /**
   * @param chat the target is measured with OpenAI chat streams (the event size is not the map's to
   *     choose)
   * @param eventStream the responses are SSE streams (the think cell's comments mean something only
   *     in one)
   */
  public MapProber(
      String target,
      NetworkPath path,
      boolean chat,
      boolean eventStream,
      CellProbe probe,
      double budgetSeconds,
      Consumer<String> progress) {
    this.path = path;
    this.chat = chat;
    this.eventStream = eventStream;
    this.target = target;
    this.probe = probe;
    this.deadlineNanos = System.nanoTime() + (long) (budgetSeconds * 1e9);
    this.progress = progress;
  }

  private final NetworkPath path;

  public List<CellEvidence> cells() {
    return cells;
  }

  public boolean stopped() {
    return stopped;
  }

  public FlushTrigger run() throws Exception {
    boolean discovered = measureAll(chat ? Discovery.chatCells() : Discovery.cells());
    FlushTrigger t = TriggerInference.infer(target, cells, path);
    if (!discovered && stopped) return t;
    if (t.kind() == TriggerKind.DRAIN
        || cells.stream().allMatch(c -> c.drained() || c.streamed())
            && t.kind() != TriggerKind.NONE) {
      if (measureAll(chat ? Discovery.chatLonger() : Discovery.longer()))
        t = TriggerInference.infer(target, cells, path);
    }
    // a timer read off one release of one cell is not yet a timer (issue 35: too few releases
    // means measuring more, not guessing): the same long stream in large frames says whether the
    // wait follows time or bytes (a compressor's own blocks behind a 293 ms hold released a
    // browser's
    // long stream once, at 3225 ms, and were read as a hold of that length: a chain bench,
    // 2026-12-05)
    if (!chat && !stopped && timerOfOneRelease(t, cells)) {
      if (measuredNow(Discovery.longerLarge())) t = TriggerInference.infer(target, cells, path);
    }
    // a threshold of whole segments beside a timer may be the kernel's cork behind a faster hold:
    // a cell that fills one segment in a third of the timer parts the two
    CellPlan segments =
        chat || stopped || t.kind() != TriggerKind.THRESHOLD_OR_TIMER
            ? null
            : segmentsTelling(t, located(t), path);
    if (measuredNow(segments)) t = TriggerInference.infer(target, cells, path);
    for (int round = 0;
        round < 3 && !chat && t.kind() == TriggerKind.INCONCLUSIVE && !stopped;
        round++) {
      List<CellPlan> next =
          TriggerInference.nextPlans(cells).stream()
              .filter(p -> !measured.contains(p.toString()))
              .toList();
      if (next.isEmpty() || !measureAll(next)) break;
      t = TriggerInference.infer(target, cells, path);
    }
    if (t.kind() == TriggerKind.INCONCLUSIVE && !stopped) t = stalledCellAgain(t);
    // everything streamed, or a stage that lets what it holds go on its own clock soon enough: does
    // anything reach the
    // client before the first frame, through a think? (first-content alone, or after such a stage)
    boolean compressed = cells.stream().anyMatch(CellEvidence::compressed);
    CellPlan think =
        t.kind() == TriggerKind.NONE || readsAsNagleAlone(t, cells, path)
            ? Discovery.thinkCell()
            : compressed ? null : thinkCellFor(t);
    if (!chat && eventStream && !stopped && think != null && measureAll(List.of(think))) {
      t = TriggerInference.infer(target, cells, path);
    }
    // frames over a threshold, far apart: a threshold alone lets each go at once, so a stage in
    // front of it that holds each write shows here and nowhere else
    CellPlan over = chat || stopped || compressed ? null : overTheThreshold(t);
    if (measuredNow(over)) t = TriggerInference.infer(target, cells, path);
    // halving works by choosing a frame's wire size; a compressing target's output per frame is not
    // the map's to choose; a cork's bytes on loopback are its 64 KiB segment, which the model does
    // not carry, and frames at that edge part a cork from its model by scheduling alone (stock
    // HAProxy under a suite's load released 63571 B frames two at a time, the cork relay one, and
    // the right model was refused: a fresh-clone suite, 2026-12-05); on another path the segment
    // located is the path's finding
    while (!stopped
        && !chat
        && !compressed
        && !(t.kind() == TriggerKind.CORK && path.equals(NetworkPath.LOOPBACK))
        && t.thresholdBytes() != null
        && !t.next().isEmpty()) {
      Span n = located(t);
      if (n == null || n.width() <= LOCATED_WIDTH) break;
      CellPlan p = Discovery.bytesProbe(n.lo(), n.hi());
      if (measured.contains(p.toString()) || !measureAll(List.of(p))) break;
      t = TriggerInference.infer(target, cells, path);
    }
    return t;
  }

  /**
   * A hold or a clock whose only evidence is one release in one cell: every other cell held its
   * streams to their ends (or had nothing held).
   */
  static boolean timerOfOneRelease(FlushTrigger t, List<CellEvidence> cells) {
    if (t.kind() != TriggerKind.TIMER && t.kind() != TriggerKind.PERIODIC_TIMER) return false;
    List<CellEvidence> released =
        cells.stream()
            .filter(c -> !c.thinks() && !c.drained() && (c.releasesPerStream() > 0 || c.heldOnce()))
            .toList();
    return released.size() == 1 && released.get(0).heldOnce();
  }

  /** The fewest whole segments a threshold of a cork's releases is read as. */
  static final int SEGMENTS_AT_LEAST = 2;

  /** And the most: past four, a threshold is any number of segments' worth. */
  static final int SEGMENTS_AT_MOST = 4;

  /** How far from whole segments a threshold of a cork's releases is read. */
  static final double SEGMENT_SLACK = 0.1;

  /**
   * The cell that tells a threshold-or-timer from the kernel's cork behind a hold that writes more
   * often than the cork's ceiling, or null when {@code t} is no such threshold-or-timer: the cork
   * sends each full segment at once and holds the tail, so where the hold's writes add up to more
   * than a segment its releases are whole segments, and read as a threshold of two or three of them
   * (`timer=52ms -> cork` was answered `threshold-or-timer,bytes=129276B,after=261.3ms`, verified
   * on the four cells it measured: a chain bench, 2026-12-05). Frames that fill one segment in a
   * third of the timer part them: a threshold of k segments releases k at once, two thirds of the
   * timer in; the cork one, at the hold's next write.
   */
  static CellPlan segmentsTelling(FlushTrigger t, Span bytes, NetworkPath path) {
    if (t.kind() != TriggerKind.THRESHOLD_OR_TIMER || t.timerMs() == null || bytes == null)
      return null;
    // the cork is modelled on loopback only, whose segments the pair simulation knows
    if (!path.equals(NetworkPath.LOOPBACK)) return null;
    int mss = path.mss();
    boolean wholeSegments = false;
    // the cork's releases are read as a range near k segments, not always around it: the tail
    // the cork held joins some (123120..127224 B for two segments of 65483)
    for (int k = SEGMENTS_AT_LEAST; k <= SEGMENTS_AT_MOST; k++)
      wholeSegments |=
          bytes.lo() <= (1 + SEGMENT_SLACK) * k * mss
              && (1 - SEGMENT_SLACK) * k * mss <= bytes.hi();
    if (!wholeSegments) return null;
    double intervalMs = Discovery.SHORT_NANOS / 1e6;
    long size = (long) Math.ceil(mss * intervalMs * 3 / t.timerMs() / 256) * 256;
    if (size >= mss) return null;
    int frames = (int) Math.max(600, Math.ceil(4 * t.timerMs() / intervalMs));
    return new CellPlan(Math.max(Discovery.SMALL, size), Discovery.SHORT_NANOS, frames);
  }

  /** The largest threshold {@link #overTheThreshold} sends frames over: a frame of 48 KiB. */
  static final double OVER_AT_MOST = 48 * 1024;

  /**
   * Frames larger than a byte threshold, 50 ms apart, or null when {@code t} is no threshold (or
   * one too large to send frames over): the threshold alone lets each go as it comes, so each
   * frame's wait is what a stage in front of it holds a write (`one-late -> byte-threshold=2565B`
   * was answered `byte-threshold=2541B`, verified on cells where one-late held each frame 2 ms, or
   * held streams whole to their end either way: a chain bench, 2026-12-05).
   */
  static CellPlan overTheThreshold(FlushTrigger t) {
    if (t.kind() != TriggerKind.BYTE_THRESHOLD || t.thresholdBytes() == null) return null;
    double n = t.thresholdBytes();
    if (n > OVER_AT_MOST) return null;
    return new CellPlan(sizeOver(n), Discovery.LONG_NANOS, 25);
  }

  /**
   * A frame a quarter over a byte threshold of {@code bytes}, in whole KiB and no smaller than the
   * discovery cells' large frame: a threshold lets each such frame go as it comes.
   */
  static long sizeOver(double bytes) {
    return Math.max(Discovery.LARGE, (long) Math.ceil(bytes * 1.25 / 1024) * 1024);
  }

  /**
   * Cells no one mechanism explains that read as Nagle alone (every frame at once but where writes
   * came faster than the peer acknowledges): Nagle lets a think's first comment go at once, so the
   * think cell tells whether first-content holds in front of it (`first-content=any -> nagle` was
   * answered `nagle`, its think never measured: a chain bench, 2026-12-05).
   */
  static boolean readsAsNagleAlone(FlushTrigger t, List<CellEvidence> cells, NetworkPath path) {
    return t.kind() == TriggerKind.INCONCLUSIVE
        && SocketStageFit.candidates(t.target(), cells, path).stream()
            .anyMatch(c -> c.answer().kind() == TriggerKind.NAGLE);
  }

  /**
   * Whether the think cell tells {@code t} alone from {@code t} then first-content: a hold or
   * periodic timer, a cork or a threshold-or-timer (the think's few comments never reach a
   * threshold), or one-late, lets the think's first comments go long before the think ends (a timer
   * over ~270 ms would hold them through most of its 400 ms anyway).
   */
  static boolean thinkCellCanTell(FlushTrigger t) {
    CellPlan think = Discovery.thinkCell();
    double couldTellMs = 0.8 * think.thinkNanos() / 1e6 - think.keepAliveNanos() / 1e6;
    return switch (t.kind()) {
      case ONE_LATE -> true;
      case TIMER, PERIODIC_TIMER, CORK, THRESHOLD_OR_TIMER ->
          t.timerMs() != null && t.timerMs() < couldTellMs;
      default -> false;
    };
  }

  /**
   * The think cell that tells {@code t} alone from {@code t} with first-content, or null when none
   * does within the longest think: the 400 ms one for a stage that lets the think's first comments
   * go early enough ({@link #thinkCellCanTell}); a longer think for a longer timer; comments every
   * millisecond for a byte threshold, which they pass before the think ends (first-content alone in
   * front of a 4193 B threshold was answered as the threshold: its few comments never reached it).
   */
  static CellPlan thinkCellFor(FlushTrigger t) {
    if (thinkCellCanTell(t)) return Discovery.thinkCell();
    return switch (t.kind()) {
      case TIMER, PERIODIC_TIMER, CORK, THRESHOLD_OR_TIMER ->
          t.timerMs() == null ? null : Discovery.thinkCellOutlasting(t.timerMs());
      case BYTE_THRESHOLD ->
          t.thresholdBytes() == null ? null : Discovery.thinkCellPassing(t.thresholdBytes());
      default -> null;
    };
  }

  /**
   * The byte threshold's current range, from the same fit the inference made: on the cells it
   * fitted, without the think cell (whose stream, held whole by a timer's first-content check, is
   * no threshold's evidence: a threshold-or-timer of 3685 B and 73 ms went unlocated at 2376..4104
   * B).
   */
  private Span located(FlushTrigger t) {
    List<CellEvidence> fitted = cells.stream().filter(c -> !c.thinks()).toList();
    if (t.kind() == TriggerKind.BYTE_THRESHOLD)
      return ByteThresholdFit.fit(fitted, new ArrayList<>());
    ThresholdOrTimerFit.BothFit fit =
        t.timerMs() == null ? null : ThresholdOrTimerFit.fit(fitted, path);
    return fit == null ? null : fit.bytes();
  }

  /**
   * {@code t}, inconclusive, once more where one cell alone keeps one mechanism from explaining
   * every cell and this host stalled while that cell was measured: the cell measured again once
   * this host is quiet, its stalled runs set aside, and the cells inferred anew. A stall moves a
   * release as a mechanism would: under a suite's load a periodic timer of 151 ms released one 50
   * ms cell's first frame after 165.5 ms and its gaps spread 144.0 to 159.6 ms, past what a clock
   * allows, and a clock behind a 22.5 ms hold was given (a fresh-clone suite, s289); without that
   * cell the others read as the clock. At most one cell is measured again; a cell that differs
   * again stands, measured as it now is. With no stall of this host in it, nothing is measured
   * again: a target's own outlier is its answer.
   */
  private FlushTrigger stalledCellAgain(FlushTrigger t) throws Exception {
    for (int i = 0; i < cells.size(); i++) {
      String stall = probe.hostStalledIn(cellPlans.get(i));
      if (stall == null) continue;
      List<CellEvidence> others = new ArrayList<>(cells);
      others.remove(i);
      FlushTrigger without = TriggerInference.infer(target, others, path);
      if (without.kind() == TriggerKind.INCONCLUSIVE) continue;
      CellPlan p = cellPlans.get(i);
      double left = (deadlineNanos - System.nanoTime()) / 1e9;
      if (p.streamMs() / 1000 + CELL_OVERHEAD_S > left) return t;
      String why =
          "no one mechanism explains every cell; without "
              + p
              + ", measured while this host stalled ("
              + stall
              + "), the rest read as "
              + without.kind().text();
      progress.accept("map: " + why + ": " + p + " measured again");
      CellEvidence e = probe.measureAgain(p, why);
      if (e == null) {
        stopped = true;
        return t;
      }
      cells.set(i, e);
      progress.accept(e.describe());
      return TriggerInference.infer(target, cells, path);
    }
    return t;
  }

  /** Measures {@code plan} (if any) unless it was measured already; whether it was now. */
  private boolean measuredNow(CellPlan plan) throws Exception {
    return plan != null && !measured.contains(plan.toString()) && measureAll(List.of(plan));
  }

  /**
   * Measures each plan that fits the budget; false when one did not fit, or the probe stopped the
   * map.
   */
  private boolean measureAll(List<CellPlan> plans) throws Exception {
    if (stopped) return false;
    for (CellPlan p : plans) {
      double left = (deadlineNanos - System.nanoTime()) / 1e9;
      if (p.streamMs() / 1000 + CELL_OVERHEAD_S > left) {
        progress.accept(
            "budget: " + p + " would not fit in the " + Math.max(0, Math.round(left)) + " s left");
        return false;
      }
      CellEvidence e = probe.measure(p);
      if (e == null) {
        stopped = true;
        return false;
      }
      measured.add(p.toString());
      cellPlans.add(p);
      cells.add(e);
      progress.accept(e.describe());
    }
    return true;
  }
}
