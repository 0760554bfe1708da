package flushlab.map;

import flushlab.netpath.NetworkPath;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A byte threshold N and a hold timer T, whichever comes first; the kernel's cork is this with T
 * near 200 ms and N a segment (and, as a proxy corks each send with MSG_MORE, some early releases).
 */
final class ThresholdOrTimerFit {

  /** The kernel's TCP_CORK ceiling is 200 ms; measured holds run 200-210 ms. */
  static final double CORK_MIN_MS = 170;

  static final double CORK_MAX_MS = 260;

  /** A corked socket sends full segments at once; on loopback a segment is about 64 KiB. */
  static final double CORK_MIN_SEGMENT_BYTES = 32 * 1024;

  /**
   * Whether a byte threshold is "a segment's worth" on this path, as a cork's is: on loopback a
   * segment is some 60-64 KiB (what the kernel sizes a send to), so anything from 32 KiB; on a veth
   * path of MTU m it is the MSS (m - 52 B with timestamps) or a small multiple of it, within 2 %.
   */
  static boolean segmentWorth(Span n, NetworkPath path) {
    if (!path.isVeth()) return n.lo() >= CORK_MIN_SEGMENT_BYTES;
    int mss = path.mss();
    for (int k = 1; k * mss <= 65536; k++) {
      if (n.lo() <= k * mss * 1.02 && n.hi() >= k * mss * 0.98) return true;
    }
    return false;
  }

  static String segmentText(NetworkPath path) {
    return path.isVeth()
        ? "one TCP segment on this path is " + path.mss() + " B"
        : "a loopback segment is up to 64 KiB";
  }

  /**
   * A threshold-or-timer fit: the timer, the byte threshold's range, how many cells each released,
   * and the cells with releases earlier than either (only a kernel cork's fit has any).
   */
  record BothFit(
      double timerMs,
      Span bytes,
      int byTime,
      int byBytes,
      List<CellEvidence> byteReleased,
      List<CellEvidence> early) {}

  /**
   * A byte threshold N and a hold timer T, whichever comes first. T is the steady wait shared by
   * the time-released cells (tried from each held cell's wait, largest first); every other cell
   * must have been byte-released (its oldest frame waited (r - 1) I, less than T) or streamed (f >=
   * N), and the time-released ones held fewer than N bytes. A timer that is a multiple of the
   * interval also looks byte-released in one cell; across cells only one T fits.
   *
   * <p>Failing that, the kernel cork as a proxy uses it: a proxy that sends with MSG_MORE corks
   * each send, not the socket, so besides the ~200 ms ceiling and full segments the kernel also
   * sends what is held when something else pushes the socket (an ACK arriving, on loopback within
   * tens of ms), and the kernel's timer runs a few ms later now and then. So most releases wait the
   * ceiling (the p50, within 5 %), some come early (the p10). This is accepted only as a cork (T
   * near 200 ms, a segment of at least 32 KiB seen leaving at once), with the early releases named
   * in the evidence.
   */
  static BothFit fit(List<CellEvidence> cells) {
    return fit(cells, NetworkPath.LOOPBACK);
  }

  static BothFit fit(List<CellEvidence> cells, NetworkPath path) {
    for (boolean cork : new boolean[] {false, true}) {
      List<Double> candidates =
          cells.stream()
              .filter(c -> c.held() && (cork || c.steadyWait()))
              .map(c -> cork ? c.waitP50() : c.waitP10())
              .filter(t -> !cork || (t >= CORK_MIN_MS && t <= CORK_MAX_MS))
              .distinct()
              .sorted(Comparator.reverseOrder())
              .toList();
      for (double t : candidates) {
        BothFit fit = fit(cells, t, cork);
        if (fit == null) continue;
        if (!cork) return fit;
        if (fit.timerMs() >= CORK_MIN_MS
            && fit.timerMs() <= CORK_MAX_MS
            && segmentWorth(fit.bytes(), path)) return fit;
      }
    }
    return null;
  }

