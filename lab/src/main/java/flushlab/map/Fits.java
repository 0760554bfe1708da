package flushlab.map;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What the fits of every mechanism share: the wait a release of r frames implies, medians, and how
 * an answer names its cells.
 */
final class Fits {

  /**
   * The oldest frame waited for the rest of its release to arrive: (r - 1) intervals, plus at most
   * a few ms the path adds (a latency in front of the trigger). Less only by the two frames a
   * median release may carry past the trigger, read with it (a relay that read several frames at
   * once, or a reader this host stopped): under a CPU hog a 2634 B gzip buffer's 60 B cell released
   * 96 frames at p50 while its oldest waited 186.3 ms, 93 intervals and 0.3 ms; quiet, it was 96
   * and 190.1 ms.
   */
  static boolean waitedForFrames(CellEvidence c, long r) {
    double expected = (r - 1) * c.intervalMs();
    double extra = c.waitP50() - expected;
    return extra >= -(3 + 2 * c.intervalMs()) && extra <= Math.max(6, 0.15 * expected);
  }

  /**
   * Wire bytes to event bytes (chunk framing is a few bytes per frame), from the smallest frames
   * among the cells given: those whose releases the threshold made, when there are any.
   */
  static double bodyRatio(List<CellEvidence> cells) {
    CellEvidence smallest =
        cells.stream()
            .filter(c -> c.frameBytes() > 0)
            .min(Comparator.comparingDouble(CellEvidence::frameBytes))
            .orElse(null);
    return smallest == null ? 1 : Math.min(1, smallest.bodyBytes() / smallest.frameBytes());
  }

  /**
   * What a cell that held nothing says of a buffer's size N: a drained one held less than N before
   * its last frame (that frame may have reached N and left with the end, in the same read), a
   * streamed one's every frame reached it. A compressed stream's last frame is allowed twice its
   * mean size, for the coding's end (gzip's trailer and final block) that leaves with it: a hidden
   * 835 B threshold drained a 25-event stream of 869 B gzip (a CI run of 2026-12-04), and read as
   * above 869 it emptied the span the other cells' releases placed. Null for a cell that held
   * frames: the fit reads those.
   */
  static Span boundByUnheld(Span n, CellEvidence c) {
    if (c.drained()) return n.above(heldBeforeTheLastFrame(c));
    if (c.passedAtOnce()) return n.atMost(c.frameBytes());
    return null;
  }

  /**
   * The bytes a drained cell is known to have held without release: all it sent but its last frame
   * (and a coding's end).
   */
  static double heldBeforeTheLastFrame(CellEvidence c) {
    return Math.max(0, c.totalBytes() - (c.compressed() ? 2 : 1) * c.frameBytes());
  }

  /** "at frame sizes 66, 4102 B and intervals 2, 50 ms": what the answer rests on. */
  static String across(List<CellEvidence> cells) {
    Set<String> sizes = new LinkedHashSet<>();
    Set<String> intervals = new LinkedHashSet<>();
    for (CellEvidence c : cells) {
      sizes.add(Long.toString(Math.round(c.frameBytes())));
      intervals.add(String.format(Locale.ROOT, "%s", trim(c.intervalMs())));
    }
    return "measured at "
        + (sizes.size() == 1 ? "one frame size, " : "frame sizes ")
        + String.join(", ", sizes)
        + " B and "
        + (intervals.size() == 1 ? "one interval, " : "intervals ")
        + String.join(", ", intervals)
        + " ms";
  }

  static String trim(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }

  static double median(List<Double> xs) {
    List<Double> s = new ArrayList<>(xs);
    s.sort(null);
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }

  static double round1(double v) {
    return Math.round(v * 10) / 10.0;
  }
}
