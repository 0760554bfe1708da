package flushlab.map;

import java.util.Locale;

/**
 * A hold timer or a clock before the kernel's cork on the client socket, read as a threshold or a
 * timer: each of the stage's releases waits the cork's ceiling more, so every cell waits the hold
 * and the ceiling together, and the releases of a cell at 2 ms carry hundreds of kilobytes (`cork
 * -> timer=153ms` was answered `threshold-or-timer,bytes=326268B,after=361.6ms`, verified 4 of 4
 * cells, by a chain bench and a map, 2026-12-06; the cork is the socket's for the whole response,
 * wherever a chain names it). Frames further apart than the ceiling and closer than the two
 * together tell them apart: the stage lets each go alone and the cork holds it its ceiling, where a
 * threshold or a timer gathers two.
 */
final class HoldBeforeTheCork {
  private HoldBeforeTheCork() {}

  /** The shortest hold the map's fits of two stages try (HoldingPairFit's grid starts there). */
  static final double MIN_HOLD_MS = 20;

  /**
   * For a threshold or a timer whose time is the cork's ceiling and a hold of at least {@link
   * #MIN_HOLD_MS}: token frames every ceiling and half the hold, their releases' frames counted
   * exactly (the threshold or timer gathers two where the stage lets each go alone: one frame a
   * release more, under the quarter a replay allows); null for any other answer. The stage is a
   * hold or a clock, which that cell alone does not name, so the pairs are fitted with it among the
   * other cells: named a hold from it, `timer=150ms,periodic=true -> cork` would have been answered
   * a hold (it was answered `threshold-or-timer,after=357.4ms`, that cell compared with a frame's
   * slack: `flushlab map`, 2026-12-07).
   */
  static Twin twin(FlushTrigger answer) {
    if (answer.kind() != TriggerKind.THRESHOLD_OR_TIMER || answer.timerMs() == null) return null;
    double hold = answer.timerMs() - CorkAfterFit.CEILING_MS;
    if (hold < MIN_HOLD_MS) return null;
    return new Twin(
        Twin.tokensEvery(CorkAfterFit.CEILING_MS + hold / 2),
        String.format(
            Locale.ROOT,
            "a hold or a clock of about %.1f ms before the cork would let frames further apart"
                + " than the cork's ceiling go one at a time, where a threshold or a timer of %.1f"
                + " ms gathers two",
            hold,
            answer.timerMs()),
        null,
        Twin.Held.TO_ITS_FRAMES);
  }
}
