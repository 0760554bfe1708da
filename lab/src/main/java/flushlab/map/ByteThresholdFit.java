package flushlab.map;

import java.util.List;
import java.util.Objects;

/**
 * A byte threshold N: released once N bytes are held. A frame of f >= N leaves alone, at once;
 * smaller frames leave r = ceil(N / f) at a time, the oldest having waited (r - 1) intervals.
 */
final class ByteThresholdFit {

  /**
   * A byte threshold N: a held cell of r frames per release puts N in ((r - 1) f, r f] and its
   * oldest frame waited (r - 1) I (compressed, its p50 release of B bytes puts N in (B - 2f, B]); a
   * streamed cell puts N at most f; a drained one above all it sent.
   */
  static Span fit(List<CellEvidence> cells, List<String> evidence) {
    Span n = fit(cells, false);
    // Releases can run past N (a relay that read several frames at once releases them all) or
    // fall short of it (a release split by a stall of the reader). The median release places N
    // unless that leaves no threshold for every cell; then the least overshot releases (p10) of
    // each cell do: a 989 B threshold released 19 frames of 66 B at p50 on a busy host, where 15
    // reach it, and the p10 release carried 15.
    if (n != null && n.empty()) {
      Span least = fit(cells, true);
      if (least != null && !least.empty()) n = least;
    }
    if (n == null) return null;
    evidence.add(
        "byte-threshold check: "
            + (n.empty()
                ? "no single threshold fits every cell"
                : "every cell fits a threshold of " + n.text("B")));
    return n.empty() ? null : n;
  }

  /**
   * The span every cell allows, each held cell read by its median release or, with {@code
   * leastOvershot}, by its p10 one; null when no cell held.
   */
  private static Span fit(List<CellEvidence> cells, boolean leastOvershot) {
    Span n = Span.ANY;
    boolean anyHeld = false;
    for (CellEvidence c : cells) {
      Span unheld = Fits.boundByUnheld(n, c);
      if (unheld != null) {
        n = unheld;
      } else if (c.heldOnce() && !c.compressed() && c.thinkMs() <= 0) {
        // released once before its end, with its k-th frame: a threshold of k frames at most, and
        // of the response head the lab's relay counts in a stream's first release; where that
        // bound leaves no value, the target counts otherwise and the cell bounds nothing here
        long k = Math.round(c.firstWaitMs() / c.intervalMs()) + 1;
        Span bounded = n.atMost(k * c.frameBytes() + MOST_HEAD_BYTES);
        if (!bounded.empty()) n = bounded;
      } else if (c.held()) {
        long r = Math.round(c.releaseFrames());
        if (r < 2 || !Fits.waitedForFrames(c, r)) return null;
        if (c.compressed() && c.releaseBytesP50() > 0) {
          // A compressor's bytes per event change along the stream (its early events compress
          // worst), so r events of the mean size place N only to within a sliver that noise can
          // empty. The releases' own size places it: a release holds at least N and less than N
          // plus one event more (allowed twice the mean, for the worst-compressed ones).
          n = n.above(c.releaseBytesP50() - 2 * c.frameBytes()).atMost(c.releaseBytesP50());
        } else {
          long k =
              leastOvershot && c.releaseBytesP10() > 0
                  ? Math.max(2, Math.min(r, Math.round(c.releaseBytesP10() / c.frameBytes())))
                  : r;
          if (r > mostOvershot(k)) return null;
          n = n.above((k - 1) * c.frameBytes()).atMost(k * c.frameBytes());
        }
        anyHeld = true;
      }
    }
    return anyHeld ? n : null;
  }

  /**
   * The most response head the lab's relay counts in a threshold's first release of a stream (it
   * reads every byte from upstream as data): the emitter's event-stream head, 127 B with a
   * one-digit stream number, and a compressor's Vary: Accept-Encoding. A stream held once by
   * `compress=gzip,flush=each -> byte-threshold=1724B` let its first release go with the 24th frame
   * of 66 B, the head of 151 B reaching the threshold; fitted from the later releases alone
   * (1716..1782 B), the model's 1749 B held that cell to its end, and its replay refused it (a
   * MapCompressionTest draw, seed 303).
   */
  static final double MOST_HEAD_BYTES = 160;

  /**
   * The most frames a median release can carry when {@code k} reach the threshold and the rest are
   * overshoot: a relay that read a few frames at once, or a short stall of the reader (the 989 B
   * case: 15 reach it, 19 at p50). Far beyond that, the median release is another mechanism's: a
   * buffer of ~5.8 kB behind Nagle released 4 KiB frames 12 at a time at p50 (a segment), 2 at p10,
   * and read by its p10 alone the cell passed for the buffer, hiding the second mechanism.
   */
  static long mostOvershot(long k) {
    return k + Math.max(2, k / 2);
  }

  static FlushTrigger answer(
      String target, Span n, List<CellEvidence> cells, List<String> evidence) {
    List<CellEvidence> held = cells.stream().filter(CellEvidence::held).toList();
    if (cells.stream().anyMatch(CellEvidence::compressed))
      return compressedAnswer(target, n, held.isEmpty() ? cells : held, evidence);
    double ratio = Fits.bodyRatio(held.isEmpty() ? cells : held);
    String body = ratio < 0.999 ? String.format(" (~%.0f B of event bodies)", n.mid() * ratio) : "";
    List<String> next =
        n.width() > 0.05 ? List.of(Discovery.locateBytes(n.lo(), n.hi())) : List.of();
    return new FlushTrigger(
        target,
        TriggerKind.BYTE_THRESHOLD,
        Fits.round1(n.mid()),
        Fits.round1(n.mid() * ratio),
        null,
        null,
        String.format(
            "byte threshold: releases once it holds ~%.0f B on the wire%s (between %s; %s)",
            n.mid(), body, n.text("B"), Fits.across(cells)),
        evidence,
        next);
  }

  /**
   * A compressing target's threshold is counted in its encoder's output: the same compressed size
   * holds more events the better they compress, so the event bytes it stands for are given per
   * frame size measured (the threshold in event bytes is the one at the smallest frames).
   */
  private static FlushTrigger compressedAnswer(
      String target, Span n, List<CellEvidence> held, List<String> evidence) {
    String coding =
        held.stream()
            .map(CellEvidence::coding)
            .filter(Objects::nonNull)
            .findFirst()
            .orElse("compressed");
    StringBuilder perSize = new StringBuilder();
    double smallestBody = Double.MAX_VALUE;
    double eventBytes = 0;
    for (CellEvidence c : held) {
      if (!c.compressed() || c.frameBytes() <= 0) continue;
      double events = n.mid() * c.bodyBytes() / c.frameBytes();
      perSize
          .append(perSize.length() == 0 ? "" : ", ")
          .append(String.format("~%.0f B of %.0f B events", events, c.bodyBytes()));
      if (c.bodyBytes() < smallestBody) {
        smallestBody = c.bodyBytes();
        eventBytes = events;
      }
    }
    return new FlushTrigger(
        target,
        TriggerKind.BYTE_THRESHOLD,
        Fits.round1(n.mid()),
        eventBytes > 0 ? Fits.round1(eventBytes) : null,
        null,
        null,
        String.format(
            "byte threshold in compressed bytes: releases once its %s output holds ~%.0f B (between %s)%s",
            coding,
            n.mid(),
            n.text("B"),
            perSize.length() == 0
                ? ""
                : "; that is " + perSize + " (repetitive events are held longest)"),
        evidence,
        List.of());
  }
}
