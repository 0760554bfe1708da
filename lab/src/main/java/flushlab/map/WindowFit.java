package flushlab.map;

import java.util.ArrayList;
import java.util.List;

/**
 * A flow-control window W (HTTP/2's): the sender may have W bytes unacknowledged, then waits for
 * the receiver's WINDOW_UPDATE, which comes every P. A stream slower than W per P never meets it,
 * so those cells stream; a faster one leaves in releases of one update's grant, P apart, whatever
 * the frame size (a window ends inside a frame as readily as between two), and as the stream keeps
 * outrunning it the backlog grows, so its oldest frames wait far longer than their release took to
 * gather. A byte threshold instead releases whole frames, its oldest having waited (r - 1)
 * intervals, and holds slow streams too; a timer or a clock holds every cell.
 */
final class WindowFit {
  /**
   * What the cells show: bytes per update (the window, for a receiver that grants all it consumed
   * at once) and the update period.
   */
  record Window(double bytes, double periodMs) {}

  private WindowFit() {}

  static Window fit(List<CellEvidence> cells, List<String> evidence) {
    List<Double> sizes = new ArrayList<>();
    List<Double> periods = new ArrayList<>();
    for (CellEvidence c : cells) {
      if (c.drained() || c.heldOnce()) return null; // a window never holds a whole stream back
      if (c.streamed()) continue;
      if (!behind(c)) return null; // held without falling behind: a buffer, not a window
      // The largest releases are the grants: the first window's frames left one by one as they
      // came, so the lower releases are single frames, and the upper ones one grant each.
      double w = c.releaseBytesP90();
      double p = c.gapP90();
      if (w < 2 * c.frameBytes() || p < 3 * c.intervalMs()) return null;
      // one grant per update is the rate the stream fell behind at: its backlog grows by what it
      // sends beyond w / p, so the oldest frames' waits give that rate back (a rate limit that
      // clocks the sender smoothly, as updates sent per consumed byte do, has no such bursts)
      double passed = 0.9 * c.totalBytes() / (c.waitP90() + 0.9 * c.streamMs());
      if (Math.abs(w / p - passed) > 0.25 * passed) return null;
      sizes.add(w);
      // The p90 release and the p90 gap need not be one grant and its wait: a receiver granting as
      // it consumes lets a window through in several bursts per round trip (a suite run of
      // 2026-12-03 read 27439 B and 36.9 ms from a 32 KiB window every 50 ms, 744 B/ms where at
      // most 655 can pass). The period is never shorter than the grant takes at the measured rate,
      // so the rate the answer states is never above what passed.
      periods.add(Math.max(p, w / passed));
    }
    if (sizes.isEmpty()) return null;
    double w = Fits.median(sizes);
    double p = Fits.median(periods);
    for (double s : sizes) if (Math.abs(s - w) > 0.1 * w) return null;
    for (CellEvidence c : cells) {
      double perPeriod = c.frameBytes() * p / c.intervalMs();
      if (c.streamed() && perPeriod > 1.2 * w)
        return null; // it sent more than a window per update, and nothing held it
      if (!c.streamed() && perPeriod < w)
        return null; // it never sent a window's worth per update, yet fell behind
    }
    evidence.add(
        String.format(
            "window check: the cells that sent more than %.0f B per %.1f ms fell behind, releasing up to that "
                + "(p90) one update apart at the rate their backlog grew by; the cells that sent less streamed",
            w, p));
    return new Window(w, p);
  }

  /**
   * The stream fell behind: its oldest frames waited far longer than one update period (or 50 ms).
   */
  private static boolean behind(CellEvidence c) {
    return !c.drained() && c.streams() > 0 && c.waitP90() >= Math.max(50, 2 * c.gapP90());
  }

  /**
   * What a cell that fell behind without a burst size says, for an inconclusive answer: the target
   * passed fewer bytes per second than the cell sent (a bandwidth limit, or a window whose updates
   * follow each consumed byte). Null when no cell fell behind.
   */
  static String behind(List<CellEvidence> cells) {
    for (CellEvidence c : cells) {
      if (c.streamed() || !behind(c) || c.waitP90() < 100) continue;
      return String.format(
          "%s falls behind (its oldest frames waited up to %.0f ms, p90, while it sent %.0f kB/s): the target "
              + "passes fewer bytes per second than that, as a bandwidth limit or a flow-control window whose updates follow each "
              + "consumed byte does",
          c.label(), c.waitP90(), c.frameBytes() / c.intervalMs());
    }
    return null;
  }

  static FlushTrigger answer(
      String target, Window win, List<CellEvidence> cells, List<String> evidence) {
    return new FlushTrigger(
        target,
        TriggerKind.WINDOW,
        Fits.round1(win.bytes()),
        null,
        Fits.round1(win.periodMs()),
        null,
        String.format(
            "window: flow control lets ~%.0f B through per update, updates %.1f ms apart: a stream faster than "
                + "~%.0f kB/s falls behind and leaves in bursts of that size, a slower one streams (%s; with a receiver that grants "
                + "everything it consumed at once, the bytes per update are the window)",
            win.bytes(), win.periodMs(), win.bytes() / win.periodMs(), Fits.across(cells)),
        evidence,
        List.of());
  }
}
