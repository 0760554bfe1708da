package flushlab.map;

import flushlab.relay.shaper.Compress;
import flushlab.relay.shaper.IdleTimeout;
import flushlab.relay.shaper.OneLate;
import flushlab.relay.shaper.ShaperRegistry;
import flushlab.relay.shaper.TimerFlush;
import java.util.List;

/** How far a model's stages may move a cell's waits with where their values or phases fell. */
final class WaitSlack {
  private WaitSlack() {}

  /**
   * How far the oldest frame's wait of a cell may move on {@code model} with where a stage's value
   * or phase fell, at most: one interval for a model with a stage that counts (a value anywhere in
   * the span the map located moves a release by one frame: {@link Double#POSITIVE_INFINITY}, held
   * to the cell's interval), a clock's period where the others are hold timers, one-late or an idle
   * timeout, and nothing for those alone, whose waits a cell's frames do not move. A hold of 39 ms
   * then one of 82 ms let each frame of a cell every 300 ms go after 82 ms on the model and 300 on
   * the target (one-late in front of a hold), and the one-interval floor, 302 ms, called the two
   * alike (a map, 2026-12-06).
   */
  static double movesUpToMs(String model) {
    List<ShaperRegistry.Spec> specs = ChainStages.specs(model);
    if (specs == null) return Double.POSITIVE_INFINITY;
    double moves = 0;
    for (ShaperRegistry.Spec s : specs) {
      if (s.type() == TimerFlush.TYPE && s.values().get(TimerFlush.PERIODIC.key()) == 1)
        moves = Math.max(moves, s.values().get(TimerFlush.AFTER.key()) / 1e6);
      else if (s.type() != TimerFlush.TYPE
          && s.type() != OneLate.TYPE
          && s.type() != IdleTimeout.TYPE
          && !flushesByTime(s)) return Double.POSITIVE_INFINITY;
    }
    return moves;
  }

  /**
   * A compressor that flushes on its timer, on the next write or on each write: it counts nothing,
   * so where a value fell moves no wait by an interval (its timer is a hold's; the next write, as
   * one-late). With an interval's slack, a clock then a compressor on a 112.9 ms timer let frames
   * 453 ms apart go after 114.3 ms, the target after 564.5, and agreed with it (a map of `timer=
   * 113ms,periodic=true -> compress=gzip,flush=next`, 2026-12-06).
   */
  private static boolean flushesByTime(ShaperRegistry.Spec s) {
    if (s.type() != Compress.TYPE) return false;
    Compress.Flush f = s.choice(Compress.FLUSH, Compress.Flush.class);
    return f == Compress.Flush.TIMER || f == Compress.Flush.NEXT || f == Compress.Flush.EACH;
  }
}
