package flushlab.map;

import java.util.List;

/**
 * A buffer written N bytes at a time, whatever the frames: the frame that fills it is split, its
 * head leaving with this write and its tail with the next (nginx's proxy buffers). Its releases
 * weigh the same at every frame size, like a threshold's; what tells it from one is the wait: a
 * threshold's oldest frame waited for the rest of its release, (r - 1) intervals, where here the
 * oldest complete frame is often the split one, which waited r.
 */
final class SplitBufferFit {
  /**
   * Releases of every held cell weigh the same to within the smallest held frame or this share of
   * their median, whichever is more: a buffer written N bytes at a time sends N bytes a write at
   * every frame size (stock nginx: 4107 B at 60 B and at 1 KiB frames). Two buffers in series
   * release whole frames, a multiple of the large frames' size: 8719 B at 66 B frames and 8215 B at
   * 4104 B frames (6 % apart) were read as one split buffer by a share of 5 % around their median
   * (a fresh-clone suite, s234).
   */
  static final double SAME_WEIGHT = 0.01;

  /**
   * The held cells' frame sizes differ at least this much: one size alone cannot tell a buffer's
   * weight from a frame count's.
   */
  static final double SIZES_APART = 4;

  private SplitBufferFit() {}

  /**
   * N, located by each held cell (r frames per release: N between (r - 1) and (r + 1) frames, as a
   * split release completes one frame more or less than its share), each drained cell (N above all
   * it sent) and each streamed one (N at most a frame); null when the cells do not show it.
   */
  static Span fit(List<CellEvidence> cells, List<String> evidence) {
    List<CellEvidence> held = cells.stream().filter(CellEvidence::held).toList();
    if (held.size() < 2 || cells.stream().anyMatch(CellEvidence::compressed)) return null;
    double smallest = held.stream().mapToDouble(CellEvidence::frameBytes).min().orElse(0);
    double largest = held.stream().mapToDouble(CellEvidence::frameBytes).max().orElse(0);
    if (smallest <= 0 || largest < SIZES_APART * smallest) return null;
    double weight = Fits.median(held.stream().map(CellEvidence::releaseBytesP50).toList());
    double lightest = held.stream().mapToDouble(CellEvidence::releaseBytesP50).min().orElse(0);
    double heaviest = held.stream().mapToDouble(CellEvidence::releaseBytesP50).max().orElse(0);
    if (heaviest - lightest > Math.max(smallest, SAME_WEIGHT * weight)) return null;
    Span n = Span.ANY;
    for (CellEvidence c : cells) {
      Span unheld = Fits.boundByUnheld(n, c);
      if (unheld != null) {
        n = unheld;
        continue;
      }
      if (!c.held()) continue;
      double r = c.releaseFrames();
      double expected = r * c.intervalMs();
      if (c.waitP50() < (r - 1) * c.intervalMs() - 3
          || c.waitP50() > expected + Math.max(6, 0.15 * expected)) return null;
      n = n.above((r - 1) * c.frameBytes()).atMost((r + 1) * c.frameBytes());
    }
    if (n.empty() || !n.bounded()) return null;
    evidence.add(
        String.format(
            "split-buffer check: every held cell's releases weigh ~%.0f B whatever the frame size, a buffer of %s",
            weight, n.text("B")));
    return n;
  }

  static FlushTrigger answer(
      String target, Span n, List<CellEvidence> cells, List<String> evidence) {
    double ratio = Fits.bodyRatio(cells.stream().filter(CellEvidence::held).toList());
    return new FlushTrigger(
        target,
        TriggerKind.SPLIT_BUFFER,
        Fits.round1(n.mid()),
        Fits.round1(n.mid() * ratio),
        null,
        null,
        String.format(
            "split buffer: writes ~%.0f B at a time whatever the frames, splitting the frame that fills it (between %s; %s); the "
                + "split frame's tail waits for the next write",
            n.mid(), n.text("B"), Fits.across(cells)),
        evidence,
        List.of());
  }
}
