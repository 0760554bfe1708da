package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.relay.shaper.ShaperRegistry;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * The inference on cells made up from what each mechanism does (no network): the cases a relay
 * cannot easily produce on demand, and the wording rules.
 */
class TriggerInferenceTest {

  /**
   * A held cell: r frames per release of wire size f every i ms, the oldest waiting w ms (p10 p50
   * p90 w-0.2, w, w+0.3), releases g ms apart.
   */
  static CellEvidence held(double f, double i, int frames, double r, double w, double g) {
    return new CellEvidence(
        String.format("f=%.0f i=%.0f", f, i),
        f,
        f - 6,
        i,
        frames,
        1,
        r,
        frames / r - 2,
        r,
        w - 0.2,
        w,
        w + 0.3,
        g - 0.2,
        g,
        g + 0.2,
        w,
        false);
  }

  static CellEvidence streamed(double f, double i, int frames) {
    return new CellEvidence(
        String.format("f=%.0f i=%.0f", f, i),
        f,
        f - 6,
        i,
        frames,
        1,
        1.0,
        frames - 2,
        1,
        0.1,
        0.2,
        0.3,
        i - 0.1,
        i,
        i + 0.1,
        0.5,
        false);
  }

  static CellEvidence drained(double f, double i, int frames) {
    return new CellEvidence(
        String.format("f=%.0f i=%.0f", f, i),
        f,
        f - 6,
        i,
        frames,
        1,
        frames,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        (frames - 1) * i,
        true);
  }

  /**
   * Every frame waits for nine more, whatever its size or interval: a mechanism no built-in relay
   * has.
   */
  @Test
  void anEventCountIsRecognisedAndNamed() {
    FlushTrigger t =
        TriggerInference.infer(
            "x",
            List.of(
                held(66, 2, 600, 10, 18, 20),
                held(4102, 2, 600, 10, 18, 20),
                held(66, 50, 60, 10, 450, 500)));
    assertThat(t.kind()).as(t.verdict()).isEqualTo(TriggerKind.EVENT_COUNT);
    assertThat(t.events()).isEqualTo(10);
    assertThat(t.verdict()).contains("does not model");
  }

  /**
   * The same frames a release at two sizes but one interval, the long interval's short stream held
   * to its end: a hold timer in front of a byte threshold does that too (bench/chains.sh, seed
   * 20261204: timer=110ms -> byte-threshold=1809B), so no event count is claimed.
   */
  @Test
  void anEventCountSeenAtOneIntervalOnlyIsNotClaimed() {
    FlushTrigger t =
        TriggerInference.infer(
            "x",
            List.of(
                held(66, 2, 600, 56, 110, 112),
                held(4102, 2, 600, 56, 110, 112),
                drained(66, 50, 25)));
    assertThat(t.kind()).as(t.verdict()).isEqualTo(TriggerKind.INCONCLUSIVE);
    assertThat(t.next()).as("cells that would tell them apart").isNotEmpty();
  }

  /**
   * A cell that fell behind a window of 40 kB granted every 50 ms (0.8 kB/ms against the 2 kB/ms it
   * sent): the first window's frames left one by one, the rest in grants of 40 kB; its p90 wait is
   * what a backlog growing at that rate gives. The small-frame cells stream.
   */
  static CellEvidence behindAWindow(double grantBytes, double gapP90, double waitP90) {
    return new CellEvidence(
        "f=4104 i=2",
        4104,
        4096,
        2,
        600,
        1,
        3.0,
        60,
        4,
        0.1,
        700,
        waitP90,
        2.0,
        50.2,
        gapP90,
        0.2,
        false,
        null,
        4104,
        16416,
        grantBytes);
  }

  @Test
  void aWindowIsNamedFromTheGrantsOfTheCellThatFellBehind() {
    FlushTrigger t =
        TriggerInference.infer(
            "x",
            List.of(streamed(66, 2, 600), behindAWindow(40000, 50.4, 1692), streamed(66, 50, 25)));
    assertThat(t.kind()).as(t.verdict()).isEqualTo(TriggerKind.WINDOW);
    assertThat(t.thresholdBytes()).isEqualTo(40000.0);
    assertThat(t.timerMs()).isEqualTo(50.4);
  }

  /**
   * A 32 KiB window granted as bytes are consumed, 50 ms later (at most 655 B/ms): the suite run of
   * 2026-12-03 read its p90 release as 27439 B and its p90 gap as 36.9 ms, 744 B/ms together, while
   * its backlog grew as if 655 B/ms passed. The answer's grant and period never state a rate above
   * the one that passed.
   */
  @Test
  void aWindowsGrantAndPeriodNeverStateMoreThanPassed() {
    FlushTrigger t =
        TriggerInference.infer(
            "x",
            List.of(streamed(66, 2, 600), behindAWindow(27439, 36.9, 2305), streamed(66, 50, 25)));
    assertThat(t.kind()).as(t.verdict()).isEqualTo(TriggerKind.WINDOW);
    assertThat(t.thresholdBytes()).isEqualTo(27439.0);
    double passed = 0.9 * 600 * 4104 / (2305 + 0.9 * 1198);
    assertThat(t.thresholdBytes() / t.timerMs())
        .as(t.verdict())
        .isLessThanOrEqualTo(passed * 1.001)
        .isGreaterThan(passed * 0.99);
  }

  /**
   * Grants of 12 kB every 42 ms are 0.29 kB/ms, but the backlog grew as if 0.64 kB/ms passed: no
   * burst size explains it, and none is given.
   */
  @Test
  void aCellThatFellBehindWithoutBurstsOfItsRateIsNotAWindow() {
    FlushTrigger t =
        TriggerInference.infer(
            "x",
            List.of(streamed(66, 2, 600), behindAWindow(12300, 42, 2397), streamed(66, 50, 25)));
    assertThat(t.kind()).as(t.verdict()).isEqualTo(TriggerKind.INCONCLUSIVE);
    assertThat(t.verdict()).contains("falls behind").contains("2397 ms");
  }

  /**
   * One frame per release, waiting one interval at 2 ms and at 50 ms: one event late, not a 50 ms
   * timer (which would hold 25 frames at 2 ms).
   */
  @Test
  void aWaitThatFollowsTheIntervalIsOneLateNotATimer() {
    FlushTrigger t =
        TriggerInference.infer(
            "x",
            List.of(
                held(66, 2, 600, 1, 2.0, 2.0),
                held(4102, 2, 600, 1, 1.9, 2.0),
                held(66, 50, 25, 1, 50.1, 50.0)));
    assertThat(t.kind()).as(t.verdict()).isEqualTo(TriggerKind.ONE_LATE);
    FlushTrigger timer =
        TriggerInference.infer(
            "x",
            List.of(
                held(66, 2, 600, 25, 48, 50),
                held(4102, 2, 600, 25, 48, 50),
                held(66, 50, 25, 1, 50.1, 50.0)));
    assertThat(timer.kind()).as(timer.verdict()).isNotEqualTo(TriggerKind.ONE_LATE);
  }

