package flushlab.map;

import flushlab.netpath.NetworkPath;
import java.util.ArrayList;
import java.util.List;

/**
 * The holding stages a model of two stages may start with (a byte threshold, a hold timer and,
 * where the second stage keeps the first one's clock, a periodic timer), each fitted to cells read
 * back as that stage released them: every one that fits, simplest first.
 */
final class HoldingStageFits {
  private HoldingStageFits() {}

  /**
   * The cells a two-stage fit reads: those with a stream, without the think cell (whose stream is
   * held whole by a timer's check).
   */
  static List<CellEvidence> fittable(List<CellEvidence> cells) {
    return cells.stream().filter(c -> c.streams() > 0 && !c.thinks()).toList();
  }

  /** One line of evidence per cell. */
  static List<String> described(List<CellEvidence> cells) {
    return new ArrayList<>(cells.stream().map(CellEvidence::describe).toList());
  }

  /**
   * Every stage that fits {@code released}: the cells as the stage let them go, their waits read
   * back by taking off the second stage's delay, which is known to within {@code readShortMs}
   * ({@link HoldTimerFit#fit(List, List, double)}); with a periodic timer only {@code withClock}.
   */
  static List<FlushTrigger> of(
      String target,
      List<CellEvidence> released,
      List<String> evidence,
      NetworkPath path,
      boolean withClock,
      double readShortMs) {
    List<String> scratch = new ArrayList<>();
    List<FlushTrigger> out = new ArrayList<>();
    Span bytes = ByteThresholdFit.fit(released, scratch);
    if (bytes != null) out.add(ByteThresholdFit.answer(target, bytes, released, evidence));
    Double hold = HoldTimerFit.fit(released, scratch, readShortMs);
    if (hold != null) out.add(HoldTimerFit.answer(target, hold, released, evidence, path));
    Double period = withClock ? PeriodicTimerFit.fit(released, scratch) : null;
    if (period != null) out.add(PeriodicTimerFit.answer(target, period, released, evidence));
    return out;
  }
}
