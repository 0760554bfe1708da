package flushlab.map;

import static flushlab.map.TriggerInferenceTest.drained;
import static flushlab.map.TriggerInferenceTest.held;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Candidates of a holding stage then one-late, from cells as `map --shape 'byte-threshold=2084B ->
 * one-late'` measured them (2026-12-04; no network here): 60 B frames leave 32 at a time (2112 B)
 * every 64 ms, but the oldest waited 126 ms, one release more than the buffer holds them; 4 KiB
 * frames pass the buffer and wait one interval each; a 1650 B stream never filled it.
 */
class OneLateAfterFitTest {
  static final List<CellEvidence> BUFFER_THEN_ONE_LATE =
      List.of(
          held(66, 2, 600, 32, 126.2, 64.0),
          held(4104, 2, 600, 1, 2.0, 2.0),
          drained(66, 50, 25),
          held(66, 10, 120, 32, 630.1, 320.1),
          held(1031, 20, 60, 3, 100.2, 60.0));

  @Test
  void aBufferWhoseReleasesWaitOneReleaseMoreIsTheBufferThenOneLate() {
    FlushTrigger single = TriggerInference.infer("x", BUFFER_THEN_ONE_LATE);
    assertThat(single.kind()).as(single.verdict()).isEqualTo(TriggerKind.INCONCLUSIVE);

    List<TwoStageCandidate> two = OneLateAfterFit.candidates("x", BUFFER_THEN_ONE_LATE);
    // 32 frames of 66 B reach it and 31 do not; 2 frames of 1031 B do not either
    assertThat(SocketStageFitTest.thresholdThen(two, TriggerKind.ONE_LATE))
        .isBetween(2 * 1031 + 1, 32 * 66);
    assertThat(two.get(0).socketStage()).isFalse();
    assertThat(ShaperModel.of(two.get(0).answer()).alike())
        .as("one-late first would delay each release by one interval, not one release")
        .isEmpty();
  }

  /**
   * A hold timer of 120 ms then one-late, as `map --shape 'timer=120ms -> one-late'` measured it:
   * each release 120 ms after its oldest frame plus a whole interval, which then waits for the next
   * release too.
   */
  @Test
  void aHoldWhoseReleasesWaitOneReleaseMoreIsTheHoldThenOneLate() {
    List<CellEvidence> cells =
        List.of(
            held(66, 2, 600, 61, 242.2, 122.0),
            held(4104, 2, 600, 61, 242.3, 122.0),
            held(66, 50, 25, 3, 270.5, 150.1),
            held(66, 10, 120, 13, 250.3, 130.0),
            held(1031, 20, 60, 7, 260.4, 140.0));
    assertThat(TriggerInference.infer("x", cells).kind()).isEqualTo(TriggerKind.INCONCLUSIVE);
    List<TwoStageCandidate> two = OneLateAfterFit.candidates("x", cells);
    assertThat(two)
        .extracting(TwoStageCandidate::chain)
        .anyMatch(c -> c.matches("timer=120(\\.\\d)?ms -> one-late"));
  }

  /**
   * Waits of twice the gap between releases, in every cell alike: not a hold of twice as long,
   * whose releases would come at least that far apart (a 98 ms timer then one-late, mapped with
   * cells at 2 and 50 ms only, was once answered as a hold of 197.5 ms).
   */
  @Test
  void waitsOfTwoReleasesAreNotOneHoldOfTwiceTheLength() {
    List<CellEvidence> cells =
        List.of(
            held(66, 2, 600, 49, 196.2, 98.0),
            held(4104, 2, 600, 49, 196.3, 98.0),
            held(66, 50, 25, 2, 198.4, 100.1));
    FlushTrigger single = TriggerInference.infer("x", cells);
    assertThat(single.kind()).as(single.verdict()).isNotEqualTo(TriggerKind.TIMER);
    assertThat(OneLateAfterFit.candidates("x", cells))
        .extracting(TwoStageCandidate::chain)
        .anyMatch(c -> c.matches("timer=98(\\.\\d)?ms -> one-late"));
  }

