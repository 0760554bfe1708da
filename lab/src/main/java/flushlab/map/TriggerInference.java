package flushlab.map;

import flushlab.netpath.NetworkPath;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Infers what makes a target release held bytes, from measured cells. Each mechanism predicts, for
 * a stream of frames of wire size f every I ms, how many frames a release carries (r) and how long
 * its oldest frame waited (W), which the client measures directly from the emit time in each frame:
 *
 * <ul>
 *   <li>none: r = 1, W about 0;
 *   <li>drain: everything in one piece at the end;
 *   <li>byte threshold N: r = ceil(N / f), W = (r - 1) I; a frame of f >= N leaves alone, at once;
 *   <li>hold timer T (counted from the first held byte): W = T in every release, whatever f and I;
 *   <li>periodic timer P (a fixed clock): releases exactly P apart, W spread over up to min(I, P);
 *   <li>event count K: r = K whatever f and I, W = (K - 1) I;
 *   <li>threshold or timer (N, T), whichever first: some cells byte-released (W = (r - 1) I < T),
 *       the others time-released (W = T, r f < N) or streamed (f >= N); the kernel's TCP_CORK is
 *       this with T about 200 ms and N one segment (64 KiB on loopback);
 *   <li>one event late: r = 1, W = I in every cell, whatever I (each write waits for the next);
 *   <li>first content: every cell streams, but after a think nothing (not the comments sent through
 *       it) arrives before the first frame;
 *   <li>decoded threshold N (a compressor flushed by its input's size): a byte threshold counted in
 *       the events' own bytes, not in the compressed ones a client receives;
 *   <li>flow-control window W, updated every P: cells sending less than W per P stream; faster ones
 *       release about W bytes (any part of a frame) P apart, their backlog growing.
 * </ul>
 *
 * Every mechanism is fitted to every cell; the answer is the one that fits when exactly one does
 * (the combined trigger only when no single one does), with its value located by intersecting what
 * each cell allows. When none fits, or more than one, the answer is inconclusive, with the cells
 * that would decide, never a guess.
 */
public final class TriggerInference {

  private TriggerInference() {}

  public static FlushTrigger infer(String target, List<CellEvidence> cells) {
    return infer(target, cells, NetworkPath.LOOPBACK);
  }

  /** As above, for a target on this network path (which sets what a cork's segment is). */
  public static FlushTrigger infer(String target, List<CellEvidence> cells, NetworkPath path) {
    List<String> evidence = new ArrayList<>();
    List<CellEvidence> measured = new ArrayList<>();
    List<CellEvidence> thinking = new ArrayList<>();
    for (CellEvidence c : cells) {
      if (c.streams() == 0) continue;
      // a think cell answers one question (is anything sent before the first frame?), not the
      // trigger's
      (c.thinks() ? thinking : measured).add(c);
      evidence.add(c.describe());
    }
    if (measured.isEmpty())
      return FlushTrigger.inconclusive(
          target, "no cell produced frames", evidence, Discovery.plan());
    if (measured.stream().allMatch(CellEvidence::streamed)) {
      FlushTrigger first = FirstContentFit.answer(target, thinking, measured, evidence);
      if (first != null) return first;
      return new FlushTrigger(
          target,
          TriggerKind.NONE,
          null,
          null,
          null,
          null,
          "none: streams each frame at once (every cell one "
              + "frame per release, the oldest waiting under "
              + (int) CellEvidence.HELD_MS
              + " ms)",
          evidence,
          List.of());
    }
    if (measured.stream().allMatch(CellEvidence::drained)) {
      CellEvidence biggest =
          measured.stream().max(Comparator.comparingDouble(CellEvidence::streamMs)).orElseThrow();
      return new FlushTrigger(
          target,
          TriggerKind.DRAIN,
          null,
          null,
          null,
          null,
          String.format(
              "drain: every stream arrived in one piece "
                  + "at its end (the longest %.0f ms, %.0f B)",
              biggest.streamMs(), biggest.totalBytes()),
          evidence,
          List.of());
    }
    // before the timers: a one-late hold's wait is one interval, which at one interval alone looks
    // like a timer
    Double late = OneLateFit.fit(measured, evidence);
    // one-late lets each comment go as the next is sent: the first one interval of comments in
    if (late != null)
      return FirstContentFit.after(
          OneLateFit.answer(target, late, measured, evidence), 0, thinking, evidence);
    Span bytes = ByteThresholdFit.fit(measured, evidence);
    Double hold = HoldTimerFit.fit(measured, evidence);
    Double period = PeriodicTimerFit.fit(measured, evidence);
    Integer count = EventCountFit.fit(measured, evidence);
    List<String> fits = new ArrayList<>();
    if (bytes != null) fits.add("a byte threshold");
    if (hold != null) fits.add("a hold timer");
    if (period != null) fits.add("a periodic timer");
    if (count != null) fits.add("an event count");
    if (fits.size() > 1) {
      return FlushTrigger.inconclusive(
          target,
          "these cells fit " + String.join(" and ", fits) + " alike",
          evidence,
          nextPlans(measured).stream().map(CellPlan::toString).toList());
    }
    if (bytes != null)
      return FirstContentFit.aroundThreshold(
          ByteThresholdFit.answer(target, bytes, measured, evidence), thinking, evidence);
    if (hold != null)
      return FirstContentFit.after(
          HoldTimerFit.answer(target, hold, measured, evidence, path), hold, thinking, evidence);
    if (period != null)
      return FirstContentFit.after(
          PeriodicTimerFit.answer(target, period, measured, evidence), period, thinking, evidence);
    if (count != null) {
      return new FlushTrigger(
          target,
          TriggerKind.EVENT_COUNT,
          null,
          null,
          null,
          count,
          String.format(
              "event count: releases every %d "
                  + "frames whatever their size and interval (%s); flushlab does not model this mechanism, it only recognises it",
              count, Fits.across(measured)),
          evidence,
          List.of());
    }
    ThresholdOrTimerFit.BothFit both = ThresholdOrTimerFit.fit(measured, path);
    if (both != null) {
      // a cork, or a threshold-or-timer, lets a think's few comments go on its timer too
      FlushTrigger t = ThresholdOrTimerFit.answer(target, both, measured, evidence, path);
      return t.timerMs() == null ? t : FirstContentFit.after(t, t.timerMs(), thinking, evidence);
    }
    Span split = SplitBufferFit.fit(measured, evidence);
    if (split != null) return SplitBufferFit.answer(target, split, measured, evidence);
    WindowFit.Window window = WindowFit.fit(measured, evidence);
    if (window != null) return WindowFit.answer(target, window, measured, evidence);
    FlushTrigger encoder = encoderHeld(target, measured, evidence);
    if (encoder != null) return encoder;
    FlushTrigger decoded = decodedThreshold(target, measured, evidence);
    if (decoded != null) return decoded;
    List<String> next = nextPlans(measured).stream().map(CellPlan::toString).toList();
    String behind = WindowFit.behind(measured);
    return FlushTrigger.inconclusive(
        target,
        "neither one byte threshold, one hold timer, one periodic timer, one event count, "
            + "a threshold and a timer together, nor a window explains every cell (a scheduler, noise, or a mechanism flushlab does not model"
            + (next.isEmpty()
                ? "; the cells above are every cell the map knows to measure: read them"
                : "")
            + ")"
            + (behind == null ? "" : "; " + behind),
        evidence,
        next);
  }

  /**
   * Every cell compressed and none streamed, no size or time fitting, and each either drained,
   * released once, or released many events at a time: the compressor's own buffers decide (an
   * encoder nobody flushes). Null when that is not what the cells show.
   */
  private static FlushTrigger encoderHeld(
      String target, List<CellEvidence> cells, List<String> evidence) {
    if (cells.isEmpty() || !cells.stream().allMatch(CellEvidence::compressed)) return null;
    boolean held =
        cells.stream()
            .allMatch(
                c ->
                    c.drained()
                        || c.heldOnce()
                        || c.held() && c.releaseFrames() >= ENCODER_MIN_FRAMES);
    if (!held) return null;
    String coding = cells.get(0).coding();
    long drained = cells.stream().filter(CellEvidence::drained).count();
    double mostEvents =
        cells.stream()
            .filter(c -> !c.drained())
            .mapToDouble(c -> c.heldOnce() ? c.framesPerRead() : c.releaseFrames())
            .max()
            .orElse(0);
    return new FlushTrigger(
        target,
        TriggerKind.ENCODER,
        null,
        null,
        null,
        null,
        String.format(
            "encoder: the %s output left only as the "
                + "compressor's own buffers filled and at the end, as a compressor never flushed between writes (%d of %d cells arrived "
                + "whole at their end%s; %s); a proxy that flushes its compressor per upstream write would stream them",
            coding,
            drained,
            cells.size(),
            mostEvents > 0
                ? String.format(", the others in releases of up to %.0f events", mostEvents)
                : "",
            Fits.across(cells)),
        evidence,
        List.of());
  }

  /**
   * Every cell compressed, no threshold of compressed bytes fitting, and one of the events' own
   * bytes (what went into the compressor) fitting every cell: a compressor flushed by its input's
   * size. Null when that is not what the cells show.
   */
  private static FlushTrigger decodedThreshold(
      String target, List<CellEvidence> cells, List<String> evidence) {
    if (cells.isEmpty() || !cells.stream().allMatch(CellEvidence::compressed)) return null;
    Span n =
        ByteThresholdFit.fit(
            cells.stream().map(CellEvidence::asDecoded).toList(), new ArrayList<>());
    evidence.add(
        "decoded-threshold check: "
            + (n == null
                ? "no single threshold of the events' own bytes fits every cell"
                : "every cell fits a threshold of "
                    + n.text("B")
                    + " of events before compression"));
    if (n == null) return null;
    List<String> next =
        n.width() > 0.05 ? List.of(Discovery.locateBytes(n.lo(), n.hi())) : List.of();
    return new FlushTrigger(
        target,
        TriggerKind.DECODED_THRESHOLD,
        Fits.round1(n.mid()),
        Fits.round1(n.mid()),
        null,
        null,
        String.format(
            "decoded threshold: the %s output leaves once ~%.0f B of events went into the compressor since it last let "
                + "output go, however small they compress (between %s, counted before compression; %s)",
            cells.get(0).coding(), n.mid(), n.text("B"), Fits.across(cells)),
        evidence,
        next);
  }

  /** Events a release must carry to count as held by an encoder rather than by a small buffer. */
  static final double ENCODER_MIN_FRAMES = 8;

  /**
   * The cells that would decide between the mechanisms these cells leave open: a hold timer and a
   * periodic clock part at an interval that does not divide the period (the clock's phase then
   * moves from release to release, a hold's wait does not), the same when the two part only as a
   * stage in front of one-late ({@link OneLateAfterFit}: a hold of 98 ms and a clock of 100 ms, at
   * intervals that all divide 100 ms, replayed alike); anything else at the cells that vary what
   * these held fixed.
   */
  static List<CellPlan> nextPlans(List<CellEvidence> cells) {
    List<String> none = new ArrayList<>();
    Double hold = HoldTimerFit.fit(cells, none);
    Double period = PeriodicTimerFit.fit(cells, none);
    if (hold != null && period != null) return List.of(Discovery.phaseProbe(period));
    List<CellEvidence> earlier = OneLateAfterFit.asTheFirstStageReleasedThem(cells);
    Double holdFirst = earlier.isEmpty() ? null : HoldTimerFit.fit(earlier, none);
    Double periodFirst = earlier.isEmpty() ? null : PeriodicTimerFit.fit(earlier, none);
    if (holdFirst != null && periodFirst != null) {
      List<CellPlan> phase = new ArrayList<>(List.of(Discovery.phaseProbe(periodFirst)));
      phase.addAll(Discovery.separatingPlans(cells));
      return phase;
    }
    return Discovery.separatingPlans(cells);
  }
}