  /**
   * One event late with the first frame let go at once in the 50 ms cell (it came with the response
   * head, as H2O's brotli lets it): still one-late, and said. A first frame that waited half an
   * interval does not decide either (the first release carries the response head, and no fit
   * reasons from it): one-late, with that wait named.
   */
  @Test
  void oneLateWithTheFirstFrameLetGoAtOnceIsStillOneLate() {
    CellEvidence firstFree =
        new CellEvidence(
            "f=66 i=50", 66, 60, 50, 25, 1, 1, 23, 1, 49.9, 50.1, 50.4, 49.8, 50, 50.2, 0.2, false);
    FlushTrigger t =
        TriggerInference.infer(
            "x",
            List.of(held(66, 2, 600, 1, 2.1, 2.0), held(4102, 2, 600, 1, 2.1, 2.0), firstFree));
    assertThat(t.kind()).as(t.verdict()).isEqualTo(TriggerKind.ONE_LATE);
    assertThat(String.join("; ", t.evidence()))
        .contains("the first frame left at once in 1 of 3 cells");
    CellEvidence firstHalf =
        new CellEvidence(
            "f=66 i=50", 66, 60, 50, 25, 1, 1, 23, 1, 49.9, 50.1, 50.4, 49.8, 50, 50.2, 25, false);
    FlushTrigger half =
        TriggerInference.infer(
            "x",
            List.of(held(66, 2, 600, 1, 2.1, 2.0), held(4102, 2, 600, 1, 2.1, 2.0), firstHalf));
    assertThat(half.kind()).as(half.verdict()).isEqualTo(TriggerKind.ONE_LATE);
    assertThat(String.join("; ", half.evidence()))
        .contains("waited neither one interval nor nothing (25.0 ms at 50 ms)");
  }

  /**
   * A byte threshold of ~430 B at 1 ms frames whose 60 B frames came a little bunched: seven per
   * release, the oldest waiting 2.4-5 ms, not the 6 ms seven frames take. Its waits and the 150 B
   * cell's (three frames, 1.9 ms) are alike within the noise, but a hold of ~2 ms lets through
   * three or four 1 ms frames, never seven: a byte threshold, not "a byte threshold and a hold
   * timer alike" (as a CI run on 2026-12-02 answered).
   */
  @Test
  void aHoldTimerMustHoldNoMoreFramesThanArriveWithinIt() {
    CellEvidence small =
        new CellEvidence(
            "f=66 i=1", 66, 60, 1, 36, 1, 6.4, 3, 7, 2.4, 4.9, 5.0, 3.5, 6.0, 10.0, 5.6, false);
    CellEvidence large =
        new CellEvidence(
            "f=156 i=1", 156, 150, 1, 36, 1, 2.91, 9, 3, 1.9, 1.9, 2.0, 2.8, 3.0, 3.0, 1.1, false);
    FlushTrigger t = TriggerInference.infer("x", List.of(small, large));
    assertThat(t.kind()).as(t.verdict()).isEqualTo(TriggerKind.BYTE_THRESHOLD);
    assertThat(t.thresholdBytes()).isBetween(396.0, 468.0);
  }

  /**
   * A 367 ms hold on a busy host (a CI run of 2026-12-03, three cells of it): the oldest frames of
   * the 2 ms cells waited up to 376 ms, so a release carried 187 frames, more than 367 / 2 + 2.
   * What arrived within the cell's own longest wait is the bound: a timer, not "inconclusive".
   */
  @Test
  void aHoldTimersReleaseMayCarryWhatArrivedWithinItsCellsLongestWait() {
    assertInferred(
        TriggerKind.TIMER,
        360,
        380,
        busy(66, 60, 2, 600, 150, 2, 187, 370.6, 371.0, 376.4, 370.9, 371.0, 376.7, 367.8),
        busy(4104, 4096, 2, 600, 15.39, 2, 184, 367.8, 368.0, 375.4, 368.3, 368.3, 368.3, 375.4),
        busy(66, 60, 50, 25, 6.25, 2, 8, 367.5, 367.6, 368.5, 399.2, 400.0, 401.1, 367.5));
  }

  /**
   * A 268 ms periodic timer on a busy host (a CI run of 2026-12-03): its 550 KB releases of 4 KB
   * frames reached the client up to 25 ms after the tick (the oldest frame's p90 wait 292.8 ms). As
   * their gaps are, their waits are left out: the clock is read from the smaller releases.
   */
  @Test
  void aPeriodicTimersLargeReleasesDoNotTimeTheClock() {
    assertInferred(
        TriggerKind.PERIODIC_TIMER,
        265,
        271,
        busy(66, 60, 2, 600, 120, 3, 134, 267.6, 267.8, 269.2, 268.3, 268.3, 268.4, 269.2),
        busy(4104, 4096, 2, 600, 14.63, 3, 134, 267.4, 267.9, 292.8, 268.4, 268.7, 268.7, 292.5),
        busy(66, 60, 50, 25, 5, 3, 5, 223.2, 236.8, 255.0, 268.2, 268.3, 268.7, 268.4),
        busy(66, 60, 10, 120, 24, 3, 27, 262.4, 264.2, 266.0, 268.2, 268.2, 268.3, 268.0));
  }

  /**
   * A 2634 B gzip buffer as a browser sees it, under a CPU hog (a suite run of 2026-12-03): the 60
   * B cell's median release carried 96 events while its oldest waited 186.3 ms, 93 intervals, two
   * events read past the threshold with it. Still a byte threshold, located by its releases.
   */
  @Test
  void aReleaseReadWithTwoFramesPastTheThresholdIsStillAThreshold() {
    FlushTrigger t =
        TriggerInference.infer(
            "x",
            List.of(
                new CellEvidence(
                    "f=28 i=2",
                    28,
                    60,
                    2,
                    600,
                    1,
                    85.71,
                    5,
                    96,
                    184.1,
                    186.3,
                    198.2,
                    186.0,
                    188.1,
                    200.1,
                    172.0,
                    false,
                    "gzip",
                    2600,
                    2655,
                    2700),
                new CellEvidence(
                    "f=64 i=2",
                    64,
                    4096,
                    2,
                    600,
                    1,
                    40.0,
                    13,
                    41,
                    80.0,
                    80.0,
                    82.1,
                    82.0,
                    82.1,
                    84.1,
                    79.4,
                    false,
                    "gzip",
                    2600,
                    2661,
                    2700),
                new CellEvidence(
                    "f=34 i=50",
                    34,
                    60,
                    50,
                    25,
                    1,
                    25,
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    1200,
                    true,
                    "gzip",
                    0,
                    0,
                    0)));
    assertThat(t.kind()).as(t.verdict()).isEqualTo(TriggerKind.BYTE_THRESHOLD);
    assertThat(t.thresholdBytes()).as(t.verdict()).isBetween(2634 * 0.9, 2634 * 1.1);
  }

  /**
   * A 162 ms periodic timer beside two other test classes (a suite run of 2026-12-03): the 60 B
   * cell's first release came 9 ms after its tick (the first frame waited 171.9 ms), and its gaps
   * spread 161.0-165.9 ms. A late tick is allowed what the cell's own gaps spread by.
   */
  @Test
  void aPeriodicTimersLateTickIsAllowedWhatItsGapsSpread() {
    assertInferred(
        TriggerKind.PERIODIC_TIMER,
        160,
        165,
        busy(66, 60, 2, 600, 75, 6, 81, 159.3, 161.1, 171.8, 161.0, 162.7, 165.9, 171.9),
        busy(4104, 4096, 2, 600, 13.33, 6, 81, 160.3, 161.2, 162.9, 161.6, 162.5, 163.1, 161.4),
        busy(66, 60, 50, 25, 3.13, 6, 3, 123.5, 136.1, 161.6, 161.9, 162.4, 163.4, 160.9),
        busy(66, 60, 10, 120, 15, 6, 16, 154.2, 158.2, 161.2, 162.1, 162.5, 166.7, 161.6),
        busy(1031, 1024, 20, 60, 7.5, 6, 8, 147.4, 150.4, 160.9, 162.1, 162.3, 167.0, 161.6));
  }

