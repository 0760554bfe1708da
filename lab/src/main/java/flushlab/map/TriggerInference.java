package flushlab.map;

import flushlab.netpath.NetworkPath;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

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
 *       this with T about 200 ms and N one segment (64 KiB on loopback).
 * </ul>
 * Every mechanism is fitted to every cell; the answer is the one that fits when exactly one does
 * (the combined trigger only when no single one does), with its value located by intersecting what
 * each cell allows. When none fits, or more than one, the answer is inconclusive, with the cells
 * that would decide, never a guess.
 */
public final class TriggerInference {
  /** The kernel's TCP_CORK ceiling is 200 ms; measured holds run 200-210 ms. */
  static final double CORK_MIN_MS = 170;
  static final double CORK_MAX_MS = 260;
  /** A corked socket sends full segments at once; on loopback a segment is about 64 KiB. */
  static final double CORK_MIN_SEGMENT_BYTES = 32 * 1024;

  /**
   * Whether a byte threshold is "a segment's worth" on this path, as a cork's is: on loopback a
   * segment is some 60-64 KiB (what the kernel sizes a send to), so anything from 32 KiB; on a
   * veth path of MTU m it is the MSS (m - 52 B with timestamps) or a small multiple of it, within 2 %.
   */
  static boolean segmentWorth(Span n, NetworkPath path) {
    if (!path.isVeth()) return n.lo() >= CORK_MIN_SEGMENT_BYTES;
    int mss = path.mss();
    for (int k = 1; k * mss <= 65536; k++) {
      if (n.lo() <= k * mss * 1.02 && n.hi() >= k * mss * 0.98) return true;
    }
    return false;
  }

  private static String segmentText(NetworkPath path) {
    return path.isVeth() ? "one TCP segment on this path is " + path.mss() + " B" : "a loopback segment is up to 64 KiB";
  }

  private TriggerInference() {}

  /** (lo, hi]: a value known to be above lo and at most hi. */
  record Span(double lo, double hi) {
    static final Span ANY = new Span(0, Double.POSITIVE_INFINITY);

    Span above(double v) {
      return new Span(Math.max(lo, v), hi);
    }

    Span atMost(double v) {
      return new Span(lo, Math.min(hi, v));
    }

    boolean empty() {
      return lo >= hi;
    }

    boolean bounded() {
      return hi < Double.POSITIVE_INFINITY;
    }

    double mid() {
      return bounded() ? (lo + hi) / 2 : lo;
    }

    /** Relative width: how tightly the value is located. */
    double width() {
      return bounded() ? (hi - lo) / hi : Double.POSITIVE_INFINITY;
    }

    String text(String unit) {
      if (!bounded()) return "above " + Math.round(lo) + " " + unit;
      return Math.round(lo) + ".." + Math.round(hi) + " " + unit;
    }
  }

  public static FlushTrigger infer(String target, List<CellEvidence> cells) {
    return infer(target, cells, NetworkPath.LOOPBACK);
  }

