package flushlab.map;

import flushlab.netpath.NetworkPath;
import java.util.ArrayList;
import java.util.List;

/**
 * A hold timer T, counted from the first held byte: every release's oldest frame waited T, whatever
 * the frames.
 */
final class HoldTimerFit {

  /**
   * A hold timer T: every held cell's oldest frame waited the same T, steadily; nothing streamed. T
   * is read from the low end of the waits (p10): anything else on the path (scheduling, a kernel
   * timer's tick) only ever adds to a hold. Cells whose releases are large (over 64 KiB) only have
   * to have waited at least T: a backed-up path lengthens their waits, and the smaller releases
   * time the hold (when there are none, the large ones do).
   */
  static Double fit(List<CellEvidence> cells, List<String> evidence) {
    return fit(cells, evidence, 0);
  }

  /**
   * The same, for waits read back by taking a later stage's delay off them, a delay known only to
   * within {@code readShortMs} for each release (the kernel's cork: 200 ms, up to 210 as this
   * kernel runs it). The hold may be that much longer than the waits say, so its releases may carry
   * that many more frames; and one cell's wait may stray from another's by that much more. Two maps
   * of `timer=298ms -> cork` in sixteen were not fitted without it: one read the stage as 294.8 ms
   * and its 60 B cell every 2 ms released 150 frames, one more than such a hold lets in; in the
   * other, a cell of two releases waited 303.3 ms and the lowest 294.4, 0.07 ms past the room a
   * cell gets.
   */
  static Double fit(List<CellEvidence> cells, List<String> evidence, double readShortMs) {
    boolean smallReleases =
        cells.stream().anyMatch(c -> c.held() && !c.largeReleases() || !c.held() && c.heldOnce());
    List<Double> waits = new ArrayList<>();
    /**
     * Each wait's own noise (p90 - p10; 0 for a cell held once): what may lift it above the hold.
     */
    List<Double> spreads = new ArrayList<>();
    List<CellEvidence> timing = new ArrayList<>();
    List<CellEvidence> lengthened = new ArrayList<>();
    for (CellEvidence c : cells) {
      if (c.streamed()) return null;
      if (c.held()) {
        if (smallReleases && c.largeReleases()) {
          lengthened.add(c);
          continue;
        }
        if (!c.steadyWait()) return null;
        waits.add(c.waitP10());
        spreads.add(c.waitP90() - c.waitP10());
        timing.add(c);
      } else if (c.heldOnce()) {
        waits.add(c.firstWaitMs());
        spreads.add(0.0);
      }
    }
    if (waits.isEmpty()) return null;
    double t = Fits.median(waits);
    // The same hold in every cell: cells may differ by 3 %, or by 1 ms, or by twice what they vary
    // within themselves (noise) up to 3 ms, not more. Waits of 2 and 6 ms that each vary by 0.1 ms
    // are two byte counts at a 1 ms interval, not one 4 ms hold; and a periodic clock, whose waits
    // spread over an interval within a cell, gets no more room than the old 3 ms.
    double spread = timing.stream().mapToDouble(c -> c.waitP90() - c.waitP10()).max().orElse(0);
    double tolerance = Math.max(Math.max(1, 0.03 * t), Math.min(3, 2 * spread));
    for (double w : waits) if (Math.abs(w - t) > tolerance + readShortMs) return null;
    // And measured from the lowest wait, each cell lifted above it by no more than its own noise
    // allows: noise only adds to a hold, so a steady cell far above the lowest is held by something
    // else. Against the median with the noisiest cell's room, a 60 B cell waiting 5.8 ms (p90 7.0,
    // beside two other classes) and a 150 B one waiting 1.9 ms (p90 2.0), both at 1 ms, passed for
    // one 3.9 ms hold: they are two byte counts (a suite run of 2026-12-03).
    double lowest = waits.stream().mapToDouble(Double::doubleValue).min().orElse(0);
    for (int i = 0; i < waits.size(); i++) {
      if (waits.get(i) - lowest
          > Math.max(1, 0.03 * lowest) + Math.min(3, 2 * spreads.get(i)) + readShortMs) return null;
    }
    // a threshold or a window releases large frames early; a hold never does
    for (CellEvidence c : lengthened) if (c.waitP10() < t - tolerance) return null;
    // A hold of T releases what arrived within T of its oldest frame: about T / I + 1 frames, one
    // more for an emitter a little late. Seven 1 ms frames per release with a "hold" of 2.1 ms are
    // a byte count whose frames came bunched (a CI run on 2026-12-02 was called inconclusive so).
    // Or what arrived within the cell's own longest wait (p90), W / I + 1, when that is more: a 367
    // ms
    // hold whose oldest frames waited up to 376 ms on a busy host released 187 frames of 2 ms.
    // Not the cells of large releases: like their waits, what they carry is only bounded from below
    // (a 376 ms hold's 940 KB release carried 229 frames of 2 ms whose oldest waited 455 ms).
    for (CellEvidence c : cells) {
      if (c.held()
          && c.intervalMs() > 0
          && !lengthened.contains(c)
          && c.releaseFrames()
              > Math.max(
                  (t + readShortMs) / c.intervalMs() + 2,
                  (c.waitP90() + readShortMs) / c.intervalMs() + 1)) {
        return null;
      }
    }
    for (CellEvidence c : cells) if (c.drained() && c.streamMs() >= t) return null;
    // A hold counts from the first byte it holds, which comes after the release before: releases
    // are at least T apart. Waits of 2T with releases T apart are a hold of T whose every release
    // waited for the next one (a 98 ms timer then one-late read as a hold of 197.5 ms, 2026-12-04).
    for (CellEvidence c : timing) {
      if (c.releasesPerStream() >= 1 && c.gapP50() > 0 && c.gapP50() < 0.9 * t - tolerance)
        return null;
    }
    evidence.add(
        String.format(
            "hold-timer check: the oldest frame waited %.1f ms in every held cell%s",
            t,
            lengthened.isEmpty() ? "" : " (at least that in the cells of releases over 64 KiB)"));
    return t;
  }

  /**
   * The answer for a hold of {@code hold} ms, saying when a kernel cork (which also holds ~200 ms)
   * is not yet ruled out.
   */
  static FlushTrigger answer(
      String target,
      double hold,
      List<CellEvidence> measured,
      List<String> evidence,
      NetworkPath path) {
    double segment = path.isVeth() ? path.mss() : 65536;
    boolean fastLarge =
        measured.stream().anyMatch(c -> c.frameBytes() * c.releaseFrames() > 2 * segment);
    String cork =
        hold >= ThresholdOrTimerFit.CORK_MIN_MS
                && hold <= ThresholdOrTimerFit.CORK_MAX_MS
                && !fastLarge
            ? "; a kernel cork holds ~200 ms too, and differs only once more than a segment ("
                + (path.isVeth() ? path.mss() + " B" : "64 KiB")
                + ") is held: a cell of large frames at a short interval tells them apart"
            : "";
    return new FlushTrigger(
        target,
        TriggerKind.TIMER,
        null,
        null,
        Fits.round1(hold),
        null,
        String.format(
            "timer: releases %.1f ms after "
                + "the first byte it holds, in every cell that released before its end (%s)%s",
            hold, Fits.across(measured), cork),
        evidence,
        List.of());
  }
}