  /**
   * A 398 ms hold on a busy host (a suite run of 2026-12-03, two classes at once): the large-frame
   * cell's 800 KB releases backed the path up, and its oldest frame waited 508 ms. The smaller
   * releases time the hold; the large ones only have to have waited as long. Those cells fit a 398
   * ms clock too (the 50 ms interval nearly divides it), so the answer asks for a phase probe
   * rather than naming the clock, as that run did; the probe's cell then decides.
   */
  @Test
  void aHoldTimersLargeReleasesMayWaitLongerAndDoNotRuleTheHoldOut() {
    List<CellEvidence> cells =
        new ArrayList<>(
            List.of(
                busy(66, 60, 2, 600, 150, 2, 199, 396.3, 396.5, 397.1, 396.1, 396.5, 397.1, 399.4),
                busy(
                    4104, 4096, 2, 600, 15, 1, 255, 508.5, 508.5, 508.5, 401.1, 401.1, 401.1,
                    506.4),
                busy(66, 60, 50, 25, 6.25, 2, 8, 396.8, 396.8, 396.8, 400.0, 400.1, 400.3, 396.0)));
    FlushTrigger t = TriggerInference.infer("x", cells);
    assertThat(t.kind()).as(t.verdict()).isEqualTo(TriggerKind.INCONCLUSIVE);
    assertThat(t.verdict()).contains("a hold timer and a periodic timer");
    assertThat(t.next()).singleElement().asString().startsWith("frame_size=60B interval=");
    // the probe's interval is out of step with the clock: a hold releases whole intervals apart,
    // waiting 396 ms each time
    double interval =
        Double.parseDouble(t.next().get(0).replaceAll(".*interval=([0-9.]+)ms.*", "$1"));
    double gap = Math.ceil(396.5 / interval) * interval;
    cells.add(
        busy(
            66,
            60,
            interval,
            16,
            1,
            4,
            Math.ceil(396.5 / interval),
            396.4,
            396.6,
            397.0,
            gap,
            gap,
            gap + 0.2,
            396.5));
    assertInferred(TriggerKind.TIMER, 390, 402, cells.toArray(CellEvidence[]::new));
  }

  /**
   * A 376 ms hold's large-frame cell, as a suite printed it (seed 91820471058450): one release of
   * 229 frames (940 KB) whose oldest frame waited 455 ms. Its waits only bound the hold from below,
   * and so do its release sizes: one frame more than arrived within its longest wait (228.5) ruled
   * the hold out and the map said inconclusive.
   */
  @Test
  void aHoldTimersLargeReleasesAreNotCountedAgainstTheFramesItsWaitAllows() {
    assertInferred(
        TriggerKind.TIMER,
        370,
        383,
        busy(66, 60, 2, 600, 150, 2, 189, 376.2, 376.2, 376.2, 377.7, 377.7, 378.5, 376.8),
        busy(4104, 4096, 2, 600, 15.39, 1, 229, 455.1, 455.1, 455.1, 382.2, 382.2, 382.2, 450.7),
        busy(66, 60, 50, 25, 6.25, 2, 8, 377.0, 377.0, 377.3, 399.8, 400.0, 400.6, 377.3),
        busy(66, 60, 10, 120, 30, 2, 38, 376.2, 376.5, 377.0, 379.3, 379.5, 380.9, 377.0),
        busy(1031, 1024, 20, 60, 15, 2, 19, 376.5, 377.0, 378.1, 376.4, 377.0, 381.7, 378.6));
  }

  /**
   * A hold's large releases can wait longer, never shorter: large frames released well before the
   * smaller cells' wait are a threshold or a window filling, not a hold.
   */
  @Test
  void largeReleasesThatLeaveEarlyAreNoHoldTimer() {
    List<String> evidence = new ArrayList<>();
    assertThat(
            HoldTimerFit.fit(
                List.of(
                    busy(
                        66, 60, 2, 600, 150, 2, 199, 396.3, 396.5, 397.1, 396.1, 396.5, 397.1,
                        399.4),
                    busy(4104, 4096, 2, 600, 15, 6, 40, 78.0, 78.2, 78.5, 80.0, 80.1, 80.3, 78.1)),
                evidence))
        .isNull();
  }

  /**
   * A 989 B threshold on a busy host (a suite run of 2026-12-03): the relay read several 66 B
   * frames at once now and then, so the 1 ms cell's p50 release carried 19 frames where 15 reach
   * the threshold; its smallest releases still carried 15. Those place N, and agree with the 150 B
   * cell's 7 frames: a byte threshold, not "no single threshold fits".
   */
  @Test
  void aByteThresholdIsPlacedByItsLeastOvershotReleases() {
    assertThresholdBetween(
        936,
        990,
        releasing(
            66,
            83,
            16.6,
            3,
            19,
            new double[] {15.7, 18.1, 20.3},
            new double[] {15.4, 20.2, 20.2},
            12.1,
            990,
            1288,
            1320),
        releasing(
            156,
            83,
            6.92,
            10,
            7,
            new double[] {4.4, 6.8, 7.9},
            new double[] {5.0, 6.8, 8.8},
            6.8,
            1092,
            1092,
            1092));
  }

  /**
   * A ~5.8 kB buffer behind Nagle, beside a second suite (MapCommandTest of 2026-12-03): the 60 B
   * cells overshot the buffer a little, so no median placed it and the least overshot releases did;
   * the 4 KiB cell released a segment's worth (12 frames) at p50 and 2 frames at p10. Its p10
   * agrees with the buffer, its median does not by six times: that is not overshoot, and no single
   * threshold is given (the map then tries a buffer followed by the socket).
   */
  @Test
  void aMedianReleaseFarBeyondItsLeastOvershotOneIsAnotherMechanism() {
    CellEvidence small = twoMs(66, 600, 92, 6.3, new double[] {182, 188, 192}, 5874, 6072, 6270);
    CellEvidence slow =
        new CellEvidence(
            "f=66 i=50",
            66,
            60,
            50,
            120,
            1,
            89,
            1,
            89,
            4398,
            4400,
            4402,
            4450,
            4450,
            4450,
            4400,
            false,
            null,
            5874,
            5874,
            5874);
    CellEvidence nagle = twoMs(4104, 600, 12, 50, new double[] {21, 22, 23}, 8208, 49248, 61560);
    assertThat(ByteThresholdFit.fit(List.of(small, slow, nagle), new ArrayList<>())).isNull();
    // the same cells without the segment-sized releases: the least overshot releases place the
    // buffer
    CellEvidence passed = twoMs(4104, 600, 2, 300, new double[] {1.9, 2.0, 2.2}, 8208, 8208, 8208);
    Span n = ByteThresholdFit.fit(List.of(small, slow, passed), new ArrayList<>());
    assertThat(n).isNotNull();
    assertThat(n.mid()).isBetween(5808.0, 5874.0);
  }