  /** As above, for a target on this network path (which sets what a cork's segment is). */
  public static FlushTrigger infer(String target, List<CellEvidence> cells, NetworkPath path) {
    List<String> evidence = new ArrayList<>();
    List<CellEvidence> measured = new ArrayList<>();
    for (CellEvidence c : cells) {
      if (c.streams() == 0) continue;
      measured.add(c);
      evidence.add(c.describe());
    }
    if (measured.isEmpty()) return FlushTrigger.inconclusive(target, "no cell produced frames", evidence, Discovery.plan());
    if (measured.stream().allMatch(CellEvidence::streamed)) {
      return new FlushTrigger(target, TriggerKind.NONE, null, null, null, null, "none: streams each frame at once (every cell one "
          + "frame per release, the oldest waiting under " + (int) CellEvidence.HELD_MS + " ms)", evidence, List.of());
    }
    if (measured.stream().allMatch(CellEvidence::drained)) {
      CellEvidence biggest = measured.stream().max(Comparator.comparingDouble(CellEvidence::streamMs)).orElseThrow();
      return new FlushTrigger(target, TriggerKind.DRAIN, null, null, null, null, String.format("drain: every stream arrived in one piece "
          + "at its end (the longest %.0f ms, %.0f B)", biggest.streamMs(), biggest.totalBytes()), evidence, List.of());
    }
    Span bytes = fitBytes(measured, evidence);
    Double hold = fitHold(measured, evidence);
    Double period = fitPeriodic(measured, evidence);
    Integer count = fitCount(measured, evidence);
    List<String> fits = new ArrayList<>();
    if (bytes != null) fits.add("a byte threshold");
    if (hold != null) fits.add("a hold timer");
    if (period != null) fits.add("a periodic timer");
    if (count != null) fits.add("an event count");
    if (fits.size() > 1) {
      return FlushTrigger.inconclusive(target, "these cells fit " + String.join(" and ", fits) + " alike", evidence,
          nextPlans(measured).stream().map(CellPlan::toString).toList());
    }
    if (bytes != null) return byteThreshold(target, bytes, measured, evidence);
    if (hold != null) {
      double segment = path.isVeth() ? path.mss() : 65536;
      boolean fastLarge = measured.stream().anyMatch(c -> c.frameBytes() * c.releaseFrames() > 2 * segment);
      String cork = hold >= CORK_MIN_MS && hold <= CORK_MAX_MS && !fastLarge
          ? "; a kernel cork holds ~200 ms too, and differs only once more than a segment (" + (path.isVeth() ? path.mss() + " B"
              : "64 KiB") + ") is held: a cell of large frames at a short interval tells them apart" : "";
      return new FlushTrigger(target, TriggerKind.TIMER, null, null, round1(hold), null, String.format("timer: releases %.1f ms after "
          + "the first byte it holds, in every cell that released before its end (%s)%s", hold, across(measured), cork), evidence, List.of());
    }
    if (period != null) {
      return new FlushTrigger(target, TriggerKind.PERIODIC_TIMER, null, null, round1(period), null, String.format("periodic timer: releases "
          + "every %.1f ms on its own clock, whenever the frames arrived (%s; a hold timer would release a whole number of "
          + "intervals after the first frame, and give every release the same wait)", period, across(measured)), evidence, List.of());
    }
    if (count != null) {
      return new FlushTrigger(target, TriggerKind.EVENT_COUNT, null, null, null, count, String.format("event count: releases every %d "
          + "frames whatever their size and interval (%s); flushlab does not model this mechanism, it only recognises it", count,
          across(measured)), evidence, List.of());
    }
    BothFit both = fitBoth(measured, path);
    if (both != null) return both(target, both, measured, evidence, path);
    List<String> next = nextPlans(measured).stream().map(CellPlan::toString).toList();
    return FlushTrigger.inconclusive(target, "neither one byte threshold, one hold timer, one periodic timer, one event count, "
        + "nor a threshold and a timer together explains every cell (a scheduler, noise, or a mechanism flushlab does not model"
        + (next.isEmpty() ? "; the cells above are every cell the map knows to measure: read them" : "") + ")", evidence, next);
  }

  /**
   * The cells that would decide between the mechanisms these cells leave open: a hold timer and a
   * periodic clock part at an interval that does not divide the period (the clock's phase then
   * moves from release to release, a hold's wait does not); anything else at the cells that vary
   * what these held fixed.
   */
  static List<CellPlan> nextPlans(List<CellEvidence> cells) {
    List<String> none = new ArrayList<>();
    Double hold = fitHold(cells, none);
    Double period = fitPeriodic(cells, none);
    if (hold != null && period != null) return List.of(Discovery.phaseProbe(period));
    return Discovery.separatingPlans(cells);
  }