  /**
   * A hold of 98 ms then one-late, at intervals that all divide 100 ms (as `map --shape 'timer=98ms
   * -> one-late'` measured it): a clock of 100 ms in front of one-late does the same to every cell,
   * so the map measures the cell that parts them, small frames every 40 ms (a hold then releases
   * 120 ms apart, a clock 100 ms), and with it only the hold remains.
   */
  @Test
  void aHoldAndAClockInFrontOfOneLateArePartedByTheCellThatPartsThemAlone() {
    List<CellEvidence> cells =
        new ArrayList<>(
            List.of(
                held(66, 2, 600, 50, 198.2, 100.0),
                held(4104, 2, 600, 50, 198.4, 99.9),
                held(66, 50, 25, 2, 198.4, 100.0),
                held(66, 10, 120, 10, 198.2, 100.1),
                held(1031, 20, 60, 5, 198.2, 100.0)));
    assertThat(OneLateAfterFit.candidates("x", cells)).hasSize(2);
    List<CellPlan> next = TriggerInference.nextPlans(cells);
    assertThat(next).first().isEqualTo(Discovery.phaseProbe(100.0));
    assertThat(next.get(0).intervalNanos()).isEqualTo(40_000_000L);

    cells.add(held(66, 40, 17, 3, 218.3, 120.1));
    assertThat(OneLateAfterFit.candidates("x", cells))
        .extracting(TwoStageCandidate::chain)
        .singleElement()
        .matches(c -> c.matches("timer=98(\\.\\d)?ms -> one-late"));
  }

  /**
   * Waits of one release, not two: the holding stage alone, which the single fits name; no second
   * stage is made up.
   */
  @Test
  void aBufferAloneGivesNoCandidateOfOneLate() {
    List<CellEvidence> cells =
        List.of(
            held(66, 2, 600, 32, 62.1, 64.0),
            held(4104, 2, 600, 1, 0.2, 2.0),
            drained(66, 50, 25),
            held(66, 10, 120, 32, 310.1, 320.1),
            held(1031, 20, 60, 3, 40.2, 60.0));
    assertThat(TriggerInference.infer("x", cells).kind()).isEqualTo(TriggerKind.BYTE_THRESHOLD);
    assertThat(OneLateAfterFit.candidates("x", cells)).isEmpty();
  }

  @Test
  void oneLateAloneGivesNoCandidate() {
    List<CellEvidence> cells =
        List.of(
            held(66, 2, 600, 1, 2.0, 2.0),
            held(66, 50, 25, 1, 50.1, 50),
            held(1031, 20, 60, 1, 20.1, 20));
    assertThat(OneLateAfterFit.candidates("x", cells)).isEmpty();
  }

  /**
   * One-late behind one-late (two writers that each wait for the next event), as `map --shape
   * 'one-late -> one-late'` measured it (2026-12-05): one frame a release, every frame two
   * intervals late, at 2 ms and at 50 ms alike. No single mechanism explains a wait that is twice
   * any interval.
   */
  @Test
  void framesTwoIntervalsLateAtEveryIntervalAreOneLateTwice() {
    List<CellEvidence> cells =
        List.of(
            held(66, 2, 600, 1, 4.0, 2.0),
            held(4104, 2, 600, 1, 4.0, 2.0),
            held(66, 50, 25, 1, 100.2, 50.0),
            held(54, 2, 24, 1, 4.0, 2.0));
    FlushTrigger single = TriggerInference.infer("x", cells);
    assertThat(single.kind()).as(single.verdict()).isNotEqualTo(TriggerKind.ONE_LATE);
    assertThat(OneLateAfterFit.candidates("x", cells))
        .extracting(TwoStageCandidate::chain)
        .contains("one-late -> one-late");
    // one interval late in every cell is one-late alone, with nothing in front of it
    List<CellEvidence> once =
        List.of(
            held(66, 2, 600, 1, 2.0, 2.0),
            held(4104, 2, 600, 1, 2.0, 2.0),
            held(66, 50, 25, 1, 50.1, 50.0));
    assertThat(OneLateAfterFit.candidates("x", once))
        .extracting(TwoStageCandidate::chain)
        .doesNotContain("one-late -> one-late");
  }
}