  /**
   * A stream held once, then released with its 24th frame, bounds a threshold from above by those
   * frames and the response head the lab's relay counts in a first release: the plain client's
   * cells of `compress=gzip,flush=each -> byte-threshold=1724B` (a MapCompressionTest draw, seed
   * 303) left 1716..1782 B by their releases of 27 frames, and the middle, 1749 B, held the 50 ms
   * cell to its end on the model. The held-once cell brings the span down to 1744 B. A think cell,
   * whose first release the comments filled, bounds nothing so.
   */
  @Test
  void aStreamHeldOnceBoundsAThresholdByItsFramesAndTheHead() {
    CellEvidence fast = held(66, 2, 600, 27, 52.0, 54.0);
    CellEvidence once =
        new CellEvidence("f=66 i=50", 66, 60, 50, 25, 1, 25, 0, 0, 0, 0, 0, 0, 0, 0, 1151.2, false);
    assertThat(once.heldOnce()).isTrue();
    Span without = ByteThresholdFit.fit(List.of(fast), new ArrayList<>());
    assertThat(without.mid()).isBetween(1745.0, 1752.0);
    Span with = ByteThresholdFit.fit(List.of(fast, once), new ArrayList<>());
    assertThat(with.hi()).isEqualTo(24 * 66 + ByteThresholdFit.MOST_HEAD_BYTES);
    assertThat(with.mid()).isBetween(1724.0, 1735.0);
    // a bound that would leave no value (a target that counts no head and a threshold over it)
    // is left out, not taken for the answer's
    CellEvidence early =
        new CellEvidence("f=66 i=50", 66, 60, 50, 25, 1, 25, 0, 0, 0, 0, 0, 0, 0, 0, 501.2, false);
    assertThat(ByteThresholdFit.fit(List.of(fast, early), new ArrayList<>())).isEqualTo(without);
  }

  /**
   * A held cell of one stream of f-byte frames every 2 ms: r frames per release, its oldest waits
   * at p10, p50, p90 and its releases' bytes.
   */
  static CellEvidence twoMs(
      double f,
      int frames,
      double r,
      double releases,
      double[] wait,
      double b10,
      double b50,
      double b90) {
    return new CellEvidence(
        String.format("f=%.0f i=2", f),
        f,
        f - 6,
        2,
        frames,
        1,
        r,
        releases,
        r,
        wait[0],
        wait[1],
        wait[2],
        2 * r - 0.2,
        2 * r,
        2 * r + 0.2,
        wait[1],
        false,
        null,
        b10,
        b50,
        b90);
  }

  /**
   * A ~3.45 kB threshold under an injected 100 ms stall (HostStallTest in a suite run of
   * 2026-12-03): the stall split a release of the 1 ms cell, so its p10 release is small, while its
   * median release (53 frames) and the 150 B cell's 23 agree. The median places N whenever it can;
   * the least overshot release is read only when it cannot.
   */
  @Test
  void aReleaseSplitByAStallDoesNotMoveTheThresholdTheMedianPlaces() {
    assertThresholdBetween(
        3432,
        3498,
        releasing(
            66,
            290,
            50,
            4,
            53,
            new double[] {15.2, 52.1, 98.7},
            new double[] {5.3, 53.1, 99.3},
            49.6,
            990,
            3473,
            3500),
        releasing(
            156,
            290,
            23.08,
            10,
            23,
            new double[] {21.9, 22.0, 22.1},
            new double[] {22.8, 23.0, 23.1},
            21.2,
            3589,
            3589,
            3589));
  }

  /**
   * A held cell of one stream of f-byte frames (6 of framing) every 1 ms, as a suite run printed
   * it: waits and gaps as p10, p50, p90; its releases' bytes at p10, p50, p90.
   */
  static CellEvidence releasing(
      double f,
      int frames,
      double framesPerRead,
      double releases,
      double releaseFrames,
      double[] wait,
      double[] gap,
      double firstWait,
      double b10,
      double b50,
      double b90) {
    return new CellEvidence(
        String.format("f=%.0f i=1", f),
        f,
        f - 6,
        1,
        frames,
        1,
        framesPerRead,
        releases,
        releaseFrames,
        wait[0],
        wait[1],
        wait[2],
        gap[0],
        gap[1],
        gap[2],
        firstWait,
        false,
        null,
        b10,
        b50,
        b90);
  }

  /** The cells' answer is a byte threshold between {@code lo} and {@code hi} B. */
  static void assertThresholdBetween(double lo, double hi, CellEvidence... cells) {
    FlushTrigger t = TriggerInference.infer("x", List.of(cells));
    assertThat(t.kind()).as(t.verdict()).isEqualTo(TriggerKind.BYTE_THRESHOLD);
    assertThat(t.thresholdBytes()).isBetween(lo, hi);
  }

  /**
   * A held cell of one stream, as a busy host's map printed it: f B frames (b B of body) every i
   * ms.
   */
  static CellEvidence busy(
      double f,
      double b,
      double i,
      int frames,
      double framesPerRead,
      double releases,
      double releaseFrames,
      double w10,
      double w50,
      double w90,
      double g10,
      double g50,
      double g90,
      double firstWait) {
    return new CellEvidence(
        String.format("f=%.0f i=%.0f", f, i),
        f,
        b,
        i,
        frames,
        1,
        framesPerRead,
        releases,
        releaseFrames,
        w10,
        w50,
        w90,
        g10,
        g50,
        g90,
        firstWait,
        false);
  }

  /** The cells' answer is {@code kind}, its timer between {@code lo} and {@code hi} ms. */
  static void assertInferred(TriggerKind kind, double lo, double hi, CellEvidence... cells) {
    FlushTrigger t = TriggerInference.infer("x", List.of(cells));
    assertThat(t.kind()).as(t.verdict()).isEqualTo(kind);
    assertThat(t.timerMs()).isBetween(lo, hi);
  }

  /**
   * A gzip cell: r events per release of mean compressed size f, its p50 release b bytes, the
   * oldest waiting (r - 1) intervals.
   */
  static CellEvidence gzipHeld(double f, double i, double r, double b) {
    double w = (r - 1) * i;
    return new CellEvidence(
        String.format("gz f=%.0f i=%.0f", f, i),
        f,
        f < 40 ? 60 : 4096,
        i,
        600,
        1,
        r,
        600 / r,
        r,
        w - 0.2,
        w,
        w + 0.3,
        i * r - 0.2,
        i * r,
        i * r + 0.2,
        w,
        false,
        "gzip",
        b - 10,
        b,
        b + 10);
  }