  private static FlushTrigger byteThreshold(String target, Span n, List<CellEvidence> cells, List<String> evidence) {
    List<CellEvidence> held = cells.stream().filter(CellEvidence::held).toList();
    double ratio = bodyRatio(held.isEmpty() ? cells : held);
    String body = ratio < 0.999 ? String.format(" (~%.0f B of event bodies)", n.mid() * ratio) : "";
    List<String> next = n.width() > 0.05 ? List.of(Discovery.locateBytes(n.lo(), n.hi())) : List.of();
    return new FlushTrigger(target, TriggerKind.BYTE_THRESHOLD, round1(n.mid()), round1(n.mid() * ratio), null, null, String.format(
        "byte threshold: releases once it holds ~%.0f B on the wire%s (between %s; %s)", n.mid(), body, n.text("B"),
        across(cells)), evidence, next);
  }

  /**
   * Wire bytes to event bytes (chunk framing is a few bytes per frame), from the smallest frames
   * among the cells given: those whose releases the threshold made, when there are any.
   */
  private static double bodyRatio(List<CellEvidence> cells) {
    CellEvidence smallest = cells.stream().filter(c -> c.frameBytes() > 0).min(Comparator.comparingDouble(CellEvidence::frameBytes))
        .orElse(null);
    return smallest == null ? 1 : Math.min(1, smallest.bodyBytes() / smallest.frameBytes());
  }

  /**
   * A byte threshold N: a held cell of r frames per release puts N in ((r - 1) f, r f] and its
   * oldest frame waited (r - 1) I; a streamed cell puts N at most f; a drained one above all it sent.
   */
  static Span fitBytes(List<CellEvidence> cells, List<String> evidence) {
    Span n = Span.ANY;
    boolean anyHeld = false;
    for (CellEvidence c : cells) {
      if (c.drained()) {
        n = n.above(c.totalBytes());
      } else if (c.streamed()) {
        n = n.atMost(c.frameBytes());
      } else if (c.held()) {
        long r = Math.round(c.releaseFrames());
        if (r < 2 || !waitedForFrames(c, r)) return null;
        n = n.above((r - 1) * c.frameBytes()).atMost(r * c.frameBytes());
        anyHeld = true;
      }
    }
    if (!anyHeld) return null;
    evidence.add("byte-threshold check: " + (n.empty() ? "no single threshold fits every cell" : "every cell fits a threshold of "
        + n.text("B")));
    return n.empty() ? null : n;
  }

  /**
   * The oldest frame waited for the rest of its release to arrive: (r - 1) intervals, plus at most
   * a few ms the path adds (a latency in front of the trigger), never less.
   */
  private static boolean waitedForFrames(CellEvidence c, long r) {
    double expected = (r - 1) * c.intervalMs();
    double extra = c.waitP50() - expected;
    return extra >= -3 && extra <= Math.max(6, 0.15 * expected);
  }

  /**
   * A hold timer T: every held cell's oldest frame waited the same T, steadily; nothing streamed.
   * T is read from the low end of the waits (p10): anything else on the path (scheduling, a
   * kernel timer's tick) only ever adds to a hold.
   */
  static Double fitHold(List<CellEvidence> cells, List<String> evidence) {
    List<Double> waits = new ArrayList<>();
    for (CellEvidence c : cells) {
      if (c.streamed()) return null;
      if (c.held()) {
        if (!c.steadyWait()) return null;
        waits.add(c.waitP10());
      } else if (c.heldOnce()) {
        waits.add(c.firstWaitMs());
      }
    }
    if (waits.isEmpty()) return null;
    double t = median(waits);
    // The same hold in every cell: cells may differ by 3 %, or by 1 ms, or by twice what they vary
    // within themselves (noise) up to 3 ms, not more. Waits of 2 and 6 ms that each vary by 0.1 ms
    // are two byte counts at a 1 ms interval, not one 4 ms hold; and a periodic clock, whose waits
    // spread over an interval within a cell, gets no more room than the old 3 ms.
    double spread = cells.stream().filter(CellEvidence::held).mapToDouble(c -> c.waitP90() - c.waitP10()).max().orElse(0);
    double tolerance = Math.max(Math.max(1, 0.03 * t), Math.min(3, 2 * spread));
    for (double w : waits) if (Math.abs(w - t) > tolerance) return null;
    for (CellEvidence c : cells) if (c.drained() && c.streamMs() >= t) return null;
    evidence.add(String.format("hold-timer check: the oldest frame waited %.1f ms in every held cell", t));
    return t;
  }

