package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The twins of two stages an answer of one mechanism is held to before it is given, each with the
 * cell that tells them apart: one-late in front of a hold (a cell of frames 1.5 holds apart), a
 * hold before the cork read as a threshold or a timer (frames further apart than the cork's ceiling
 * and closer than the two together). The figures are those of `flushlab map --shape 'cork ->
 * timer=153ms' --verify` (2026-12-06), answered `threshold-or-timer,bytes=326268B,after=362ms`
 * until this check.
 */
class TwinTest {
  private static FlushTrigger answer(TriggerKind kind, Double bytes, Double ms) {
    return new FlushTrigger("x", kind, bytes, null, ms, null, "one", List.of(), List.of());
  }

  /**
   * A telling cell as the target showed it: one frame a release, each waiting about {@code waitMs}.
   */
  private static CellEvidence seen(CellPlan plan, double waitMs) {
    return cell(plan, 1.14, waitMs - 1, waitMs, waitMs + 1, 286);
  }

  private static CellEvidence cell(
      CellPlan plan, double framesPerRead, double p10, double p50, double p90, double gapMs) {
    return new CellEvidence(
        plan.toString(),
        66,
        60,
        plan.intervalNanos() / 1e6,
        plan.frames(),
        1,
        framesPerRead,
        5,
        1,
        p10,
        p50,
        p90,
        gapMs - 2,
        gapMs,
        gapMs + 6,
        p50,
        false);
  }

  @Test
  void aHoldAloneIsHeldToFramesOneAndAHalfHoldsApart() {
    Twin t = Twin.of(answer(TriggerKind.TIMER, null, 227.3), List.of());
    assertThat(t.cell()).isEqualTo(new CellPlan(60, 341_000_000L, 8));
    FlushTrigger inFront = t.answer().apply(seen(t.cell(), 341.4));
    assertThat(ShaperModel.of(inFront).chain()).isEqualTo("one-late -> timer=227.3ms");
    assertThat(inFront.verdict()).contains("each frame waited 341.4 ms, one interval");
  }

  @Test
  void aThresholdOrTimerOverTheCorksCeilingIsHeldToFramesJustOverIt() {
    Twin t = Twin.of(answer(TriggerKind.THRESHOLD_OR_TIMER, 326268.0, 362.0), List.of());
    // the stage's time is the time less the ceiling (210 ms); the cell's frames come the ceiling
    // and half that apart
    assertThat(t.cell()).isEqualTo(new CellPlan(60, 286_000_000L, 8));
    assertThat(t.held())
        .as("one frame a release or two is all that parts them")
        .isEqualTo(Twin.Held.TO_ITS_FRAMES);
    assertThat(t.answer())
        .as("a hold or a clock: the pairs are fitted with the cell among the others")
        .isNull();
    assertThat(t.why()).contains("a hold or a clock of about 152.0 ms");
  }

  /**
   * A clock alone: the frames of `map --shape 'timer=178ms,periodic=true' --shape timer=55ms` came
   * 173 ms apart, 5.3 ms under its fitted 178.3 ms period, so each met a tick 11 to 32 ms after it
   * came; the hold behind it kept them 55 ms.
   */
  @Test
  void aClockAloneIsHeldToFramesJustUnderItsPeriodApart() {
    Twin t = Twin.of(answer(TriggerKind.PERIODIC_TIMER, null, 178.3), List.of());
    assertThat(t.cell()).isEqualTo(new CellPlan(60, 173_000_000L, 8));
    assertThat(t.held()).isEqualTo(Twin.Held.AT_ITS_PHASE);
    assertThat(t.why()).contains("10.6 to 31.8 ms after it came");
    FlushTrigger both = t.answer().apply(waited(t.cell(), 55.2, 55.6, 56.0));
    assertThat(ShaperModel.of(both).chain())
        .isEqualTo("timer=178.3ms,periodic=true -> timer=55.2ms");
    assertThat(both.verdict()).contains("waited 55.2 ms at least");
    assertThat(t.answer().apply(waited(t.cell(), 10.9, 21.4, 31.6)))
        .as("the clock alone's waits: no hold shows")
        .isNull();
    assertThat(t.answer().apply(waited(t.cell(), 180.0, 181.0, 182.0)))
        .as("a period or more is no hold behind the clock")
        .isNull();
  }