  /**
   * A compressor flushed every 1200 B of events (compress flush=input): 60 B events leave 20 at a
   * time, compressed to ~560 B, while 4 KiB events, each past 1200 B, leave one by one compressed
   * to 64 B. No threshold of compressed bytes holds 560 B and lets 64 B pass; one of 1141..1200 B
   * of events before compression explains both, and its model is that compressor.
   */
  @Test
  void aCompressorFlushedByItsInputSizeIsADecodedThreshold() {
    CellEvidence small =
        new CellEvidence(
            "gz f=28 i=2",
            28,
            60,
            2,
            600,
            1,
            20,
            30,
            20,
            37.8,
            38,
            38.3,
            39.8,
            40,
            40.2,
            38,
            false,
            "gzip",
            540,
            560,
            580);
    CellEvidence large =
        new CellEvidence(
            "gz f=64 i=2",
            64,
            4096,
            2,
            600,
            1,
            1.0,
            598,
            1,
            0.1,
            0.2,
            0.4,
            1.9,
            2.0,
            2.1,
            0.3,
            false,
            "gzip",
            60,
            64,
            70);
    FlushTrigger t = TriggerInference.infer("x", List.of(small, large));
    assertThat(t.kind())
        .as(t.verdict() + " / " + t.evidence())
        .isEqualTo(TriggerKind.DECODED_THRESHOLD);
    assertThat(t.thresholdBytes()).as(t.verdict()).isBetween(1140.0, 1200.0);
    assertThat(t.verdict()).contains("counted before compression");
    assertThat(ShaperModel.compressor("gzip", t).chain())
        .matches(
            "compress=gzip,flush=input,bytes=11[4-9]\\dB|compress=gzip,flush=input,bytes=1200B");
    // uncompressed, the same releases are an ordinary threshold: the decoded one is only for
    // compressed cells
    assertThat(TriggerInference.infer("x", List.of(small.asDecoded(), large.asDecoded())).kind())
        .isEqualTo(TriggerKind.BYTE_THRESHOLD);
  }

  /**
   * A 396..462 B threshold at 1 ms beside two other test classes (HostStallTest, a suite run of
   * 2026-12-03): the 60 B cell's oldest frame waited 5.8 ms (p10; p90 7.0), the 150 B cell's 1.9
   * (p90 2.0). Their median, 3.9 ms, within the noisier cell's room of each, passed for a hold: the
   * steady cell 3.9 ms above the lowest is not one.
   */
  @Test
  void twoByteCountsAtOneMillisecondAreNotOneHoldBecauseOneCellIsNoisy() {
    FlushTrigger t =
        TriggerInference.infer(
            "x",
            List.of(
                new CellEvidence(
                    "f=66 i=1",
                    66,
                    60,
                    1,
                    300,
                    1,
                    8.11,
                    35,
                    7,
                    5.8,
                    6.0,
                    7.0,
                    6.5,
                    7.0,
                    7.5,
                    4.1,
                    false,
                    null,
                    462,
                    462,
                    462),
                new CellEvidence(
                    "f=156 i=1",
                    156,
                    150,
                    1,
                    300,
                    1,
                    3.70,
                    78,
                    3,
                    1.9,
                    1.9,
                    2.0,
                    3.0,
                    3.0,
                    3.1,
                    1.0,
                    false,
                    null,
                    468,
                    468,
                    468)));
    assertThat(t.kind())
        .as(t.verdict() + " / " + t.evidence())
        .isEqualTo(TriggerKind.BYTE_THRESHOLD);
    assertThat(t.thresholdBytes()).isBetween(396.0, 462.0);
  }

  /**
   * A hidden threshold of 1057 B or 139 ms (MapTimersTest, a suite run of 2026-12-03): the map's
   * locating cell of 1088 B frames passed each frame at once, but its short stream (24 frames) was
   * read 1.33 frames a read, so it did not count as streamed and did not bound the threshold; the
   * model's 1089 B then held that cell. A cell whose frames each left at once bounds it.
   */
  @Test
  void aLocatingCellWhoseFramesLeftAtOnceBoundsTheThresholdThoughTwoWereReadTogether() {
    FlushTrigger t =
        TriggerInference.infer(
            "x",
            List.of(
                new CellEvidence(
                    "f=66 i=2",
                    66,
                    60,
                    2,
                    600,
                    1,
                    16.67,
                    34,
                    17,
                    32.0,
                    32.1,
                    32.1,
                    33.8,
                    34.0,
                    34.1,
                    26.3,
                    false,
                    null,
                    1122,
                    1122,
                    1122),
                new CellEvidence(
                    "f=4104 i=2",
                    4104,
                    4096,
                    2,
                    600,
                    1,
                    1.03,
                    571.5,
                    1,
                    0.0,
                    0.0,
                    0.1,
                    1.9,
                    2.0,
                    2.1,
                    0.0,
                    false,
                    null,
                    4107,
                    4107,
                    4107),
                new CellEvidence(
                    "f=66 i=50",
                    66,
                    60,
                    50,
                    25,
                    1,
                    2.78,
                    7,
                    3,
                    139.3,
                    139.4,
                    140.4,
                    148.9,
                    150.1,
                    151.1,
                    139.6,
                    false,
                    null,
                    198,
                    198,
                    198),
                new CellEvidence(
                    "f=1088 i=2",
                    1088,
                    1081,
                    2,
                    24,
                    1,
                    1.33,
                    16,
                    1,
                    0.0,
                    0.0,
                    0.1,
                    1.9,
                    2.0,
                    2.1,
                    0.1,
                    false,
                    null,
                    1088,
                    1088,
                    1088)));
    assertThat(t.kind())
        .as(t.verdict() + " / " + t.evidence())
        .isEqualTo(TriggerKind.THRESHOLD_OR_TIMER);
    assertThat(t.thresholdBytes()).as(t.verdict()).isLessThanOrEqualTo(1088.0);
    assertThat(ShaperModel.of(t).chain())
        .matches("threshold-or-timer,bytes=(\\d+)B,after=.*")
        .doesNotContain("bytes=1089B");
  }

  /**
   * A compressor that lets each event go as the next is written is one-late for clients that accept
   * it: its model is flush=next.
   */
  @Test
  void aOneLateAnswerBehindACompressorIsModelledAsFlushNext() {
    FlushTrigger oneLate =
        new FlushTrigger(
            "x", TriggerKind.ONE_LATE, null, null, null, null, "one-late", List.of(), List.of());
    assertThat(ShaperModel.compressor("br", oneLate).chain()).isEqualTo("compress=br,flush=next");
  }

  /**
   * A compressed threshold of ~1094 B: 40 events of a 28 B mean and 17 of a 64 B mean do not agree
   * on one (their spans (1092, 1120] and (1024, 1088] miss each other, as a compressor's changing
   * bytes per event makes them), but each cell's p50 release (1100 and 1120 B) does: the threshold
   * is found, not called an encoder.
   */
  @Test
  void aCompressedThresholdIsPlacedByTheReleasesOwnSize() {
    CellEvidence drainedSlow =
        new CellEvidence(
            "gz f=35 i=50",
            35,
            60,
            50,
            25,
            1,
            25,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            1200,
            true,
            "gzip",
            0,
            0,
            0);
    FlushTrigger t =
        TriggerInference.infer(
            "x", List.of(gzipHeld(28, 2, 40, 1100), gzipHeld(64, 2, 17, 1120), drainedSlow));
    assertThat(t.kind()).as(t.verdict()).isEqualTo(TriggerKind.BYTE_THRESHOLD);
    assertThat(t.thresholdBytes()).isBetween(1056.0, 1100.0);
  }