  /**
   * A periodic timer P: a clock, not the arrivals, decides. Releases come P apart in every cell
   * where several frames share one, whatever the interval, and the oldest frame waited what was
   * left of the period when it arrived: between P - min(I, P) and P. A hold timer T instead gives
   * every cell the same wait, and gaps that are whole intervals (T rounded up to a multiple of I),
   * which differ between intervals: cells at two intervals tell the two apart (when both fit,
   * the answer is inconclusive and the map measures more intervals). Frames that leave one by
   * one at an interval out of step with P meet the clock at a new phase each time, so their
   * waits spread; steady waits there rule the clock out. Streams are not compared with each
   * other: a proxy may start its clock with each connection, meeting every stream at one phase.
   */
  static Double fitPeriodic(List<CellEvidence> cells, List<String> evidence) {
    List<Double> gaps = new ArrayList<>();
    for (CellEvidence c : cells) {
      if (c.streamed()) return null;
      // a release of more than 64 KiB takes milliseconds to write: its timing says little about the clock
      if (c.held() && c.releaseFrames() >= 2 && c.gapP50() > 0 && c.releaseFrames() * c.frameBytes() <= 65536) {
        if (c.gapP90() - c.gapP10() > Math.max(2, 0.1 * c.gapP50())) return null; // a clock ticks regularly
        gaps.add(c.gapP50());
      }
    }
    if (gaps.isEmpty()) return null;
    double p = median(gaps);
    for (double g : gaps) if (Math.abs(g - p) > Math.max(2, 0.02 * p)) return null;
    // a large release reaches the client a few ms after the tick (its bytes take that long to write)
    double slack = Math.max(6, 0.05 * p);
    boolean longInterval = false;
    for (CellEvidence c : cells) {
      if (c.drained()) {
        if (c.streamMs() >= p) return null;
        continue;
      }
      if (!c.held()) continue;
      double window = Math.min(c.intervalMs(), p);
      if (c.waitP10() < p - window - slack || c.waitP90() > p + slack) return null;
      if (window >= 10) longInterval = true;
    }
    if (!longInterval) return null; // with short intervals only, a hold timer looks the same
    // frames that leave one by one, out of step with the clock, each meet it at another phase
    // (the phase moves by I mod P a frame), so their waits spread; a hold gives each the same
    for (CellEvidence c : cells) {
      if (!c.held() || c.releaseFrames() >= 2 || c.releasesPerStream() < 4) continue;
      double d = c.intervalMs() % p;
      double drift = Math.min(d, p - d);
      if (drift >= slack && c.waitP90() - c.waitP10() < drift / 2) return null;
    }
    evidence.add(String.format("periodic-timer check: releases %.1f ms apart in every cell whatever the interval, the "
        + "oldest frame waiting what was left of the period", p));
    return p;
  }

  /** An event count K: the same frames per release in every held cell, though frame sizes or intervals differ. */
  static Integer fitCount(List<CellEvidence> cells, List<String> evidence) {
    Set<Long> rs = new LinkedHashSet<>();
    double minF = Double.MAX_VALUE;
    double maxF = 0;
    double minI = Double.MAX_VALUE;
    double maxI = 0;
    for (CellEvidence c : cells) {
      if (c.streamed()) return null;
      if (!c.held()) continue;
      long r = Math.round(c.releaseFrames());
      if (r < 2 || !waitedForFrames(c, r)) return null;
      rs.add(r);
      minF = Math.min(minF, c.frameBytes());
      maxF = Math.max(maxF, c.frameBytes());
      minI = Math.min(minI, c.intervalMs());
      maxI = Math.max(maxI, c.intervalMs());
    }
    if (rs.size() != 1 || (maxF < 2 * minF && maxI < 2 * minI)) return null;
    int k = rs.iterator().next().intValue();
    for (CellEvidence c : cells) if (c.drained() && c.framesPerStream() >= k) return null;
    evidence.add("event-count check: every held cell released " + k + " frames at a time");
    return k;
  }