  /**
   * s300: `timer=246ms,periodic=true` alone, its telling cell of frames 240 ms apart waited 33.1 ms
   * at least (median 45.7) on the target, its first frame 260.3 ms, where the clock's replay (as
   * that suite's median, 25.2 ms, shows) fell 20.5 ms earlier against the ticks: every wait moved
   * alike, so the clock alone agrees once its waits are read from where its frames fell. A hold
   * clamps the waits instead, and a target whose first frame a hold may have set is held to the
   * values alone.
   */
  @Test
  void aClocksTellingCellIsReadAtEachRunsOwnPhase() {
    String model = "timer=246.3ms,periodic=true";
    CellEvidence target = telling246(45.7, 33.1, 250.5, 260.3);
    CellEvidence replay = telling246(25.2, 12.6, 230.0, 239.8);
    assertThat(Replay.heldToItsValues(model, target, replay))
        .as("held to its values alone, the phase reads as a hold")
        .isNotNull();
    assertThat(HoldBehindAClock.difference(model, 246.3, target, replay)).isNull();
    assertThat(
            HoldBehindAClock.difference(model, 246.3, telling246(45.7, 33.1, 250.5, 239.9), replay))
        .as("a hold: the first frames fell alike, the waits did not")
        .isNotNull();
    assertThat(
            HoldBehindAClock.difference(model, 246.3, telling246(45.7, 33.1, 250.5, 33.1), replay))
        .as("a first frame under the period, which a hold may have set: its values alone")
        .isNotNull();
  }

  /** s300's telling cell of frames 240 ms apart, its waits and its first frame's as given. */
  private static CellEvidence telling246(double p50, double p10, double p90, double first) {
    return EvidenceLine.parse(
        String.format(
            Locale.ROOT,
            "frame_size=60B interval=240ms frames=8: 1.14 frames/read; 5.0 releases per stream of 1"
                + " frames (p10 1, p90 2); the oldest frame waited %.1f ms (p10 %.1f, p90 %.1f);"
                + " 246.4 ms between releases (p10 246.2, p90 246.5); 66 B per frame on the wire, 66"
                + " B per release (p10 66, p90 132); the first frame waited %.1f ms",
            p50,
            p10,
            p90,
            first));
  }

  @Test
  void aShortClocksTellingFramesComeAtLeastFourMillisecondsUnderItsPeriod() {
    Twin t = Twin.of(answer(TriggerKind.PERIODIC_TIMER, null, 61.4), List.of());
    assertThat(t.cell()).isEqualTo(new CellPlan(60, 57_000_000L, 8));
  }

  private static CellEvidence waited(CellPlan plan, double p10, double p50, double p90) {
    return cell(plan, 1.0, p10, p50, p90, plan.intervalNanos() / 1e6);
  }

  @Test
  void otherAnswersHaveNoTwin() {
    assertThat(Twin.of(answer(TriggerKind.THRESHOLD_OR_TIMER, 2500.0, 225.0), List.of()))
        .as("a time under the ceiling and the shortest hold")
        .isNull();
    assertThat(Twin.of(answer(TriggerKind.BYTE_THRESHOLD, 2500.0, null), List.of())).isNull();
    assertThat(
            Twin.of(
                answer(TriggerKind.PERIODIC_TIMER, null, 200.0).followedBy(TriggerKind.NAGLE, "x"),
                List.of()))
        .as("a clock already followed")
        .isNull();
    assertThat(
            Twin.of(
                answer(TriggerKind.TIMER, null, 200.0).followedBy(TriggerKind.NAGLE, "x"),
                List.of()))
        .as("already two stages")
        .isNull();
  }
}
