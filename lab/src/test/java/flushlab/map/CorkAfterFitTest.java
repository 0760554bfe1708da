package flushlab.map;

import static flushlab.map.TriggerInferenceTest.drained;
import static flushlab.map.TriggerInferenceTest.held;
import static org.assertj.core.api.Assertions.assertThat;

import flushlab.netpath.NetworkPath;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Candidates of a holding stage then the kernel's cork, from cells as `map --shape
 * 'byte-threshold=2500B -> cork'` measured them (2026-12-04; no network here): 60 B frames every 10
 * ms fill the buffer every 380 ms, slower than the cork's ceiling, so each release of 38 frames
 * leaves alone, ~210 ms late; faster cells leave as a cork lets them, about the ceiling apart or a
 * segment at a time, and say nothing of the buffer.
 */
class CorkAfterFitTest {
  static final CellEvidence SLOW_BUFFER = held(66, 10, 120, 38, 580.3, 376.2);
  static final List<CellEvidence> BUFFER_THEN_CORK =
      List.of(
          held(66, 2, 600, 114, 282.5, 256.1),
          segments(),
          drained(66, 50, 25),
          SLOW_BUFFER,
          held(1031, 20, 60, 12, 248.4, 236.1));

  /** 4 KiB frames every 2 ms: 16 to a 64 KiB segment, 32 ms apart. */
  static CellEvidence segments() {
    return new CellEvidence(
        "f=4104 i=2",
        4104,
        4098,
        2,
        600,
        1,
        16,
        35,
        16,
        30.1,
        32.0,
        32.1,
        30.1,
        32.0,
        32.1,
        14.0,
        false,
        null,
        65503,
        65503,
        65503);
  }

  @Test
  void aBufferWhoseSlowReleasesWaitTheCorksCeilingMoreIsTheBufferThenTheCork() {
    FlushTrigger single = TriggerInference.infer("x", BUFFER_THEN_CORK);
    assertThat(single.kind()).as(single.verdict()).isEqualTo(TriggerKind.INCONCLUSIVE);

    List<TwoStageCandidate> two =
        CorkAfterFit.candidates("x", BUFFER_THEN_CORK, NetworkPath.LOOPBACK);
    // 38 frames of 66 B reach it, 37 do not
    assertThat(SocketStageFitTest.thresholdThen(two, TriggerKind.CORK))
        .isBetween(37 * 66 + 1, 38 * 66);
    assertThat(two.get(0).socketStage()).isFalse();
    assertThat(ShaperModel.of(two.get(0).answer()).alike())
        .as("the cork is the socket's, wherever the chain names it")
        .containsExactly("cork -> " + two.get(0).chain().replace(" -> cork", ""));
  }

  /**
   * Without a cell whose releases came well over the ceiling apart, the buffer is not seen: no
   * candidate.
   */
  @Test
  void cellsTheCorkAloneShapesGiveNoCandidate() {
    List<CellEvidence> cells = BUFFER_THEN_CORK.stream().filter(c -> c != SLOW_BUFFER).toList();
    assertThat(CorkAfterFit.candidates("x", cells, NetworkPath.LOOPBACK)).isEmpty();
  }

  /**
   * A larger buffer (3398 B) released the 10 ms cell only once before its end, which says nothing
   * of the gap between its releases: no candidate, and the cell is measured three times longer
   * next.
   */
  @Test
  void aCellReleasedOnceIsMeasuredLongerNotGuessedFrom() {
    CellEvidence once =
        new CellEvidence(
            "f=66 i=10", 66, 60, 10, 120, 1, 40, 0, 0, 0, 0, 0, 0, 0, 0, 1099.9, false);
    assertThat(once.heldOnce()).isTrue();
    List<CellEvidence> cells =
        BUFFER_THEN_CORK.stream().map(c -> c == SLOW_BUFFER ? once : c).toList();
    assertThat(CorkAfterFit.candidates("x", cells, NetworkPath.LOOPBACK)).isEmpty();
    assertThat(TriggerInference.nextPlans(cells)).contains(new CellPlan(60, 10_000_000L, 360));
    assertThat(Discovery.longerThanOneRelease(SLOW_BUFFER))
        .as("a cell released many times")
        .isNull();
  }

  /**
   * One cell as measured: the oldest frame's wait and the gap between releases at p10, p50, p90.
   */
  static CellEvidence measured(
      double f, double i, int frames, double r, double[] w, double[] g, double releaseBytes) {
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
        w[0],
        w[1],
        w[2],
        g[0],
        g[1],
        g[2],
        w[1],
        false,
        null,
        releaseBytes,
        releaseBytes,
        releaseBytes);
  }

  /**
   * One-late, then the cork, as `map --shape 'one-late -> cork'` measured it (2026-12-04): every
   * cell the cork's, but each oldest frame one interval later (60 B every 50 ms waited 260.8 ms,
   * every 2 ms 213.4), which no cork alone does. Replayed, the candidate reproduced 6 of 6 cells.
   */
  @Test
  void cellsACorkHoldsOneIntervalLongerAreOneLateThenTheCork() {
    List<CellEvidence> cells =
        List.of(
            measured(
                66,
                2,
                600,
                106,
                new double[] {209.5, 213.4, 257.5},
                new double[] {208.0, 212.2, 256.1},
                6999),
            measured(
                4104,
                2,
                600,
                16,
                new double[] {32.0, 34.0, 34.1},
                new double[] {30.1, 32.0, 32.1},
                65503),
            measured(
                66,
                50,
                25,
                5,
                new double[] {258.7, 260.8, 278.7},
                new double[] {232.1, 248.0, 256.1},
                330),
            measured(
                66,
                10,
                120,
                22,
                new double[] {217.4, 221.2, 259.2},
                new double[] {212.1, 216.3, 256.0},
                1452),
            measured(
                1031,
                20,
                60,
                11,
                new double[] {226.4, 230.4, 262.3},
                new double[] {216.1, 219.9, 256.0},
                11343));
    FlushTrigger single = TriggerInference.infer("x", cells);
    assertThat(single.kind()).as(single.verdict()).isNotEqualTo(TriggerKind.CORK);
    List<TwoStageCandidate> two = CorkAfterFit.candidates("x", cells, NetworkPath.LOOPBACK);
    assertThat(two).extracting(TwoStageCandidate::chain).containsExactly("one-late -> cork");
    assertThat(two.get(0).answer().kind()).isEqualTo(TriggerKind.ONE_LATE);
    assertThat(two.get(0).answer().then()).isEqualTo(TriggerKind.CORK);
    assertThat(ShaperModel.of(two.get(0).answer()).alike()).containsExactly("cork -> one-late");
  }

  /**
   * A hold timer of 298 ms, then the cork, as two maps of `map --shape 'timer=298ms -> cork'`
   * measured it (2026-12-05): its slow cells' waits, less the ceiling's 210 ms, read 292.7-296.9
   * ms, but the 60 B cell every 2 ms released 150 frames, the frames of a 298 ms hold. The ceiling
   * is 200 ms at least, so the stage may be up to 10 ms longer than read, and each cell's wait that
   * much further from another's: fitted.
   */
  @Test
  void aTimerReadBackShortByTheCeilingsSlackIsStillTheStage() {
    List<CellEvidence> cells =
        List.of(
            cell(
                66,
                2,
                600,
                150,
                new double[] {502.7, 502.7, 506.9},
                new double[] {295.9, 296.0, 304.1},
                505.9),
            new CellEvidence(
                "f=4104 i=2",
                4104,
                4096,
                2,
                600,
                1,
                15,
                5,
                15,
                212.9,
                298.5,
                323.9,
                45.0,
                204.1,
                254.3,
                324.7,
                false,
                null,
                10023,
                58751,
                654847),
            cell(
                66,
                50,
                25,
                6,
                new double[] {506.9, 506.9, 510.1},
                new double[] {296.2, 296.2, 308.3},
                502.7),
            cell(
                66,
                10,
                120,
                30,
                new double[] {506.9, 506.9, 510.9},
                new double[] {296.0, 296.0, 312.2},
                499.1),
            cell(
                1031,
                20,
                60,
                15,
                new double[] {502.7, 502.7, 506.7},
                new double[] {296.2, 296.2, 304.1},
                506.7));
    aTimerOf298MsThenTheCork(cells);
    // another map: the 60 B cell every 50 ms, two releases a stream, waited 513.3 ms, the lowest
    // 504.4; less the
    // ceiling, 303.3 and 294.4 ms, 0.07 ms further apart than two cells of one hold may be, but the
    // ceiling's own slack
    aTimerOf298MsThenTheCork(
        List.of(
            cell(
                66,
                2,
                600,
                150,
                new double[] {504.4, 504.4, 508.4},
                new double[] {296.2, 296.2, 304.0},
                508.4),
            new CellEvidence(
                "f=4104 i=2",
                4104,
                4096,
                2,
                600,
                1,
                15,
                5,
                15,
                213.1,
                299.2,
                325.9,
                42.9,
                205.2,
                256.9,
                326.2,
                false,
                null,
                10023,
                58751,
                654847),
            cell(
                66,
                50,
                25,
                6,
                new double[] {513.3, 513.3, 513.3},
                new double[] {300.1, 300.1, 308.0},
                505.2),
            cell(
                66,
                10,
                120,
                30,
                new double[] {508.4, 508.4, 508.4},
                new double[] {300.1, 300.1, 304.0},
                504.2),
            cell(
                1031,
                20,
                60,
                15,
                new double[] {506.3, 506.3, 510.5},
                new double[] {300.1, 300.1, 304.3},
                506.5)));
  }

  /**
   * `map --shape 'timer=336ms -> cork'`, one map in six (2026-12-05): the 4 KiB cell's releases
   * mixed the stage's, passed a segment at a time, with the tails the cork held (5.8-720 KB, 81 ms
   * apart at the median), neither the stage's nor a cork's alone. It is left to the replay, and the
   * stage is fitted from the others.
   */
  @Test
  void aCellWhoseReleasesSpilledOverASegmentIsLeftToTheReplay() {
    List<CellEvidence> cells =
        List.of(
            once(66, 2, 600, 169, 544.1, 336.0, 546.2),
            new CellEvidence(
                "f=4104 i=2",
                4104,
                4096,
                2,
                600,
                1,
                7,
                4,
                7,
                269.4,
                287.5,
                360.1,
                79.8,
                81.0,
                257.5,
                364.0,
                false,
                null,
                5755,
                26623,
                720383),
            once(66, 50, 25, 7, 547.3, 360.1, 537.3),
            once(66, 10, 120, 34, 547.3, 348.1, 538.9),
            once(1031, 20, 60, 17, 541.5, 340.2, 541.5));
    List<TwoStageCandidate> two = CorkAfterFit.candidates("x", cells, NetworkPath.LOOPBACK);
    assertThat(two)
        .extracting(TwoStageCandidate::chain)
        .hasSize(1)
        .first()
        .asString()
        .matches("timer=[0-9.]+ms -> cork");
    assertThat(two.get(0).answer().timerMs()).isBetween(0.95 * 336, 1.05 * 336);
  }

  /** A cell released once between its first release and its end: every figure that release's. */
  private static CellEvidence once(
      int frameBytes,
      double intervalMs,
      int perStream,
      int frames,
      double waitMs,
      double gapMs,
      double firstWaitMs) {
    double bytes = frames * frameBytes;
    return new CellEvidence(
        "f=" + frameBytes + " i=" + intervalMs,
        frameBytes,
        frameBytes - 6,
        intervalMs,
        perStream,
        1,
        frames,
        1,
        frames,
        waitMs,
        waitMs,
        waitMs,
        gapMs,
        gapMs,
        gapMs,
        firstWaitMs,
        false,
        null,
        bytes,
        bytes,
        bytes);
  }

  private static void aTimerOf298MsThenTheCork(List<CellEvidence> cells) {
    List<TwoStageCandidate> two = CorkAfterFit.candidates("x", cells, NetworkPath.LOOPBACK);
    assertThat(two)
        .extracting(TwoStageCandidate::chain)
        .hasSize(1)
        .first()
        .asString()
        .matches("timer=[0-9.]+ms -> cork");
    assertThat(two.get(0).answer().timerMs()).isBetween(0.95 * 298, 1.05 * 298);
  }

  /**
   * A cell held twice per stream, each release of {@code frames} frames, with its waits and gaps
   * (p10, p50, p90).
   */
  private static CellEvidence cell(
      int frameBytes,
      double intervalMs,
      int perStream,
      int frames,
      double[] waits,
      double[] gaps,
      double firstWaitMs) {
    double bytes = frames * frameBytes;
    return new CellEvidence(
        "f=" + frameBytes + " i=" + intervalMs,
        frameBytes,
        frameBytes - 6,
        intervalMs,
        perStream,
        1,
        frames,
        2,
        frames,
        waits[0],
        waits[1],
        waits[2],
        gaps[0],
        gaps[1],
        gaps[2],
        firstWaitMs,
        false,
        null,
        bytes,
        bytes,
        bytes);
  }

  /**
   * A cell that streamed is no cork's: no candidate; nor on a path other than loopback, whose
   * segments are not 64 KiB.
   */
  @Test
  void aStreamedCellOrAnotherPathGivesNoCandidate() {
    List<CellEvidence> streamed = List.of(SLOW_BUFFER, TriggerInferenceTest.streamed(4104, 2, 600));
    assertThat(CorkAfterFit.candidates("x", streamed, NetworkPath.LOOPBACK)).isEmpty();
    assertThat(
            CorkAfterFit.candidates("x", BUFFER_THEN_CORK, NetworkPath.of("--path", "veth", 1500)))
        .isEmpty();
  }

  /**
   * `timer=293ms,periodic=true -> cork` as `flushlab map --client browser` measured it
   * (2026-12-07): every cell reads as a hold of 283 ms then the cork, and the clock was never
   * replayed, so a hold was answered. A hold before the cork now has its clock twin, fitted by
   * simulation, to be replayed and told apart; a hold's own cells (`timer=283ms -> cork`, the same
   * day) have none.
   */
  @Test
  void aHoldBeforeTheCorkHasItsClockTwinWhereTheCellsAllowOne() {
    List<CellEvidence> clock =
        EvidenceLine.parseAll(
            "frame_size=60B interval=2ms frames=600: 150.00 frames/read; 2.0 releases per stream of 146 frames (p10 146, p90 147); the oldest frame waited 499.6 ms (p10 499.6, p90 503.8); 292.0 ms between releases (p10 292.0, p90 296.2); 66 B per frame on the wire, 9639 B per release (p10 9639, p90 9703); the first frame waited 501.7 ms",
            "frame_size=4096B interval=2ms frames=600: 15.00 frames/read; 5.0 releases per stream of 16 frames (p10 4, p90 143); the oldest frame waited 292.5 ms (p10 213.3, p90 317.1); 206.8 ms between releases (p10 39.6, p90 254.4); 4104 B per frame on the wire, 63199 B per release (p10 13943, p90 589823); the first frame waited 317.4 ms",
            "frame_size=60B interval=50ms frames=25: 6.25 frames/read; 2.0 releases per stream of 6 frames (p10 6, p90 6); the oldest frame waited 489.9 ms (p10 489.9, p90 494.1); 296.2 ms between releases (p10 296.2, p90 300.2); 66 B per frame on the wire, 396 B per release (p10 396, p90 396); the first frame waited 494.1 ms",
            "frame_size=60B interval=10ms frames=120: 30.00 frames/read; 2.0 releases per stream of 29 frames (p10 29, p90 29); the oldest frame waited 496.5 ms (p10 496.5, p90 498.5); 292.3 ms between releases (p10 292.3, p90 299.9); 66 B per frame on the wire, 1914 B per release (p10 1914, p90 1914); the first frame waited 496.5 ms",
            "frame_size=1024B interval=20ms frames=60: 15.00 frames/read; 2.0 releases per stream of 14 frames (p10 14, p90 15); the oldest frame waited 487.5 ms (p10 487.5, p90 491.7); 288.1 ms between releases (p10 288.1, p90 296.2); 1031 B per frame on the wire, 14439 B per release (p10 14439, p90 15471); the first frame waited 503.8 ms");
    List<TwoStageCandidate> holds = CorkAfterFit.candidates("x", clock, NetworkPath.LOOPBACK);
    assertThat(holds)
        .extracting(TwoStageCandidate::chain)
        .anyMatch(c -> c.matches("timer=[0-9.]+ms -> cork"));
    List<TwoStageCandidate> twins =
        CorkAfterFit.clockTwins("x", clock, NetworkPath.LOOPBACK, holds);
    assertThat(twins).hasSize(1);
    PairSimulation.Stage[] twin = ChainStages.of(twins.get(0).chain());
    assertThat(twin[0].kind()).isEqualTo(PairSimulation.Kind.PERIODIC);
    assertThat(twin[0].value()).isBetween(293 / 1.05, 293 * 1.05);
    List<CellEvidence> hold =
        EvidenceLine.parseAll(
            "frame_size=60B interval=2ms frames=600: 150.00 frames/read; 2.0 releases per stream of 142 frames (p10 142, p90 142); the oldest frame waited 494.6 ms (p10 494.6, p90 494.6); 284.2 ms between releases (p10 284.2, p90 284.2); 66 B per frame on the wire, 9375 B per release (p10 9375, p90 9375); the first frame waited 494.4 ms",
            "frame_size=4096B interval=2ms frames=600: 15.00 frames/read; 6.0 releases per stream of 15 frames (p10 7, p90 143); the oldest frame waited 283.6 ms (p10 229.8, p90 307.2); 79.6 ms between releases (p10 31.0, p90 253.4); 4104 B per frame on the wire, 58911 B per release (p10 25919, p90 589823); the first frame waited 310.6 ms",
            "frame_size=60B interval=50ms frames=25: 6.25 frames/read; 2.0 releases per stream of 6 frames (p10 6, p90 6); the oldest frame waited 492.0 ms (p10 492.0, p90 492.0); 300.2 ms between releases (p10 300.2, p90 308.0); 66 B per frame on the wire, 396 B per release (p10 396, p90 396); the first frame waited 484.1 ms",
            "frame_size=60B interval=10ms frames=120: 30.00 frames/read; 2.0 releases per stream of 29 frames (p10 29, p90 29); the oldest frame waited 493.8 ms (p10 493.8, p90 495.7); 288.1 ms between releases (p10 288.1, p90 300.2); 66 B per frame on the wire, 1914 B per release (p10 1914, p90 1914); the first frame waited 485.7 ms",
            "frame_size=1024B interval=20ms frames=60: 15.00 frames/read; 2.0 releases per stream of 15 frames (p10 15, p90 15); the oldest frame waited 493.3 ms (p10 493.3, p90 493.3); 300.2 ms between releases (p10 300.2, p90 304.1); 1031 B per frame on the wire, 15471 B per release (p10 15471, p90 15471); the first frame waited 489.4 ms");
    assertThat(
            CorkAfterFit.clockTwins(
                "x",
                hold,
                NetworkPath.LOOPBACK,
                CorkAfterFit.candidates("x", hold, NetworkPath.LOOPBACK)))
        .isEmpty();
  }
}
