package flushlab.run;

import flushlab.core.LoopStallLedger;
import flushlab.emitter.PacingAudit;

/**
 * What held the emitter's latest frame, from the ticks of the loop that wrote it (an emitter in
 * this process only): the loop stalled (and what its thread did then), or the socket was full and
 * the frame left only as the path behind it read. Named in the exclusion, so that an emitter late
 * with no host stall logged says where to look.
 *
 * @param why ", at 0.83 s; its loop stalled 36 ms (...)" or similar; empty when nothing is known of the frame
 * @param byHost the stall that held it was the host's ({@link LoopStallLedger.LoopStall#hosts}) and
 *     long enough to account for at least half the lateness
 */
record LateWrite(String why, boolean byHost) {
  private static final LateWrite UNKNOWN = new LateWrite("", false);

  static LateWrite of(PacingAudit.Latest latest, long latenessNanos, long runStartNanos, LoopStallLedger ledger) {
    if (latest == null || latest.loop() == null) return UNKNOWN;
    long due = latest.dueNanos();
    long written = due + latenessNanos;
    String at = String.format(" at %.2f s", (due - runStartNanos) / 1e9);
    if (latest.afterFullSocket()) {
      LoopStallLedger.LoopStall any = ledger.longest(null, due, written);
      return new LateWrite(at + ", waiting for a full socket to drain: the path behind it read late"
          + (any == null ? " (no loop of this process stalled then)" : " (the longest loop stall then: " + (any.loop() == latest.loop() ? "its own, " : "")
              + any.describe() + ")"), accounts(any, latenessNanos));
    }
    LoopStallLedger.LoopStall own = ledger.longest(latest.loop(), due, written);
    return new LateWrite(at + (own == null ? "; its loop logged no stall then" : "; its loop " + own.describe()), accounts(own, latenessNanos));
  }

  private static boolean accounts(LoopStallLedger.LoopStall stall, long latenessNanos) {
    return stall != null && stall.hosts() && stall.nanos() >= latenessNanos / 2;
  }
}