  /**
   * A threshold-or-timer fit: the timer, the byte threshold's range, how many cells each released,
   * and the cells with releases earlier than either (only a kernel cork's fit has any).
   */
  record BothFit(double timerMs, Span bytes, int byTime, int byBytes, List<CellEvidence> byteReleased, List<CellEvidence> early) {}

  /**
   * A byte threshold N and a hold timer T, whichever comes first. T is the steady wait shared by
   * the time-released cells (tried from each held cell's wait, largest first); every other cell
   * must have been byte-released (its oldest frame waited (r - 1) I, less than T) or streamed
   * (f >= N), and the time-released ones held fewer than N bytes. A timer that is a multiple of
   * the interval also looks byte-released in one cell; across cells only one T fits.
   *
   * <p>Failing that, the kernel cork as a proxy uses it: a proxy that sends with MSG_MORE corks
   * each send, not the socket, so besides the ~200 ms ceiling and full segments the kernel also
   * sends what is held when something else pushes the socket (an ACK arriving, on loopback
   * within tens of ms), and the kernel's timer runs a few ms later now and then. So most
   * releases wait the ceiling (the p50, within 5 %), some come early (the p10). This is accepted
   * only as a cork (T near 200 ms, a segment of at least 32 KiB seen leaving at once), with the
   * early releases named in the evidence.
   */
  static BothFit fitBoth(List<CellEvidence> cells) {
    return fitBoth(cells, NetworkPath.LOOPBACK);
  }

  static BothFit fitBoth(List<CellEvidence> cells, NetworkPath path) {
    for (boolean cork : new boolean[] {false, true}) {
      List<Double> candidates = cells.stream().filter(c -> c.held() && (cork || c.steadyWait()))
          .map(c -> cork ? c.waitP50() : c.waitP10()).filter(t -> !cork || (t >= CORK_MIN_MS && t <= CORK_MAX_MS)).distinct()
          .sorted(Comparator.reverseOrder()).toList();
      for (double t : candidates) {
        BothFit fit = fitBoth(cells, t, cork);
        if (fit == null) continue;
        if (!cork) return fit;
        if (fit.timerMs() >= CORK_MIN_MS && fit.timerMs() <= CORK_MAX_MS && segmentWorth(fit.bytes(), path)) return fit;
      }
    }
    return null;
  }

  /**
   * The fit with the timer at t, or null. A time-released cell's oldest frames waited t: steadily
   * (p10 to p50, within 3 %), or for a cork most of them (the p50, within 5 %), the rest early.
   */
  static BothFit fitBoth(List<CellEvidence> cells, double t, boolean cork) {
    double tolerance = Math.max(3, (cork ? 0.05 : 0.03) * t);
    Span n = Span.ANY;
    int byTime = 0;
    int byBytes = 0;
    List<Double> timeWaits = new ArrayList<>();
    List<CellEvidence> early = new ArrayList<>();
    List<CellEvidence> byteReleased = new ArrayList<>();
    for (CellEvidence c : cells) {
      if (c.drained()) {
        if (c.streamMs() >= t) return null;
        continue;
      }
      if (c.streamed()) {
        n = n.atMost(c.frameBytes());
        byBytes++;
        continue;
      }
      if (!c.held()) continue;
      long r = Math.round(c.releaseFrames());
      double wait = cork ? c.waitP50() : c.waitP10();
      if ((cork || c.steadyWait()) && Math.abs(wait - t) <= tolerance) {
        n = n.above(Math.max(r - 1, 0) * c.frameBytes()); // the timer fired first: fewer than N bytes were held before the last frame
        byTime++;
        timeWaits.add(wait);
        if (c.waitP10() < t - tolerance) early.add(c);
      } else if (r >= 2 && waitedForFrames(c, r) && c.waitP50() < t) {
        n = n.above((r - 1) * c.frameBytes()).atMost(r * c.frameBytes());
        byBytes++;
        byteReleased.add(c);
      } else {
        return null;
      }
    }
    // the timer: the time-released cells' waits together (t was the largest that fits them all)
    return byTime == 0 || byBytes == 0 || n.empty() ? null : new BothFit(median(timeWaits), n, byTime, byBytes, byteReleased,
        early);
  }

