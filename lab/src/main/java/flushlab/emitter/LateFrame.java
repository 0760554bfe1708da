package flushlab.emitter;

import flushlab.core.LoopStallLedger;
import java.util.List;
import java.util.Locale;

/**
 * What held a stream's latest frame, judged in the emitter's own process from the ticks of the loop
 * that wrote it: the loop stalled (and what its thread did then), or the socket was full and the
 * frame left only as the path behind it read. An emitter in another process (on a veth path) judges
 * its own frames and sends the judgement with its audit: only its meter saw its loops.
 */
public final class LateFrame {
  private LateFrame() {}

  /**
   * The judgement.
   *
   * @param why " at 0.83 s into the stream; its loop stalled 36 ms (...)" or similar; empty when
   *     nothing is known of the frame
   * @param byHost the stall that held it was the host's ({@link LoopStallLedger.LoopStall#hosts})
   *     and the host's time then accounts for at least half the lateness, or every stall of its
   *     loop while it waited was the host's and their time together does
   */
  public record Held(String why, boolean byHost) {
    public static final Held UNKNOWN = new Held("", false);
  }

  /** The latest frame of a stream late by {@code latenessNanos}, against {@code ledger}. */
  public static Held of(PacingAudit.Latest latest, long latenessNanos, LoopStallLedger ledger) {
    if (latest == null || latest.loop() == null || latenessNanos <= 0) return Held.UNKNOWN;
    long due = latest.dueNanos();
    long written = due + latenessNanos;
    String at = String.format(" at %.2f s into the stream", (due - latest.streamDueNanos()) / 1e9);
    if (latest.afterFullSocket()) {
      LoopStallLedger.LoopStall any = ledger.longest(null, due, written);
      return new Held(
          at
              + ", waiting for a full socket to drain: the path behind it read late"
              + (any == null
                  ? " (no loop of the emitter's process stalled then)"
                  : " (the longest loop stall then: "
                      + (any.loop() == latest.loop() ? "its own, " : "")
                      + any.describe()
                      + ")"),
          accounts(any, latenessNanos));
    }
    List<LoopStallLedger.LoopStall> all = ledger.overlapping(latest.loop(), due, written);
    LoopStallLedger.LoopStall own = longestOf(all);
    long hostTook = all.stream().mapToLong(LateFrame::hostTook).sum();
    // a frame that waited through several stalls, every one of them the host's, is the host's
    // when their time together covers half its lateness (a suite's frame 34.7 ms late whose
    // longest stall, 11.7 ms, had the host's 16.1 ms in it, among a run of such stalls)
    boolean several =
        all.size() > 1
            && !accounts(own, latenessNanos)
            && all.stream().allMatch(LoopStallLedger.LoopStall::hosts);
    return new Held(
        at
            + (own == null ? "; its loop logged no stall then" : "; its loop " + own.describe())
            + (several
                ? String.format(
                    Locale.ROOT,
                    "; over %d stalls of its loop while the frame waited the host took %.1f ms",
                    all.size(),
                    hostTook / 1e6)
                : ""),
        accounts(own, latenessNanos) || several && hostTook >= latenessNanos / 2);
  }

  /** The longest of {@code stalls}, the first of equals (as the ledger's own), or null. */
  private static LoopStallLedger.LoopStall longestOf(List<LoopStallLedger.LoopStall> stalls) {
    LoopStallLedger.LoopStall best = null;
    for (LoopStallLedger.LoopStall s : stalls)
      if (best == null || s.nanos() > best.nanos()) best = s;
    return best;
  }

  /**
   * The host's time over a stall of the host's (0 for one that was not): the longer of the stall
   * and what its thread waited for a core or stood with the JVM between the loop's two ticks.
   */
  private static long hostTook(LoopStallLedger.LoopStall stall) {
    if (!stall.hosts()) return 0;
    return Math.max(
        stall.nanos(), Math.max(0, stall.waitedNanos()) + Math.max(0, stall.jvmStoppedNanos()));
  }

  /**
   * The host's stall, and the host's time over it covers half the lateness or more. The host's time
   * is the longer of the stall and what its thread waited for a core or stood with the JVM between
   * the loop's two ticks: a thread that woke for the frame's own timer and then waited for a core
   * is late by that wait, which the ticks see only in part (a frame 21.2 ms late, its loop's stall
   * 9.3 ms, the thread waiting for a core 15.9 ms of the 19.3 ms between ticks, running 2.7).
   */
  private static boolean accounts(LoopStallLedger.LoopStall stall, long latenessNanos) {
    return stall != null && hostTook(stall) >= latenessNanos / 2;
  }
}