  /**
   * A hidden gzip threshold just under what the slow cell sent in all (a CI run of 2026-12-04):
   * releases of 835 and 846 B place it at most 835 B, and the 25-event stream of 869 B that arrived
   * whole at its end held less than N only before its last event and gzip's end, which left
   * together. Read as "above 869 B", no threshold fitted and the map said "encoder".
   */
  @Test
  void aDrainedCellBoundsTheThresholdByWhatItHeldBeforeItsLastEvent() {
    FlushTrigger t =
        TriggerInference.infer(
            "x",
            List.of(
                new CellEvidence(
                    "f=28 i=2",
                    28,
                    60,
                    2,
                    600,
                    1,
                    28.57,
                    19,
                    29,
                    54.1,
                    56.2,
                    59.0,
                    55.9,
                    58.1,
                    61.0,
                    46.2,
                    false,
                    "gzip",
                    820,
                    835,
                    850),
                new CellEvidence(
                    "f=64 i=2",
                    64,
                    4096,
                    2,
                    600,
                    1,
                    13.04,
                    44,
                    13,
                    24.0,
                    24.1,
                    24.4,
                    25.8,
                    26.0,
                    26.3,
                    22.2,
                    false,
                    "gzip",
                    830,
                    846,
                    860),
                new CellEvidence(
                    "f=35 i=50",
                    34.76,
                    60,
                    50,
                    25,
                    1,
                    25,
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    1200,
                    true,
                    "gzip",
                    0,
                    0,
                    0)));
    assertThat(t.kind()).as(t.verdict() + " " + t.evidence()).isEqualTo(TriggerKind.BYTE_THRESHOLD);
    assertThat(t.thresholdBytes()).as(t.verdict()).isBetween(799.0, 835.0);
  }

  /**
   * Uncompressed, a drained cell of 25 frames of 66 B bounds N above 24 frames: the 25th may be the
   * one that reached it.
   */
  @Test
  void anUncompressedDrainedCellBoundsTheThresholdAboveAllButItsLastFrame() {
    FlushTrigger t =
        TriggerInference.infer("x", List.of(held(66, 2, 600, 25, 48, 50), drained(66, 50, 25)));
    assertThat(t.kind()).as(t.verdict()).isEqualTo(TriggerKind.BYTE_THRESHOLD);
    assertThat(t.thresholdBytes()).as(t.verdict()).isBetween(24 * 66.0, 25 * 66.0);
  }

  static CellEvidence thinkCell(double firstBodyMs, double ttftMs) {
    return new CellEvidence(
        "think",
        66,
        60,
        10,
        5,
        1,
        1.0,
        3,
        1,
        0.1,
        0.1,
        0.2,
        9.9,
        10,
        10.1,
        0.1,
        false,
        null,
        66,
        66,
        66,
        400,
        50,
        firstBodyMs,
        ttftMs,
        0,
        0,
        1.0);
  }

  /**
   * A think of {@code thinkMs} with comments every millisecond, as the map asks of a byte
   * threshold.
   */
  static CellEvidence commentsEveryMs(double thinkMs, double firstBodyMs, double ttftMs) {
    return new CellEvidence(
        "think",
        66,
        60,
        10,
        5,
        1,
        1.0,
        3,
        1,
        0.1,
        0.1,
        0.2,
        9.9,
        10,
        10.1,
        0.1,
        false,
        null,
        66,
        66,
        66,
        thinkMs,
        1,
        firstBodyMs,
        ttftMs,
        0,
        0,
        1.0);
  }

  /**
   * A byte threshold's think: comments every millisecond pass it before the think ends. Let go
   * then, no first-content; held to the first frame, first-content, in front when the first frame
   * came with the think's end (`first-content=any -> byte-threshold=4193B`: 2.0 ms after it),
   * behind when it waited in the threshold (`byte-threshold=3000B -> first-content=any`: 40.9 ms,
   * the stream's end). A threshold the comments pass only late in the think cannot tell.
   */
  @Test
  void aThresholdsThinkCellTellsFirstContentInFrontFromBehind() {
    FlushTrigger threshold = ShaperModelTest.answer(TriggerKind.BYTE_THRESHOLD, 3003.0, null);
    List<String> evidence = new ArrayList<>();
    FlushTrigger alone =
        FirstContentFit.aroundThreshold(
            threshold, List.of(commentsEveryMs(422, 170.9, 463.5)), evidence);
    assertThat(alone.before()).isNull();
    assertThat(alone.then()).isNull();
    assertThat(evidence).anyMatch(e -> e.contains("nothing held the comments"));
    FlushTrigger behind =
        FirstContentFit.aroundThreshold(
            threshold, List.of(commentsEveryMs(422, 462.9, 462.9)), new ArrayList<>());
    assertThat(behind.then()).isEqualTo(TriggerKind.FIRST_CONTENT);
    assertThat(ShaperModel.of(behind).chain())
        .isEqualTo("byte-threshold=3003B -> first-content=any");
    assertThat(ShaperModel.of(behind).alike()).isEmpty();
    FlushTrigger inFront =
        FirstContentFit.aroundThreshold(
            threshold, List.of(commentsEveryMs(422, 424.0, 424.0)), new ArrayList<>());
    assertThat(inFront.before()).isEqualTo(TriggerKind.FIRST_CONTENT);
    assertThat(inFront.then()).isNull();
    assertThat(ShaperModel.of(inFront).chain())
        .isEqualTo("first-content=any -> byte-threshold=3003B");
    assertThat(ShaperModel.of(inFront).alike())
        .as("a threshold nearly filled by the comments lets the frame go at once too")
        .containsExactly("byte-threshold=3003B -> first-content=any");
    // the first frame 12.4 ms after the think on a loaded host (a fresh-clone suite): nearer at
    // once than the stream's end, 40 ms after it
    assertThat(
            FirstContentFit.aroundThreshold(
                    threshold, List.of(commentsEveryMs(422, 434.4, 434.4)), new ArrayList<>())
                .before())
        .isEqualTo(TriggerKind.FIRST_CONTENT);
    List<String> late = new ArrayList<>();
    assertThat(
            FirstContentFit.aroundThreshold(
                    threshold, List.of(commentsEveryMs(250, 251, 251)), late)
                .before())
        .isNull();
    assertThat(late).anyMatch(e -> e.contains("cannot tell"));

    // the plans: comments every ms for a threshold they pass in time; a longer think for a longer
    // timer; none past 2 s
    CellPlan forThreshold = MapProber.thinkCellFor(threshold);
    assertThat(forThreshold.keepAliveNanos()).isEqualTo(1_000_000L);
    assertThat(forThreshold.thinkNanos() / 1e6).isBetween(1.5 * 3003 / 14, 2.0 * 3003 / 14 + 100);
    assertThat(
            MapProber.thinkCellFor(
                ShaperModelTest.answer(TriggerKind.BYTE_THRESHOLD, 30000.0, null)))
        .as("30 kB of comments take 2 s")
        .isNull();
    CellPlan forLongHold =
        MapProber.thinkCellFor(ShaperModelTest.answer(TriggerKind.TIMER, null, 350.0));
    assertThat(forLongHold.thinkNanos() / 1e6).isEqualTo(600.0);
    assertThat(MapProber.thinkCellFor(ShaperModelTest.answer(TriggerKind.TIMER, null, 120.0)))
        .isEqualTo(Discovery.thinkCell());
    assertThat(MapProber.thinkCellFor(ShaperModelTest.answer(TriggerKind.TIMER, null, 1500.0)))
        .isNull();
  }

  /**
   * Every cell streamed; after a 400 ms think with comments every 50 ms, the first body byte came
   * with the first frame: first-content.
   */
  @Test
  void nothingBeforeTheFirstFrameIsFirstContentAndACommentBeforeItIsNone() {
    List<CellEvidence> streamed =
        List.of(streamed(66, 2, 600), streamed(4102, 2, 600), streamed(66, 50, 25));
    List<CellEvidence> held = new ArrayList<>(streamed);
    held.add(thinkCell(404.8, 404.8));
    assertThat(TriggerInference.infer("x", held).kind()).isEqualTo(TriggerKind.FIRST_CONTENT);
    List<CellEvidence> passed = new ArrayList<>(streamed);
    passed.add(thinkCell(53.3, 402.9));
    assertThat(TriggerInference.infer("x", passed).kind()).isEqualTo(TriggerKind.NONE);
  }