  private static FlushTrigger both(String target, BothFit fit, List<CellEvidence> cells, List<String> evidence, NetworkPath path) {
    double t = fit.timerMs();
    Span n = fit.bytes();
    double ratio = bodyRatio(fit.byteReleased().isEmpty() ? cells : fit.byteReleased());
    List<String> next = n.width() > 0.05 ? List.of(Discovery.locateBytes(n.lo(), n.hi())) : List.of();
    evidence.add(String.format("threshold-or-timer check: %d cell(s) released by time (%.1f ms), %d by bytes (%s)", fit.byTime(),
        t, fit.byBytes(), n.text("B")));
    String early = "";
    if (!fit.early().isEmpty()) {
      double earliest = fit.early().stream().mapToDouble(CellEvidence::waitP10).min().orElse(0);
      double gap = fit.early().stream().mapToDouble(CellEvidence::gapP10).min().orElse(0);
      evidence.add(String.format("early releases: in %d cell(s) some releases waited less than the hold, "
          + "unexplained by bytes (the earliest p10 %.1f ms, %.1f ms after the release before): the kernel sent what a per-send cork "
          + "(MSG_MORE) held when the socket was pushed, e.g. by an arriving ACK", fit.early().size(), earliest, gap));
      early = String.format("; some releases came early (p10 wait %.1f ms), as a per-send cork (MSG_MORE) allows", earliest);
    }
    if (t >= CORK_MIN_MS && t <= CORK_MAX_MS && segmentWorth(n, path)) {
      return new FlushTrigger(target, TriggerKind.CORK, round1(n.mid()), round1(n.mid() * ratio), round1(t), null, String.format(
          "kernel-cork signature: held %.1f ms from the first byte (the kernel's TCP_CORK ceiling is 200 ms), except that once "
              + "a segment's worth (%s; %s) is held it leaves at once%s", t, n.text("B"), segmentText(path), early), evidence, next);
    }
    return new FlushTrigger(target, TriggerKind.THRESHOLD_OR_TIMER, round1(n.mid()), round1(n.mid() * ratio), round1(t), null, String.format(
        "both, whichever first: a byte threshold ~%.0f B on the wire (%s) and a hold timer of %.1f ms", n.mid(), n.text("B"), t),
        evidence, next);
  }

  /** "at frame sizes 66, 4102 B and intervals 2, 50 ms": what the answer rests on. */
  static String across(List<CellEvidence> cells) {
    Set<String> sizes = new LinkedHashSet<>();
    Set<String> intervals = new LinkedHashSet<>();
    for (CellEvidence c : cells) {
      sizes.add(Long.toString(Math.round(c.frameBytes())));
      intervals.add(String.format(Locale.ROOT, "%s", trim(c.intervalMs())));
    }
    return "measured at " + (sizes.size() == 1 ? "one frame size, " : "frame sizes ") + String.join(", ", sizes) + " B and "
        + (intervals.size() == 1 ? "one interval, " : "intervals ") + String.join(", ", intervals) + " ms";
  }

  private static String trim(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }

  private static double median(List<Double> xs) {
    List<Double> s = new ArrayList<>(xs);
    s.sort(null);
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }

  private static double round1(double v) {
    return Math.round(v * 10) / 10.0;
  }
}
