package flushlab.map;

import java.util.Locale;

/**
 * A hold timer before the kernel's cork on the client socket, read as a threshold or a timer: each
 * of the hold's releases waits the cork's ceiling more, so every cell waits the hold and the
 * ceiling together, and the releases of a cell at 2 ms carry hundreds of kilobytes (`cork ->
 * timer=153ms` was answered `threshold-or-timer,bytes=326268B,after=361.6ms`, verified 4 of 4
 * cells, by a chain bench and a map, 2026-12-06; the cork is the socket's for the whole response,
 * wherever a chain names it). Frames further apart than the ceiling and closer than the two
 * together tell them apart: the hold lets each go alone and the cork holds it its ceiling, where a
 * threshold or a timer gathers two.
 */
final class HoldBeforeTheCork {
  private HoldBeforeTheCork() {}

  /** The shortest hold the map's fits of two stages try (HoldingPairFit's grid starts there). */
  static final double MIN_HOLD_MS = 20;

  /**
   * For a threshold or a timer whose time is the cork's ceiling and a hold of at least {@link
   * #MIN_HOLD_MS}: token frames every ceiling and half the hold; null for any other answer.
   */
  static Twin twin(FlushTrigger answer) {
    if (answer.kind() != TriggerKind.THRESHOLD_OR_TIMER || answer.timerMs() == null) return null;
    double hold = answer.timerMs() - CorkAfterFit.CEILING_MS;
    if (hold < MIN_HOLD_MS) return null;
    return new Twin(
        Twin.tokensEvery(CorkAfterFit.CEILING_MS + hold / 2),
        String.format(
            Locale.ROOT,
            "a hold of %.1f ms before the cork would let frames further apart than the cork's"
                + " ceiling go one at a time, where a threshold or a timer of %.1f ms gathers two",
            hold,
            answer.timerMs()),
        seen -> answer(answer, hold, seen));
  }

  private static FlushTrigger answer(FlushTrigger read, double hold, CellEvidence seen) {
    String verdict =
        String.format(
            Locale.ROOT,
            "hold timer: releases %.1f ms after the first byte it holds, then the kernel's cork on"
                + " the client socket (TCP_CORK): each release waited ~%d ms more (its ceiling),"
                + " %.1f ms in all, which cells of frames closer together than that read as a"
                + " threshold or a timer; in %s each frame left alone (%.2f frames a release)"
                + " after %.1f ms",
            hold,
            (int) CorkAfterFit.CEILING_MS,
            read.timerMs(),
            seen.label(),
            seen.releaseFrames(),
            seen.waitP50());
    return FlushTriggerBuilder.builder(read)
        .kind(TriggerKind.TIMER)
        .thresholdBytes(null)
        .thresholdBodyBytes(null)
        .timerMs(hold)
        .verdict(verdict)
        .then(TriggerKind.CORK)
        .build();
  }
}
