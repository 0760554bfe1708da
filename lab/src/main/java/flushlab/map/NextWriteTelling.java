package flushlab.map;

import flushlab.relay.shaper.Compress;
import flushlab.relay.shaper.Cork;
import flushlab.relay.shaper.ShaperRegistry;
import flushlab.relay.shaper.TimerFlush;
import java.util.Arrays;
import java.util.List;

/**
 * The cell that tells a compressor flushing each write when the next comes from one flushing on a
 * timer, where two models beside a compressor reproduced every measured cell alike: frames further
 * apart than the timers.
 */
public final class NextWriteTelling {
  private NextWriteTelling() {}

  /**
   * A cell that tells apart two models beside a compressor that reproduced every measured cell
   * alike, where one compressor flushes each write when the next comes and the other on a timer
   * (`timer=188ms -> compress=gzip,flush=next` and `compress=gzip,flush=timer,after=194ms ->
   * timer=188ms` both reproduced 9 of 9 cells, 2026-12-05): at frames further apart than every
   * timer either names, the first holds each frame until the next one, an interval more, and the
   * second does not. Apart by the timers of either chain together and twice the longest: a frame
   * waits at most the timers of its chain where none flushes on the next write, and a clock's phase
   * moves each side's waits by up to its period, run to run. At twice the longest alone, a clock of
   * 113 ms then a compressor flushing on the next write let frames 227 ms apart wait 227.7 ms on
   * its own model and 337.8 on the target, and the model flushing on a 112.9 ms timer 226.5: both
   * agreed within the clock's period, and the two were named alike (a map, 2026-12-06). The cork
   * holds by a timer too, its ceiling: `cork -> compress=gzip,flush=next` and
   * `compress=gzip,flush=timer,after=29.5ms -> cork` were told by frames 89 ms apart, which the
   * cork gathered three to a release in both, and stayed alike (a map, 2026-12-07). Null for any
   * other pair.
   */
  public static CellPlan of(String chainA, String chainB) {
    List<ShaperRegistry.Spec> a = ChainStages.specs(chainA);
    List<ShaperRegistry.Spec> b = ChainStages.specs(chainB);
    if (a == null || b == null) return null;
    boolean nextA = flushes(a, Compress.Flush.NEXT);
    boolean nextB = flushes(b, Compress.Flush.NEXT);
    if (nextA == nextB || !compresses(a) || !compresses(b)) return null;
    double longest = Math.max(longestTimerMs(a), longestTimerMs(b));
    if (longest <= 0) return null;
    long intervalMs = (long) Math.ceil(Math.max(timersMs(a), timersMs(b)) + 2 * longest);
    return new CellPlan(60, intervalMs * 1_000_000L, TELLING_FRAMES);
  }

  /** The longest a corked frame waited on a real connection ({@link CorkCeiling#OTHERS_MS}). */
  private static final double CORK_CEILING_MS =
      Arrays.stream(CorkCeiling.OTHERS_MS).max().orElseThrow();

  /** Frames of that cell: five releases or so, each one frame. */
  static final int TELLING_FRAMES = 6;

  /** The timers of {@code chain}'s stages together: a hold's, a clock's, a compressor's. */
  private static double timersMs(List<ShaperRegistry.Spec> chain) {
    double sum = 0;
    for (ShaperRegistry.Spec s : chain) sum += timerMs(s);
    return sum;
  }

  private static boolean compresses(List<ShaperRegistry.Spec> chain) {
    return chain.stream().anyMatch(s -> s.type() == Compress.TYPE);
  }

  private static boolean flushes(List<ShaperRegistry.Spec> chain, Compress.Flush flush) {
    return chain.stream()
        .anyMatch(
            s ->
                s.type() == Compress.TYPE
                    && s.choice(Compress.FLUSH, Compress.Flush.class) == flush);
  }

  /** The longest timer a stage of {@code chain} holds by: a hold, a clock or a compressor's. */
  private static double longestTimerMs(List<ShaperRegistry.Spec> chain) {
    double longest = 0;
    for (ShaperRegistry.Spec s : chain) longest = Math.max(longest, timerMs(s));
    return longest;
  }

  /**
   * A stage's timer (a hold's, a clock's, a compressor's, the cork's ceiling at the longest a real
   * connection showed), 0 for one without.
   */
  private static double timerMs(ShaperRegistry.Spec s) {
    if (s.type() == Cork.TYPE) return CORK_CEILING_MS;
    Long nanos =
        s.type() == TimerFlush.TYPE
            ? s.values().get(TimerFlush.AFTER.key())
            : s.type() == Compress.TYPE ? s.values().get(Compress.AFTER.key()) : null;
    return nanos == null ? 0 : nanos / 1e6;
  }
}
