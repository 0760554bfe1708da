package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReplayTest {
  /**
   * A held cell: f B frames every i ms, r frames a release, the oldest waiting w ms, the first w1
   * ms.
   */
  static CellEvidence held(String label, double fpr, double r, double w, double w1) {
    return new CellEvidence(
        label,
        66,
        60,
        2,
        600,
        1,
        fpr,
        10,
        r,
        w - 0.2,
        w,
        w + 0.3,
        2 * r - 0.1,
        2 * r,
        2 * r + 0.1,
        w1,
        false);
  }

  static CellEvidence streamed(String label, double w1) {
    return new CellEvidence(
        label, 4104, 4096, 2, 600, 1, 1.0, 598, 1, 0.1, 0.1, 0.3, 1.9, 2.0, 2.1, w1, false);
  }

  static CellEvidence drained(String label) {
    return new CellEvidence(label, 66, 60, 50, 25, 1, 25, 0, 0, 0, 0, 0, 0, 0, 0, 1200, true);
  }

  /**
   * A think cell: 5 frames after a 400 ms think with comments every 50 ms; the first body byte and
   * frame at these ms.
   */
  static CellEvidence think(boolean drained, double firstBodyMs, double ttftMs) {
    return new CellEvidence(
        "think",
        66,
        60,
        10,
        5,
        1,
        drained ? 5 : 1.0,
        drained ? 0 : 3,
        drained ? 5 : 1,
        0.1,
        0.1,
        0.2,
        9.9,
        10,
        10.1,
        0.1,
        drained,
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
        drained ? 5 : 1.0);
  }

  /**
   * A think cell is compared on what it is for: whether the comments came before the first frame.
   * Its five frames meet a timer at whatever phase the comments left its cycle in (s11: a
   * threshold- or-timer of 89.4 ms held them to the stream's end on the target, and let them go 1
   * ms before it on the model), so held-to-the-end or not is no difference there.
   */
  @Test
  void aThinkCellDiffersOnlyInWhetherTheCommentsCameBeforeTheFirstFrame() {
    assertThat(Replay.difference(think(true, 90.0, 441.2), think(false, 90.3, 439.5))).isNull();
    assertThat(Replay.difference(think(false, 441.0, 441.0), think(false, 140.0, 441.0)))
        .isEqualTo(
            "through the think nothing came before the first frame on the target; the comments did on the model");
    assertThat(Replay.difference(think(false, 140.0, 441.0), think(false, 441.0, 441.0)))
        .contains("the comments came before the first frame on the target");
    assertThat(Replay.difference(think(false, 441.0, 441.0), think(false, Double.NaN, Double.NaN)))
        .contains("said nothing on the model");
  }

  @Test
  void cellsThatAgreeWithinTheTolerancesVerifyTheModel() {
    ReplayVerdict v =
        Replay.compare(
            "byte-threshold=3003B",
            List.of(held("a", 42.9, 46, 90.0, 86.8), streamed("b", 8.6), drained("c")),
            List.of(held("a", 40.0, 45, 88.0, 85.0), streamed("b", 0.1), drained("c")));
    assertThat(v.verified()).as(v.text()).isTrue();
    assertThat(v.text())
        .isEqualTo("verified: the model byte-threshold=3003B reproduces 3 of 3 cells");
  }

  @Test
  void theFirstCellThatDiffersIsNamedWithWhatDiffers() {
    ReplayVerdict v =
        Replay.compare(
            "timer=100ms",
            List.of(held("a", 50, 50, 100, 100), drained("c")),
            List.of(held("a", 12, 12, 24, 24), held("c", 25, 25, 1200, 1200)));
    assertThat(v.verified()).isFalse();
    assertThat(v.text())
        .startsWith(
            "not verified: the model timer=100ms reproduces 0 of 2 cells; a: frames per read 50.00 on the target, "
                + "12.00 on the model; frames per release 50 and 12; oldest frame's wait 100.0 and 24.0 ms");
    assertThat(v.cells().get(1).difference())
        .isEqualTo("the target held every stream to its end, the model did not");
  }

  /**
   * 4 KiB frames every 2 ms behind a buffer and Nagle, as a map beside a second suite printed them:
   * 15 frames a release (a segment) on the target, 8 on the model (the client's ACKs came sooner).
   * A model ending with Nagle agrees where both held the cell for the ACK; one that released more
   * than a segment at once, or any model without the socket stage, does not.
   */
  @Test
  void segmentsTheClientsAcksLetOutAgreeHoweverManyFramesEachCarried() {
    CellEvidence target = segments(13.33, 15, 27.9, 61567, 61567);
    CellEvidence model = segments(8.33, 8, 14.2, 32832, 49248);
    assertThat(
            Replay.compare("byte-threshold=4785B -> nagle", List.of(target), List.of(model), true)
                .verified())
        .isTrue();
    assertThat(
            Replay.compare("byte-threshold=4785B", List.of(target), List.of(model), false)
                .verified())
        .isFalse();
    CellEvidence twoSegments = segments(32, 32, 62, 131328, 131328);
    ReplayVerdict v =
        Replay.compare(
            "byte-threshold=4785B -> nagle", List.of(target), List.of(twoSegments), true);
    assertThat(v.verified()).as("a release of two segments is no Nagle").isFalse();
    assertThat(v.text()).contains("frames per release 15 and 32");
  }

  /**
   * The suite run of 2026-12-03: behind a 3240 B buffer and Nagle, the target released 4 KiB frames
   * 16 at a time (a segment, 32 ms apart), and the model streamed them: Nagle engaged on one side
   * only, which sends the cell to the model once more. Two cells that differ otherwise (a release
   * of two segments, or both streaming) are not Nagle's choice.
   */
  @Test
  void aCellWhereNagleEngagedOnOneSideOnlyIsKnownAsSuch() {
    CellEvidence target = segments(7.69, 16, 30.0, 65727, 65727);
    CellEvidence streamedModel = streamed("frame_size=4096B interval=2ms frames=600", 0.2);
    assertThat(Replay.nagleEngagedOnOneOnly(target, streamedModel)).isTrue();
    assertThat(Replay.nagleEngagedOnOneOnly(streamedModel, target))
        .as("the other way round")
        .isTrue();
    assertThat(Replay.nagleEngagedOnOneOnly(target, segments(8.33, 8, 14.2, 32832, 49248)))
        .as("both held")
        .isFalse();
    assertThat(Replay.nagleEngagedOnOneOnly(streamedModel, segments(32, 32, 62, 131328, 131328)))
        .as("two segments at once")
        .isFalse();
    assertThat(Replay.nagleEngagedOnOneOnly(streamedModel, streamedModel))
        .as("both streamed")
        .isFalse();
    assertThat(Replay.nagleEngagedOnOneOnly(held("a", 50, 50, 100, 100), drained("a"))).isFalse();
  }

  /**
   * A buffer of 3993 B then Nagle, 120 frames of 60 B every 10 ms (a suite run of 2026-12-03): the
   * target's stream came in 3 reads, one release of 61 frames between the first and the end; the
   * model's in 2, that release and the end, so it held once. Both held for ~600 ms: they agree.
   * Held against a model that streamed the cell, or read it in many more reads, they do not.
   */
  @Test
  void aStreamOfAFewReadsAgreesWhereOneReadFellElsewhere() {
    CellEvidence target =
        new CellEvidence(
            "frame_size=60B interval=10ms frames=120",
            66,
            60,
            10,
            120,
            1,
            40.0,
            1,
            61,
            600.3,
            600.3,
            600.3,
            610.3,
            610.3,
            610.3,
            570.4,
            false,
            null,
            4027,
            4027,
            4027);
    CellEvidence heldOnce = releasedOnceAt(600.2);
    assertThat(heldOnce.heldOnce()).isTrue();
    assertThat(
            Replay.compare(
                    "byte-threshold=3993B -> nagle", List.of(target), List.of(heldOnce), true)
                .verified())
        .isTrue();
    CellEvidence streamedModel =
        new CellEvidence(
            "frame_size=60B interval=10ms frames=120",
            66,
            60,
            10,
            120,
            1,
            1.0,
            118,
            1,
            0.1,
            0.1,
            0.2,
            9.9,
            10.0,
            10.1,
            0.2,
            false);
    ReplayVerdict v = Replay.compare("passthrough", List.of(target), List.of(streamedModel));
    assertThat(v.verified()).isFalse();
    assertThat(v.text())
        .contains("frames per read 40.00 on the target, 1.00 on the model")
        .contains("the model streamed them");
  }

  /** The 4 KiB cell: r frames a release, the oldest waiting w ms, releases of b50 and b90 B. */
  static CellEvidence segments(double fpr, double r, double w, double b50, double b90) {
    return new CellEvidence(
        "frame_size=4096B interval=2ms frames=600",
        4104,
        4096,
        2,
        600,
        1,
        fpr,
        600 / r,
        r,
        w - 2,
        w,
        w + 2,
        2 * r - 1,
        2 * r,
        2 * r + 1,
        11.9,
        false,
        null,
        4104 * 2,
        b50,
        b90);
  }

  /**
   * An answer its model does not reproduce is not given: inconclusive, with every cell's
   * comparison, and no model.
   */
  @Test
  void anAnswerWhoseModelDiffersBecomesInconclusiveWithoutAModel() {
    FlushTrigger answer =
        new FlushTrigger(
            "x",
            TriggerKind.TIMER,
            null,
            null,
            100.0,
            null,
            "timer: 100 ms",
            List.of("hold-timer check"),
            List.of());
    ReplayVerdict v =
        Replay.compare(
            "timer=100ms",
            List.of(held("a", 50, 50, 100, 100)),
            List.of(held("a", 12, 12, 24, 24)));
    FlushTrigger after = answer.withReplay(v);
    assertThat(after.kind()).isEqualTo(TriggerKind.INCONCLUSIVE);
    assertThat(after.verdict()).startsWith("inconclusive: not verified: the model timer=100ms");
    assertThat(after.evidence())
        .contains("was: timer: 100 ms")
        .anyMatch(e -> e.startsWith("replay of a: frames per read"));
    assertThat(ShaperModel.of(after).chain()).isNull();
    FlushTrigger kept =
        answer.withReplay(
            Replay.compare(
                "timer=100ms",
                List.of(held("a", 50, 50, 100, 100)),
                List.of(held("a", 49, 50, 101, 99))));
    assertThat(kept.kind()).isEqualTo(TriggerKind.TIMER);
    assertThat(kept.replay()).isEqualTo("verified: the model timer=100ms reproduces 1 of 1 cells");
  }

  /**
   * A replay with nothing to compare (both runs of a cell spoiled by this host) is no verification
   * either way: not given, and it says why.
   */
  @Test
  void aReplayWithoutAResultLeavesTheAnswerUngivenAndSaysWhy() {
    FlushTrigger answer =
        new FlushTrigger(
            "x", TriggerKind.NONE, null, null, null, null, "none: streams", List.of(), List.of());
    FlushTrigger after =
        answer.withReplayUnfinished(
            "this host stalled in both runs of the replay of c (...)", "map again");
    assertThat(after.kind()).isEqualTo(TriggerKind.INCONCLUSIVE);
    assertThat(after.verdict())
        .isEqualTo(
            "inconclusive: not verified: this host stalled in both runs of the replay of c (...)");
    assertThat(after.evidence()).containsExactly("was: none: streams");
    assertThat(ShaperModel.of(after).chain()).isNull();
  }

  /**
   * A cell of 1031 B frames every 20 ms: a threshold located within 5 % can move its release by one
   * frame, so one interval apart agrees, two do not.
   */
  @Test
  void waitsOneIntervalApartAgreeAndTwoDoNot() {
    CellEvidence target =
        new CellEvidence(
            "f=1031 i=20",
            1031,
            1024,
            20,
            60,
            1,
            5,
            10,
            5,
            79.8,
            80.0,
            80.3,
            99.9,
            100,
            100.1,
            80.1,
            false);
    CellEvidence oneLater =
        new CellEvidence(
            "f=1031 i=20",
            1031,
            1024,
            20,
            60,
            1,
            6,
            8,
            6,
            99.8,
            100.0,
            100.3,
            119.9,
            120,
            120.1,
            100.3,
            false);
    CellEvidence twoLater =
        new CellEvidence(
            "f=1031 i=20",
            1031,
            1024,
            20,
            60,
            1,
            6,
            8,
            6,
            119.8,
            120.0,
            120.3,
            119.9,
            120,
            120.1,
            120.3,
            false);
    assertThat(Replay.difference(target, oneLater)).isNull();
    assertThat(Replay.difference(target, twoLater))
        .contains("oldest frame's wait 80.0 and 120.0 ms")
        .contains("first frame's wait 80.1 and 120.3 ms");
  }

  /**
   * A cell of 60 B frames every 300 ms through one-late in front of an 82 ms hold: each frame left
   * one interval late, after 300.3 ms, where the model of a 39 ms hold then an 82 ms one lets it go
   * after 82.1 (a map, 2026-12-06, that called the two alike). Waits no frame of a cell moves are
   * held to the tolerance alone; a model that counts bytes keeps its one-interval floor.
   */
  @Test
  void aHoldsWaitsAreNotForgivenAnIntervalAClocksAPeriodAThresholdsAre() {
    CellEvidence target = slow(300.3);
    CellEvidence twoHolds = slow(82.1);
    assertThat(WaitSlack.movesUpToMs("timer=39ms -> timer=82.1ms")).isZero();
    assertThat(WaitSlack.movesUpToMs("one-late -> timer=82.1ms -> idle-timeout=3s")).isZero();
    assertThat(WaitSlack.movesUpToMs("timer=27.4ms,periodic=true -> timer=112.3ms"))
        .isEqualTo(27.4);
    assertThat(WaitSlack.movesUpToMs("byte-threshold=2048B -> timer=82.1ms")).isInfinite();
    assertThat(
            Replay.compare("timer=39ms -> timer=82.1ms", List.of(target), List.of(twoHolds)).text())
        .contains("oldest frame's wait 300.3 and 82.1 ms");
    assertThat(
            Replay.compare("one-late -> timer=82.1ms", List.of(target), List.of(slow(300.5)))
                .verified())
        .isTrue();
    assertThat(
            Replay.compare("byte-threshold=50B -> timer=82.1ms", List.of(target), List.of(twoHolds))
                .text())
        .as("a threshold's span may move a wait by one interval")
        .doesNotContain("oldest frame's wait");
    // a clock of 27.4 ms in front moves a wait by its period, not by the cell's interval
    assertThat(
            Replay.compare(
                    "timer=27.4ms,periodic=true -> timer=112.3ms",
                    List.of(target),
                    List.of(slow(112.6)))
                .text())
        .contains("oldest frame's wait 300.3 and 112.6 ms");
  }

  /**
   * A 98 ms hold then one-late, 200 frames of 60 B every 2 ms (s184, a fresh-clone suite,
   * 2026-12-06): the hold's fourth release fell on the stream's last frame, and left before the end
   * on the target (5 reads, 40 frames a read) and with it on the right model (3 reads, 66.67).
   * Releases of alike frames read two reads apart agree (the head, and the release at the end);
   * releases of other sizes do not, nor are streams three reads apart.
   */
  @Test
  void aReleaseThatMeetsTheStreamsEndIsOneReadMoreOrLess() {
    CellEvidence target = fewReads(40.0, 50);
    CellEvidence model = fewReads(66.67, 50);
    assertThat(Replay.difference(target, model)).isNull();
    assertThat(Replay.difference(target, fewReads(66.67, 75)))
        .contains("frames per read 40.00 on the target, 66.67 on the model");
    assertThat(Replay.difference(fewReads(33.33, 50), model))
        .as("six reads against three")
        .contains("frames per read");
  }

  private static CellEvidence fewReads(double framesPerRead, double releaseFrames) {
    return new CellEvidence(
        "frame_size=60B interval=2ms frames=200",
        66,
        60,
        2,
        200,
        1,
        framesPerRead,
        2,
        releaseFrames,
        198.0,
        198.3,
        198.5,
        99.9,
        100.0,
        100.1,
        198.4,
        false);
  }

  private static CellEvidence slow(double wait) {
    return new CellEvidence(
        "frame_size=60B interval=300ms frames=15",
        66,
        60,
        300,
        15,
        1,
        1.0,
        12,
        1,
        wait - 0.1,
        wait,
        wait + 0.2,
        299.9,
        300.2,
        300.4,
        wait,
        false);
  }

  /**
   * Stock HAProxy and its cork model, 4 KiB frames every 2 ms (`map --proxy haproxy --verify`,
   * 2026-12-04): 16 frames a release on both, 65727 B read in two reads on HAProxy (7.79 frames per
   * read) and 65503 B in one on the model (15.39). A release over the read buffer read in two is
   * the buffer's doing; the same split in releases well under the buffer is a difference, and so
   * are releases of other sizes.
   */
  @Test
  void aReleaseOverTheReadBufferReadInTwoAgreesWithOneReadInOne() {
    CellEvidence haproxy = segments(7.79, 16, 30.1, 65727, 65727);
    CellEvidence model = segments(15.39, 16, 32.0, 65503, 65503);
    assertThat(Replay.difference(haproxy, model)).isNull();
    CellEvidence smallReleases = segments(7.79, 16, 30.1, 32000, 32000);
    CellEvidence smallInOne = segments(15.39, 16, 32.0, 32000, 32000);
    assertThat(Replay.difference(smallReleases, smallInOne))
        .contains("frames per read 7.79 on the target, 15.39 on the model");
    CellEvidence fourReads = segments(3.9, 16, 30.1, 65727, 65727);
    assertThat(Replay.difference(fourReads, model))
        .as("four reads a release is no buffer's split")
        .contains("frames per read");
  }

  /**
   * A path that strays (a veth pair, a cluster's agents) widens the waits' floor to twice its own
   * spread, the direct path's emit->recv p99 less p50; on a quiet loopback, where it is a fraction
   * of a millisecond, the fixed floors stay.
   */
  @Test
  void theWaitsFloorWidensToTwiceTheDirectPathsSpread() {
    CellEvidence target = held("a", 15, 15, 30, 30);
    CellEvidence model = held("a", 15, 15, 38, 38);
    assertThat(
            Replay.difference(
                target,
                model,
                Replay.Tolerance.fromDirectPath(0.3),
                null,
                Double.POSITIVE_INFINITY))
        .contains("oldest frame's wait 30.0 and 38.0 ms");
    assertThat(Replay.Tolerance.fromDirectPath(0.3).widened()).isFalse();
    Replay.Tolerance stray = Replay.Tolerance.fromDirectPath(4.5);
    assertThat(stray.widened()).isTrue();
    assertThat(stray.waitFloorMs()).isEqualTo(9.0);
    assertThat(Replay.difference(target, model, stray, null, Double.POSITIVE_INFINITY)).isNull();
    assertThat(
            Replay.difference(
                target, held("a", 15, 15, 41, 41), stray, null, Double.POSITIVE_INFINITY))
        .as("beyond twice the spread")
        .contains("oldest frame's wait");
    assertThat(stray.describe()).contains("9.0 ms").contains("4.50 ms");
  }

  /**
   * Behind Nagle the first release waits for the client's ACK of the response head when that ACK
   * was delayed, and not when it came at once: the first frame's wait may differ by a delayed ACK
   * for a model ending with Nagle (s117: 3.2 ms on the target, 23.7 on its model), not for others.
   */
  @Test
  void behindNagleTheFirstFramesWaitMayDifferByADelayedAck() {
    CellEvidence target = held("a", 15, 15, 30, 3.2);
    CellEvidence model = held("a", 15, 15, 30, 23.7);
    assertThat(
            Replay.compare("byte-threshold=5185B -> nagle", List.of(target), List.of(model), true)
                .verified())
        .isTrue();
    assertThat(
            Replay.compare("byte-threshold=5185B", List.of(target), List.of(model), false).text())
        .contains("first frame's wait 3.2 and 23.7 ms");
    assertThat(
            Replay.compare(
                    "byte-threshold=5185B -> nagle",
                    List.of(target),
                    List.of(held("a", 15, 15, 30, 60)),
                    true)
                .verified())
        .as("more than a delayed ACK apart")
        .isFalse();
  }

  /**
   * A compressor whose 767 B of output came with the 22nd event of 25 (every 50 ms): the stream
   * left in one release 1100.8 ms in, then its end, on the target, and was held likewise on the
   * model. It was read as streamed ("the target streamed them"), as a stream held once counted only
   * when it released within the first 90 % of the stream.
   */
  @Test
  void aStreamHeldOnceLateInItsSpanIsHeld() {
    CellEvidence late =
        new CellEvidence(
            "frame_size=60B interval=50ms frames=25",
            35,
            60,
            50,
            25,
            1,
            12.5,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            1100.8,
            false);
    assertThat(late.heldOnce()).isTrue();
    CellEvidence onModel =
        new CellEvidence(
            "frame_size=60B interval=50ms frames=25",
            35,
            60,
            50,
            25,
            1,
            12.5,
            1,
            21,
            1050,
            1050,
            1050,
            0,
            0,
            0,
            1050.4,
            false);
    assertThat(Replay.difference(late, onModel)).isNull();
  }

  /**
   * 4 KiB frames every 2 ms behind a 298 ms timer and the cork: 5 releases a stream, some gathered
   * by the cork and some not, so their waits spread 212-322 ms and their median falls on either. As
   * `map --shape 'timer=298ms -> cork'` printed the target (p10 212.1, p50 298.3, p90 322.4) and
   * `map --shape 'timer=296.4ms -> cork'` its model (211.2, 261.2, 322.1), both 2026-12-05: they
   * agree. A side whose waits do not spread so agrees where they all lie within the other's spread
   * (releases over a segment: {@link
   * #waitsAllWithinTheOtherSidesSpreadAgreeWhereTheCorkSplitsReleases}), and not where its median
   * lies below it.
   */
  @Test
  void cellsWhoseWaitsSpreadAgreeWhenEachMedianLiesInTheOthersSpread() {
    CellEvidence target = corked(212.1, 298.3, 322.4);
    assertThat(Replay.difference(target, corked(211.2, 261.2, 322.1))).isNull();
    assertThat(Replay.difference(target, corked(211.2, 235.1, 322.1))).isNull();
    // a 329 ms hold: the target's waits 223.7, 329.4 and 329.4 ms in a fresh-clone suite
    // (2026-12-05), its model's median 218.4 there, the model's spread 218.1-359.9 as `map --shape
    // 'timer=327.2ms -> cork'` printed it: the median just short of the target's p10 agrees
    assertThat(Replay.difference(corked(223.7, 329.4, 329.4), corked(218.1, 218.4, 359.9)))
        .isNull();
    assertThat(Replay.difference(target, corked(233.0, 235.1, 237.0)))
        .as("the model's waits do not spread, and all lie within the target's")
        .isNull();
    assertThat(Replay.difference(target, corked(150.0, 170.0, 205.0)))
        .as("its median below the target's spread")
        .isEqualTo("oldest frame's wait 298.3 and 170.0 ms");
  }

  /**
   * A hold of 335 ms before the cork, its 4 KiB cell's first frame after 393.9 ms on the target and
   * 334.6 on the model (a fresh-clone suite, 2026-12-05; the target's waits 224.5, 335.7 and 398.6
   * ms there, the model's 218.1, 327.7 and 359.9 as `map --shape 'timer=327.2ms -> cork'` printed
   * them): each first wait within the other's spread, they agree. A model whose waits do not spread
   * is held to the first wait.
   */
  @Test
  void firstWaitsAgreeWithinEachOthersSpreadWhereBothSpread() {
    CellEvidence target = corked(15, 224.5, 335.7, 398.6, 10023, 58751, 654847, 393.9);
    assertThat(
            Replay.difference(target, corked(15, 218.1, 327.7, 359.9, 10023, 58751, 654847, 334.6)))
        .isNull();
    assertThat(
            Replay.difference(target, corked(15, 320.0, 335.0, 345.0, 10023, 58751, 654847, 334.6)))
        .as("the model's waits do not spread")
        .isEqualTo("first frame's wait 393.9 and 334.6 ms");
  }

  /**
   * The same cell's releases carry 10-655 KB (2-160 frames): the median release was 15 frames on
   * the target and 3 on the model in one map of eight (`map --shape 'timer=298ms -> cork'`,
   * 2026-12-05; the model's relay, `timer=296.4ms -> cork`, released 1.8-5.9 KB at p10 and 655 KB
   * at p90 in three maps). Both spread, each median in the other's spread: they agree. Releases all
   * of one size do not.
   */
  @Test
  void releasesWhoseSizesSpreadAgreeWhenEachMedianLiesInTheOthersSpread() {
    CellEvidence target = corked(212.1, 298.3, 322.4);
    assertThat(Replay.difference(target, corked(3, 211.2, 261.2, 322.1, 5915, 12312, 654847)))
        .isNull();
    assertThat(Replay.difference(target, corked(3, 211.2, 261.2, 322.1, 12000, 12312, 12500)))
        .as("the model's releases all alike")
        .isEqualTo("frames per release 15 and 3");
  }

  /**
   * A compressor flushing every 2538 B of 60 B events in front of a clock of 223 ms: each tick
   * released two flushes or three (86 or 129 frames), and with four releases a stream the median is
   * whichever the clock's phase made commoner. The target's sizes (1421-2163 B about a median of
   * 1430) spread by half the median, one byte short of the spread two medians were held to then,
   * and its right model, median 129, was refused for it (two maps in three, 2026-12-06). Both
   * spread, each median between the other's fewest and most: they agree; a model all of one size
   * does not.
   */
  @Test
  void releasesOfTwoSizesInTurnAgreeWhicheverTheMedianFellOn() {
    CellEvidence target =
        EvidenceLine.parse(
            "frame_size=60B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 86 frames (p10 86, p90 129); the oldest frame waited 255.3 ms (p10 238.8, p90 290.0); 223.3 ms between releases (p10 223.2, p90 223.3); 17 B per frame on the wire, 1444 B per release (p10 1438, p90 2159); the first frame waited 222.4 ms (gzip: compressed bytes as received)");
    CellEvidence model =
        EvidenceLine.parse(
            "frame_size=60B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 129 frames (p10 86, p90 129); the oldest frame waited 262.0 ms (p10 240.1, p90 291.2); 223.3 ms between releases (p10 223.2, p90 223.3); 17 B per frame on the wire, 2160 B per release (p10 1440, p90 2166); the first frame waited 222.6 ms (gzip: compressed bytes as received)");
    assertThat(Replay.difference(target, model)).isNull();
    CellEvidence oneSize =
        EvidenceLine.parse(
            "frame_size=60B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 129 frames (p10 129, p90 129); the oldest frame waited 262.0 ms (p10 240.1, p90 291.2); 223.3 ms between releases (p10 223.2, p90 223.3); 17 B per frame on the wire, 2160 B per release (p10 2150, p90 2166); the first frame waited 222.6 ms (gzip: compressed bytes as received)");
    assertThat(Replay.difference(target, oneSize))
        .as("the model's releases all of three flushes")
        .isEqualTo("frames per release 86 and 129");
  }

  /**
   * A 326 ms hold before the cork, its 4 KiB cell read as releases of 63, 655 and 655 KB on the
   * target (159 frames the median) and mostly in small parts on the right model (3 frames the
   * median), its largest release the same whole write (`map --shape 'timer=326ms -> cork'` beside
   * two busy loops, 2026-12-06). Both spread, the largest alike: they agree, as they do where the
   * target read every write whole. A model whose largest release is 30 % smaller, a hold that much
   * shorter, does not, nor one whose releases are all small.
   */
  @Test
  void releasesReadInPartsAgreeWhenTheLargestAreAlike() {
    CellEvidence target = corked(159, 238.0, 326.6, 350.2, 62866, 654847, 654847, 352.0);
    assertThat(
            Replay.difference(target, corked(3, 230.0, 320.0, 345.0, 12312, 12312, 650743, 349.0)))
        .isNull();
    assertThat(
            Replay.difference(target, corked(3, 230.0, 320.0, 345.0, 12312, 12312, 455000, 349.0)))
        .as("the model's whole write 30 % smaller")
        .isEqualTo("frames per release 159 and 3");
    CellEvidence whole = corked(159, 320.0, 326.6, 330.0, 650000, 654847, 654847, 352.0);
    assertThat(
            Replay.difference(whole, corked(3, 230.0, 320.0, 345.0, 12312, 12312, 650743, 349.0)))
        .as("read whole on the target, in parts on the model")
        .isNull();
    assertThat(Replay.difference(whole, corked(3, 320.0, 326.0, 330.0, 12000, 12312, 12500, 349.0)))
        .as("neither side in parts: a release of 3 frames is not one of 159")
        .isEqualTo("frames per release 159 and 3");
  }

  /**
   * s167 (a fresh-clone suite, 2026-12-06): `timer=305ms -> cork`, whose 4 KiB cell released in
   * segments' parts after 216-311 ms on the target (237.6 the median), all about 289 ms on the
   * right model's relay in another run. The model's waits lie within the target's spread: they
   * agree. Waits all later than the target's spread do not, nor the same waits in a cell whose
   * releases stay under a segment, which the cork does not split.
   */
  @Test
  void waitsAllWithinTheOtherSidesSpreadAgreeWhereTheCorkSplitsReleases() {
    CellEvidence target = corked(13, 215.6, 237.6, 310.7, 5575, 50879, 589823, 312.0);
    assertThat(
            Replay.difference(target, corked(13, 280.1, 289.0, 296.4, 5575, 50879, 589823, 305.0)))
        .isNull();
    assertThat(
            Replay.difference(target, corked(13, 380.1, 389.0, 396.4, 5575, 50879, 589823, 305.0)))
        .as("all later than the target's spread")
        .startsWith("oldest frame's wait 237.6 and 389.0 ms");
    CellEvidence small = corked(13, 215.6, 237.6, 310.7, 5575, 30879, 50000, 312.0);
    assertThat(Replay.difference(small, corked(13, 280.1, 289.0, 296.4, 5575, 30879, 50000, 305.0)))
        .as("releases under a segment")
        .startsWith("oldest frame's wait 237.6 and 289.0 ms");
  }

  private static CellEvidence corked(double w10, double w50, double w90) {
    return corked(15, w10, w50, w90, 10023, 58751, 654847);
  }

  private static CellEvidence corked(
      double releaseFrames,
      double w10,
      double w50,
      double w90,
      double b10,
      double b50,
      double b90) {
    return corked(releaseFrames, w10, w50, w90, b10, b50, b90, 323.5);
  }

  private static CellEvidence corked(
      double releaseFrames,
      double w10,
      double w50,
      double w90,
      double b10,
      double b50,
      double b90,
      double firstWait) {
    return new CellEvidence(
        "frame_size=4096B interval=2ms frames=600",
        4104,
        4096,
        2,
        600,
        1,
        15,
        5,
        releaseFrames,
        w10,
        w50,
        w90,
        44.3,
        207.7,
        254.8,
        firstWait,
        false,
        null,
        b10,
        b50,
        b90);
  }

  /** A cell of 120 frames of 60 B every 10 ms, its releases of 15 frames waiting {@code w} ms. */
  private static CellEvidence everyTenMs(double w) {
    return CellEvidenceBuilder.builder()
        .label("frame_size=60B interval=10ms frames=120")
        .frameBytes(22)
        .bodyBytes(60)
        .intervalMs(10)
        .framesPerStream(120)
        .streams(1)
        .framesPerRead(15)
        .releasesPerStream(6)
        .releaseFrames(15)
        .waitP10(w - 1.6)
        .waitP50(w)
        .waitP90(w + 2.5)
        .gapP10(149.3)
        .gapP50(149.3)
        .gapP90(149.4)
        .firstWaitMs(148.5)
        .build();
  }

  /**
   * A compressor on a 41 ms timer in front of a 149 ms clock: where the clock's ticks fall against
   * the frames moves every release's wait by one of the compressor's cycles, 142.6 to 192.6 ms
   * simulated, so the target's 145.0 and its model's 196.2 agree (a fresh-clone suite refused the
   * right model for them, 2026-12-06); the same waits on a model with a hold in place of the clock,
   * or a target's wait the model's phases never give, differ.
   */
  @Test
  void aModelsClockAtAnyPhaseReproducesTheWaitsItMovesBetween() {
    String clocked = "compress=gzip,flush=timer,after=41ms -> timer=149ms,periodic=true";
    assertThat(
            Replay.compare(clocked, List.of(everyTenMs(145.0)), List.of(everyTenMs(196.2)))
                .verified())
        .isTrue();
    ReplayVerdict held =
        Replay.compare(
            "compress=gzip,flush=timer,after=41ms -> timer=149ms",
            List.of(everyTenMs(145.0)),
            List.of(everyTenMs(196.2)));
    assertThat(held.verified()).isFalse();
    assertThat(held.text()).contains("oldest frame's wait 145.0 and 196.2 ms");
    assertThat(
            Replay.compare(clocked, List.of(everyTenMs(260.0)), List.of(everyTenMs(196.2)))
                .verified())
        .as("a wait past what any phase gives")
        .isFalse();
  }

  /**
   * A clock then one-late, 200 frames of 60 B every 2 ms: 4 reads a stream on the target, 3 on its
   * model, whose 66.667 frames a read (a batch's, to a thousandth) give back 2.99998 reads; a read
   * apart is a read apart (a suite run refused the right model for the hair, 2026-12-06). Three
   * reads apart differ, releases alike or not ({@link
   * #aReleaseThatMeetsTheStreamsEndIsOneReadMoreOrLess} has two).
   */
  @Test
  void oneReadApartIsCountedWholeThoughFramesPerReadAreRounded() {
    assertThat(Replay.difference(fewReads(50), fewReads(66.667))).isNull();
    assertThat(Replay.difference(fewReads(50), fewReads(200))).contains("frames per read");
  }

  private static CellEvidence fewReads(double framesPerRead) {
    return CellEvidenceBuilder.builder()
        .label("frame_size=60B interval=2ms frames=200")
        .frameBytes(66)
        .bodyBytes(60)
        .intervalMs(2)
        .framesPerStream(200)
        .streams(1)
        .framesPerRead(framesPerRead)
        .releasesPerStream(2)
        .releaseFrames(56)
        .waitP10(221)
        .waitP50(221.4)
        .waitP90(222)
        .gapP10(111.1)
        .gapP50(111.2)
        .gapP90(111.3)
        .firstWaitMs(221.9)
        .build();
  }

  /** A stream of 120 events every 10 ms released once, {@code atMs} after its first frame. */
  private static CellEvidence releasedOnceAt(double atMs) {
    return new CellEvidence(
        "frame_size=60B interval=10ms frames=120",
        66,
        60,
        10,
        120,
        1,
        60.0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        atMs,
        false,
        null,
        0,
        0,
        0);
  }

  /**
   * `byte-threshold=3966B -> compress=gzip,flush=next` released 120 events every 10 ms once, at
   * 1180.5 ms, with its 119th; the model of 3993 B held them to the end (1190 ms), a frame's bytes
   * of the threshold later: alike, either way round. A release nine frames before the end is not.
   */
  @Test
  void aStreamReleasedOnceWithItsLastFramesIsAlikeWithOneHeldToItsEnd() {
    CellEvidence atTheEnd = releasedOnceAt(1180.5);
    CellEvidence drained = drained("frame_size=60B interval=10ms frames=120");
    assertThat(atTheEnd.heldOnce()).isTrue();
    assertThat(Replay.difference(atTheEnd, drained)).isNull();
    assertThat(Replay.difference(drained, atTheEnd)).isNull();
    assertThat(Replay.difference(releasedOnceAt(1100), drained))
        .isEqualTo("the model held every stream to its end, the target did not");
  }

  /**
   * Stock HAProxy's 4 KiB cell as s249 measured it on a loaded host (12 frames a push, 49279 B,
   * every 24 ms) against the lab's cork relay (16 a push, 65503 B, every 32 ms, `flushlab map
   * --shape compress=gzip,flush=timer,after=112ms --shape cork` as the plain client, 2026-12-07):
   * both pushed a half window at a time long before the ceiling, which is the client's window, and
   * the cork model agrees there. A model without the cork does not: such a cell is then a
   * threshold's to match.
   */
  @Test
  void pushesOfHalfAWindowAgreeBehindTheCorkWhateverTheirSize() {
    List<CellEvidence> target =
        EvidenceLine.parseAll(
            "frame_size=4096B interval=2ms frames=600: 11.54 frames/read; 49.0 releases per stream of 12 frames (p10 12, p90 12); the oldest frame waited 22.0 ms (p10 21.9, p90 22.3); 24.0 ms between releases (p10 23.8, p90 24.2); 4104 B per frame on the wire, 49279 B per release (p10 49279, p90 49279); the first frame waited 13.9 ms");
    List<CellEvidence> model =
        EvidenceLine.parseAll(
            "frame_size=4096B interval=2ms frames=600: 15.39 frames/read; 37.0 releases per stream of 16 frames (p10 15, p90 16); the oldest frame waited 32.0 ms (p10 30.0, p90 32.1); 32.0 ms between releases (p10 30.0, p90 32.1); 4104 B per frame on the wire, 65503 B per release (p10 65503, p90 65503); the first frame waited 14.1 ms");
    assertThat(Replay.compare("cork", target, model).verified()).isTrue();
    assertThat(Replay.compare("byte-threshold=65503B", target, model).verified()).isFalse();
  }
}