  /**
   * A 150 ms hold, then first-content: alone, the hold would let the think's first comment go ~200
   * ms in; the comments came with the first frame instead, so first-content follows it (both orders
   * named). A comment before the first frame leaves the hold alone; a hold too long for the think
   * to tell leaves it alone too, and the map does not measure that think cell at all.
   */
  @Test
  void aHoldWhoseThinkCellHeldTheCommentsForTheFirstFrameIsFollowedByFirstContent() {
    List<CellEvidence> timer =
        List.of(held(66, 50, 48, 3, 150, 150), held(66, 200, 48, 1, 150, 200));
    List<CellEvidence> withThink = new ArrayList<>(timer);
    withThink.add(thinkCell(551.2, 551.2));
    FlushTrigger both = TriggerInference.infer("x", withThink);
    assertThat(both.kind()).as(both.verdict()).isEqualTo(TriggerKind.TIMER);
    assertThat(both.then()).as(both.verdict()).isEqualTo(TriggerKind.FIRST_CONTENT);
    ShaperModel m = ShaperModel.of(both);
    assertThat(m.chain()).matches("timer=1[45]\\d(\\.\\d)?ms -> first-content=any");
    assertThat(m.alike())
        .containsExactly("first-content=any -> " + m.chain().replace(" -> first-content=any", ""));
    assertThat(ShaperRegistry.parseChain(m.chain())).hasSize(2);

    List<CellEvidence> passed = new ArrayList<>(timer);
    passed.add(thinkCell(201.7, 551.2));
    FlushTrigger alone = TriggerInference.infer("x", passed);
    assertThat(alone.kind()).isEqualTo(TriggerKind.TIMER);
    assertThat(alone.then()).isNull();

    assertThat(MapProber.thinkCellCanTell(both)).isTrue();
    // a cork's ~200 ms ceiling, and a threshold-or-timer's timer (a think's comments reach no
    // threshold), tell as a hold's does
    assertThat(MapProber.thinkCellCanTell(ShaperModelTest.answer(TriggerKind.CORK, 63000.0, 208.0)))
        .isTrue();
    assertThat(
            MapProber.thinkCellCanTell(
                ShaperModelTest.answer(TriggerKind.THRESHOLD_OR_TIMER, 3000.0, 120.0)))
        .isTrue();
    assertThat(
            MapProber.thinkCellCanTell(
                ShaperModelTest.answer(TriggerKind.THRESHOLD_OR_TIMER, 3000.0, 300.0)))
        .isFalse();
    assertThat(
            MapProber.thinkCellCanTell(
                ShaperModelTest.answer(TriggerKind.BYTE_THRESHOLD, 3000.0, null)))
        .isFalse();
    FlushTrigger longHold =
        TriggerInference.infer(
            "x", List.of(held(66, 50, 48, 6, 300, 300), held(66, 400, 24, 1, 300, 400)));
    assertThat(longHold.kind()).as(longHold.verdict()).isEqualTo(TriggerKind.TIMER);
    assertThat(MapProber.thinkCellCanTell(longHold))
        .as("a 300 ms hold keeps a 400 ms think's comments anyway")
        .isFalse();
    List<CellEvidence> longWithThink =
        new ArrayList<>(List.of(held(66, 50, 48, 6, 300, 300), held(66, 400, 24, 1, 300, 400)));
    longWithThink.add(thinkCell(701.0, 701.0));
    assertThat(TriggerInference.infer("x", longWithThink).then()).isNull();
  }

  /**
   * A timer that is a whole number of intervals makes a time-released cell look byte-released;
   * across cells only one answer fits.
   */
  @Test
  void aCombinedTriggerWithATimerThatIsAMultipleOfTheIntervalIsStillFound() {
    // N = 2000 wire bytes, T = 100 ms: small frames at 2 ms reach N first (31 frames, 60 ms);
    // large frames stream; small frames at 50 ms are released by time with 3 frames (100 ms = 2
    // intervals)
    FlushTrigger t =
        TriggerInference.infer(
            "x",
            List.of(
                held(66, 2, 600, 31, 60, 62),
                streamed(4102, 2, 600),
                held(66, 50, 25, 3, 100, 150)));
    assertThat(t.kind()).as(t.verdict()).isEqualTo(TriggerKind.THRESHOLD_OR_TIMER);
    assertThat(t.thresholdBytes()).isBetween(1980.0, 2046.0);
    assertThat(t.timerMs()).isBetween(99.0, 101.0);
  }

  /**
   * A threshold of ~420 B at a 1 ms interval: 60 B frames wait 6 ms (7 to a release), 150 B frames
   * 2 ms (3 to a release), each steady to 0.1 ms. Two steady waits 4 ms apart are not one hold
   * (this once read "a byte threshold and a hold timer alike", with a 3 ms tolerance).
   */
  @Test
  void steadyWaitsThatDifferBetweenCellsAreNotOneHoldTimer() {
    FlushTrigger t =
        TriggerInference.infer(
            "x",
            List.of(
                new CellEvidence(
                    "f=66", 66, 60, 1, 420, 1, 5.67, 58, 7, 5.9, 5.9, 6.0, 7.0, 7.0, 7.0, 5.9,
                    false),
                new CellEvidence(
                    "f=156", 156, 150, 1, 420, 1, 2.83, 138, 3, 1.9, 1.9, 2.0, 2.9, 3.0, 3.0, 1.9,
                    false)));
    assertThat(t.kind())
        .as(t.verdict() + " / " + t.evidence())
        .isEqualTo(TriggerKind.BYTE_THRESHOLD);
    assertThat(t.thresholdBytes()).isBetween(396.0, 462.0);
  }

  /**
   * Within-cell spread buys a hold no more room than 3 ms: waits of 240 and 262 ms that each spread
   * over 50 ms (a 271 ms periodic clock) are not one hold (a CI run once read them as "a hold timer
   * and a periodic timer alike" when the room was twice the spread).
   */
  @Test
  void spreadWaitsDoNotWidenTheHoldTimerFit() {
    List<String> evidence = new ArrayList<>();
    Double hold =
        HoldTimerFit.fit(
            List.of(
                new CellEvidence(
                    "a", 66, 60, 2, 600, 1, 100, 4, 100, 240, 240, 290, 271, 271, 272, 240, false),
                new CellEvidence(
                    "b", 66, 60, 50, 25, 1, 5, 3, 5, 262, 262, 300, 271, 271, 272, 262, false)),
            evidence);
    assertThat(hold).as(String.join("; ", evidence)).isNull();
  }

  @Test
  void cellsThatFitTwoMechanismsAreInconclusiveAndSayWhatToMeasure() {
    // one frame size, one interval: a byte threshold and an event count cannot be told apart
    FlushTrigger t = TriggerInference.infer("x", List.of(held(66, 2, 600, 31, 60, 62)));
    assertThat(t.kind()).isEqualTo(TriggerKind.INCONCLUSIVE);
    assertThat(t.thresholdBytes()).isNull();
    assertThat(t.next()).isNotEmpty();
    assertThat(t.verdict()).contains("measure next").contains("frame_size=4096B");
  }

