package flushlab.map;

import java.util.ArrayList;
import java.util.List;

/**
 * One event late: each write is held until the next one arrives (a latency on the path adds the
 * same to every wait). Every release then carries one frame, the previous one, whose wait is one
 * interval whatever the interval (2 ms in a 2 ms cell, 50 ms in a 50 ms one). The first frame waits
 * for the second as well, or leaves at once: a compressor that flushes with the response head
 * (H2O's brotli, measured) lets the first event go when it came in the head's read, and holds from
 * the second on. A hold timer gives every cell the same wait, a byte threshold more than one frame
 * per release at small frames, a latency the same delay at every interval: none of them follows the
 * interval.
 */
final class OneLateFit {
  private OneLateFit() {}

  /** Waits within this much of one interval (or 10 % of it) count as one interval. */
  static final double SLACK_MS = 2.5;

  /**
   * At least one cell's interval must be this long, or "one interval" is lost in the path's own
   * noise.
   */
  static final double LONG_INTERVAL_MS = 20;

  /**
   * The path's own delay in front of or behind the hold (a latency), the same in every cell, or
   * null when the cells are not one event late. Each cell's release carries one frame and its wait
   * is one interval plus that delay, whatever the interval.
   */
  static Double fit(List<CellEvidence> cells, List<String> evidence) {
    boolean longInterval = false;
    List<Double> offsets = new ArrayList<>();
    for (CellEvidence c : cells) {
      if (c.drained() || c.streams() == 0) return null;
      if (c.releaseFrames() >= 1.5
          || c.framesSentApartPerRead() > CellEvidence.STREAMED_FRAMES_PER_READ) return null;
      offsets.add(c.waitP50() - c.intervalMs());
      if (c.intervalMs() >= LONG_INTERVAL_MS) longInterval = true;
    }
    if (!longInterval || offsets.isEmpty()) return null;
    double d = Fits.median(offsets);
    int firstAtOnce = 0;
    List<String> firstOther = new ArrayList<>();
    for (CellEvidence c : cells) {
      double slack = Math.max(SLACK_MS, 0.1 * c.intervalMs());
      if (d < -slack) return null;
      if (Math.abs(c.waitP50() - c.intervalMs() - d) > slack) return null;
      // The first release carries the response head and is left out of every other fit's
      // statistics; here too it only describes, never decides (behind HAProxy's gzip it now and
      // then waited neither one interval nor nothing, in a cell of one stream).
      boolean firstHeld = Math.abs(c.firstWaitMs() - c.intervalMs() - d) <= slack;
      boolean firstAtOnceHere = Math.abs(c.firstWaitMs() - Math.max(0, d)) <= slack;
      if (firstHeld) continue;
      if (firstAtOnceHere) firstAtOnce++;
      else
        firstOther.add(
            String.format("%.1f ms at %s ms", c.firstWaitMs(), Fits.trim(c.intervalMs())));
    }
    double delay = Math.max(0, d);
    evidence.add(
        String.format(
            "one-late check: every release carried one frame, the previous one, after one interval%s in every cell%s%s",
            delay > SLACK_MS ? String.format(" and %.1f ms more", delay) : "",
            firstAtOnce == 0
                ? ""
                : String.format(
                    "; the first frame left at once in %d of %d cells (it came with the response head)",
                    firstAtOnce, cells.size()),
            firstOther.isEmpty()
                ? ""
                : "; the first frame, which comes with the response head, waited neither one interval nor nothing ("
                    + String.join(", ", firstOther)
                    + ")"));
    return delay;
  }

  static FlushTrigger answer(
      String target, double delayMs, List<CellEvidence> cells, List<String> evidence) {
    StringBuilder waits = new StringBuilder();
    for (CellEvidence c : cells) {
      waits
          .append(waits.length() == 0 ? "" : ", ")
          .append(String.format("%.1f ms at %s ms", c.waitP50(), Fits.trim(c.intervalMs())));
    }
    return new FlushTrigger(
        target,
        TriggerKind.ONE_LATE,
        null,
        null,
        null,
        null,
        String.format(
            "one-late: each event is held "
                + "until the next one arrives, so every frame waits one interval (%s)%s and the last arrives only with the end of the "
                + "response; not a timer: the wait follows the interval (%s)",
            waits,
            delayMs > SLACK_MS
                ? String.format(", plus %.1f ms the path adds to every frame", delayMs)
                : "",
            Fits.across(cells)),
        evidence,
        List.of());
  }
}