  /**
   * The fit with the timer at t, or null. A time-released cell's oldest frames waited t: steadily
   * (p10 to p50, within 3 %), or for a cork most of them (the p50, within 5 %), the rest early.
   */
  static BothFit fit(List<CellEvidence> cells, double t, boolean cork) {
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
      if (c.passedAtOnce()) {
        n = n.atMost(c.frameBytes());
        byBytes++;
        continue;
      }
      if (!c.held()) continue;
      long r = Math.round(c.releaseFrames());
      double wait = cork ? c.waitP50() : c.waitP10();
      if ((cork || c.steadyWait()) && Math.abs(wait - t) <= tolerance) {
        n =
            n.above(
                Math.max(r - 1, 0)
                    * c.frameBytes()); // the timer fired first: fewer than N bytes were held
        // before the last frame
        byTime++;
        timeWaits.add(wait);
        if (c.waitP10() < t - tolerance) early.add(c);
      } else if (r >= 2 && Fits.waitedForFrames(c, r) && c.waitP50() < t) {
        n = n.above((r - 1) * c.frameBytes()).atMost(r * c.frameBytes());
        byBytes++;
        byteReleased.add(c);
      } else {
        return null;
      }
    }
    // the timer: the time-released cells' waits together (t was the largest that fits them all)
    return byTime == 0 || byBytes == 0 || n.empty()
        ? null
        : new BothFit(Fits.median(timeWaits), n, byTime, byBytes, byteReleased, early);
  }

  static FlushTrigger answer(
      String target,
      BothFit fit,
      List<CellEvidence> cells,
      List<String> evidence,
      NetworkPath path) {
    double t = fit.timerMs();
    Span n = fit.bytes();
    double ratio = Fits.bodyRatio(fit.byteReleased().isEmpty() ? cells : fit.byteReleased());
    List<String> next =
        n.width() > 0.05 ? List.of(Discovery.locateBytes(n.lo(), n.hi())) : List.of();
    evidence.add(
        String.format(
            "threshold-or-timer check: %d cell(s) released by time (%.1f ms), %d by bytes (%s)",
            fit.byTime(), t, fit.byBytes(), n.text("B")));
    String early = "";
    if (!fit.early().isEmpty()) {
      double earliest = fit.early().stream().mapToDouble(CellEvidence::waitP10).min().orElse(0);
      double gap = fit.early().stream().mapToDouble(CellEvidence::gapP10).min().orElse(0);
      evidence.add(
          String.format(
              "early releases: in %d cell(s) some releases waited less than the hold, "
                  + "unexplained by bytes (the earliest p10 %.1f ms, %.1f ms after the release before): the kernel sent what a per-send cork "
                  + "(MSG_MORE) held when the socket was pushed, e.g. by an arriving ACK",
              fit.early().size(), earliest, gap));
      early =
          String.format(
              "; some releases came early (p10 wait %.1f ms), as a per-send cork (MSG_MORE) allows",
              earliest);
    }
    if (t >= CORK_MIN_MS && t <= CORK_MAX_MS && segmentWorth(n, path)) {
      return new FlushTrigger(
          target,
          TriggerKind.CORK,
          Fits.round1(n.mid()),
          Fits.round1(n.mid() * ratio),
          Fits.round1(t),
          null,
          String.format(
              "kernel-cork signature: held %.1f ms from the first byte (the kernel's TCP_CORK ceiling is 200 ms), except that once "
                  + "a segment's worth (%s; %s) is held it leaves at once%s",
              t, n.text("B"), segmentText(path), early),
          evidence,
          next);
    }
    return new FlushTrigger(
        target,
        TriggerKind.THRESHOLD_OR_TIMER,
        Fits.round1(n.mid()),
        Fits.round1(n.mid() * ratio),
        Fits.round1(t),
        null,
        String.format(
            "both, whichever first: a byte threshold ~%.0f B on the wire (%s) and a hold timer of %.1f ms",
            n.mid(), n.text("B"), t),
        evidence,
        next);
  }
}