  /**
   * Cells whose ranges miss each other are not forced into one: no range like "(4561, 4355]" is
   * ever printed.
   */
  @Test
  void contradictoryCellsNeverPrintAnEmptyRange() {
    FlushTrigger t =
        TriggerInference.infer(
            "x",
            List.of(
                held(66, 2, 600, 70, 138, 140),
                held(66, 2, 600, 66, 130, 132),
                held(4102, 2, 600, 2, 2, 4)));
    assertThat(t.kind()).isEqualTo(TriggerKind.INCONCLUSIVE);
    for (String e : t.evidence()) assertThat(e).doesNotContainPattern("\\((\\d+), (\\d+)\\]");
    assertThat(String.join("\n", t.evidence())).contains("no single threshold fits every cell");
  }

  /**
   * The verdict names what the answer rests on: one interval is said as one interval, never
   * "whatever the interval".
   */
  @Test
  void theVerdictSaysWhatWasVaried() {
    List<CellEvidence> oneInterval = List.of(held(66, 2, 600, 31, 60, 62), streamed(4102, 2, 600));
    FlushTrigger t = TriggerInference.infer("x", oneInterval);
    assertThat(t.kind()).isEqualTo(TriggerKind.BYTE_THRESHOLD);
    assertThat(t.verdict()).contains("one interval, 2 ms").doesNotContain("whatever");
    List<CellEvidence> two = new ArrayList<>(oneInterval);
    two.add(drained(66, 50, 25));
    assertThat(TriggerInference.infer("x", two).verdict()).contains("intervals 2, 50 ms");
  }

  /** A threshold is given on the wire and in event bytes (60 B events weigh 66 B chunked). */
  @Test
  void aByteThresholdIsGivenInWireAndInEventBytes() {
    FlushTrigger t =
        TriggerInference.infer(
            "x",
            List.of(held(66, 2, 600, 31, 60, 62), streamed(4102, 2, 600), drained(66, 50, 25)));
    assertThat(t.thresholdBodyBytes() / t.thresholdBytes())
        .isCloseTo(60.0 / 66, Offset.offset(0.01));
    assertThat(t.verdict()).contains("of event bodies");
  }

  /**
   * A cell whose releases mostly wait w but the earliest only e ms (p10): a proxy corking each send
   * (MSG_MORE), pushed early by ACKs.
   */
  static CellEvidence heldWithEarly(
      double f, double i, int frames, double r, double e, double w, double g) {
    return new CellEvidence(
        String.format("f=%.0f i=%.0f", f, i),
        f,
        f - 6,
        i,
        frames,
        1,
        r,
        frames / r - 2,
        r,
        e,
        w,
        w + 2,
        44,
        g,
        g + 4,
        w,
        false);
  }

  /**
   * Stock HAProxy on loopback (numbers as `flushlab map --proxy haproxy` measured them): a cork,
   * early releases named.
   */
  @Test
  void aPerSendCorkWithEarlyReleasesIsACorkAndSaysSo() {
    FlushTrigger t =
        TriggerInference.infer(
            "x",
            List.of(
                heldWithEarly(66, 2, 600, 104, 43.2, 207.2, 208.1),
                held(4104, 2, 600, 16, 29.9, 32.0),
                heldWithEarly(66, 50, 25, 5, 18.2, 208.4, 240.1)));
    assertThat(t.kind()).as(t.verdict()).isEqualTo(TriggerKind.CORK);
    assertThat(t.timerMs()).isBetween(205.0, 210.0);
    assertThat(t.verdict()).contains("came early");
    assertThat(String.join("\n", t.evidence())).contains("early releases: in 2 cell(s)");
  }

  /**
   * Early releases are a cork's trait only: the same shape with a 100 ms timer and a small
   * threshold is not forced into an answer.
   */
  @Test
  void earlyReleasesDoNotMakeAnyOtherCombinedTrigger() {
    FlushTrigger t =
        TriggerInference.infer(
            "x",
            List.of(
                heldWithEarly(66, 2, 600, 31, 20, 60, 62),
                streamed(4102, 2, 600),
                heldWithEarly(66, 10, 120, 10, 30, 100, 100)));
    assertThat(t.kind())
        .as(t.verdict())
        .isNotIn(TriggerKind.THRESHOLD_OR_TIMER, TriggerKind.CORK, TriggerKind.TIMER);
  }

  /**
   * stock nginx with a close-delimited upstream, as measured: a 4 KiB buffer for small frames, 64
   * KiB segments for 4 KiB frames (Nagle on its client socket). No modelled mechanism fits; the
   * answer must not ask for cells it already has.
   */
  @Test
  void anUnexplainedTargetNeverAsksForCellsAlreadyMeasured() {
    FlushTrigger t =
        TriggerInference.infer(
            "x",
            List.of(
                held(66, 2, 600, 68, 136, 136),
                held(4102, 2, 600, 16, 31.9, 32),
                drained(66, 50, 25),
                held(66, 10, 120, 68, 670, 680),
                held(1030, 20, 60, 4, 80, 80)));
    assertThat(t.kind()).isEqualTo(TriggerKind.INCONCLUSIVE);
    assertThat(t.next())
        .doesNotContain(
            "frame_size=60B interval=10ms frames=120", "frame_size=1024B interval=20ms frames=60");
  }

  /**
   * A 150 ms hold swept at 50 ms (releases 150 ms apart, 3 frames each) and at 200 ms (one frame
   * per release, each waiting 150 ms): a 150 ms clock would meet the 200 ms frames at three phases
   * and spread their waits over 50..150 ms. Steady waits there make it a hold.
   */
  @Test
  void singleFrameReleasesWithSteadyWaitsRuleOutAPeriodicClock() {
    FlushTrigger t =
        TriggerInference.infer(
            "x", List.of(held(66, 50, 48, 3, 150, 150), held(66, 200, 48, 1, 150, 200)));
    assertThat(t.kind()).as(t.verdict()).isEqualTo(TriggerKind.TIMER);
    assertThat(t.timerMs()).isBetween(149.0, 151.0);
  }

  /**
   * A 350 ms hold swept at 50 and 200 ms releases 400 ms apart in both, as a 400 ms clock would.
   * Seven streams at 50 ms all waiting 350 ms do not rule the clock out: a proxy may start its
   * clock with each connection, and so meet every stream at the same phase. Only an interval out of
   * step with the clock decides, and the answer asks for one.
   */
  @Test
  void aHoldThatIsAWholeNumberOfIntervalsAtEveryIntervalStaysUndecidedAndAsksForAPhaseProbe() {
    List<CellEvidence> cells = new ArrayList<>();
    for (double f : new double[] {66, 126, 256, 507, 1107, 2207, 4408}) {
      cells.add(held(f, 50, 48, 8, 350.5, 400));
      cells.add(held(f, 200, 48, 2, 350.7, 400));
    }
    FlushTrigger t = TriggerInference.infer("x", cells);
    assertThat(t.kind()).as(t.verdict()).isEqualTo(TriggerKind.INCONCLUSIVE);
    assertThat(t.verdict()).contains("a hold timer and a periodic timer");
    assertThat(t.next()).singleElement().asString().startsWith("frame_size=60B interval=160ms");
  }
}
