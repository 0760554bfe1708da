package flushlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.ReadByRead;
import flushlab.client.BatchResult;
import flushlab.client.SentTogether;
import flushlab.client.StreamResult;
import flushlab.core.StallFigures;
import flushlab.map.CellEvidence;
import java.util.List;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Frames the lab's emitter wrote together, late on its host, are not frames a path held together.
 * Streams built read by read: 600 frames of 4096 B due 2 ms apart ({@link DrainedCellTest#CELL}).
 */
class SentTogetherTest {
  static final long INTERVAL = DrainedCellTest.INTERVAL;

  /** Due at 0.2 ms plus i intervals. */
  static long due(long i) {
    return 200_000 + i * INTERVAL;
  }

  /**
   * s168's emitter: its loop ran late by about an interval before every fourth frame, so it wrote
   * that frame and the next one at once, when the next came due.
   */
  static long lateEveryFourth(long i) {
    return i % 4 == 0 && i > 0 ? due(i + 1) : due(i);
  }

  /** Each frame read 0.2 ms after it was written: the path streamed. */
  static LongUnaryOperator readAfterSent(LongUnaryOperator sentAt) {
    return i -> sentAt.applyAsLong(i) + 200_000;
  }

  static StreamResult stream(LongUnaryOperator sentAt, LongUnaryOperator readAt) {
    StreamResult s =
        ReadByRead.stream(DrainedCellTest.FRAMES, DrainedCellTest.SIZE, sentAt, readAt);
    assertThat(s.ok()).as(String.valueOf(s.errorMessage())).isTrue();
    return s;
  }

  static RunRecord run(StreamResult s) {
    BatchResult b = new BatchResult(List.of(s));
    RunStalls stalls =
        new RunStalls(
            StallFigures.NONE,
            StallFigures.NONE,
            b.streamResults().get(0).integrity().frames(),
            0,
            0,
            0,
            null,
            null,
            List.of(),
            StallJudge.PathWait.NONE,
            SentTogether.extraFrames(s, INTERVAL));
    return new RunRecord("t", 0, 0, b, null, 0, 0, 0, 0, 0, 0, stalls, List.of());
  }

  static CellEvidence evidence(StreamResult s) {
    return TargetCellResult.of("t", DrainedCellTest.CELL, List.of(run(s))).evidence(0);
  }

  @Test
  void framesTheEmitterWroteAtOnceAndThePathPassedAtOnceAreAStreamedCell() {
    StreamResult s =
        stream(SentTogetherTest::lateEveryFourth, readAfterSent(SentTogetherTest::lateEveryFourth));
    // 149 of the 600 frames were written with the one after them, and read with it
    assertThat(SentTogether.extraFrames(s, INTERVAL)).isEqualTo(149);
    CellEvidence e = evidence(s);
    assertThat(e.framesPerRead()).as(e.describe()).isGreaterThan(1.3);
    assertThat(e.framesSentApartPerRead()).as(e.describe()).isEqualTo(1.0);
    assertThat(e.streamed()).as(e.describe()).isTrue();
    assertThat(e.describe())
        .contains("1.00 sent apart: this lab's emitter, late on its host, wrote the rest together");
  }

  /**
   * The same merged reads of frames written an interval apart: something held the first of each
   * pair until the second came, and the cell did not stream.
   */
  @Test
  void framesWrittenApartAndReadTogetherAreThePaths() {
    StreamResult s =
        stream(SentTogetherTest::due, readAfterSent(SentTogetherTest::lateEveryFourth));
    assertThat(SentTogether.extraFrames(s, INTERVAL)).isZero();
    CellEvidence e = evidence(s);
    assertThat(e.framesSentApartPerRead()).isEqualTo(e.framesPerRead()).isGreaterThan(1.3);
    assertThat(e.streamed()).as(e.describe()).isFalse();
    assertThat(e.describe()).doesNotContain("sent apart");
  }

  /**
   * Frames asked for back to back are sent together by design: none of them is the emitter's
   * lateness.
   */
  @Test
  void framesSentBackToBackAreNeverCounted() {
    StreamResult s = stream(i -> 200_000, i -> 400_000 + (i / 16) * 10_000);
    assertThat(SentTogether.extraFrames(s, 0)).isZero();
  }

  /**
   * The direct path's certification: the emitter's own bunching does not make the path unclean, a
   * path that merged frames written apart does.
   */
  @Test
  void theDirectPathIsCertifiedThroughTheEmittersLatenessButNotThroughItsOwnMerging() {
    Certification late =
        Certification.judged(
            List.of(
                run(
                    stream(
                        SentTogetherTest::lateEveryFourth,
                        readAfterSent(SentTogetherTest::lateEveryFourth)))),
            1.10,
            false,
            false);
    assertThat(late.certified()).as(late.verdict()).isTrue();
    assertThat(late.verdict())
        .startsWith("certified (1.000 frames per read with what this lab's emitter");
    Certification merged =
        Certification.judged(
            List.of(
                run(
                    stream(
                        SentTogetherTest::due, readAfterSent(SentTogetherTest::lateEveryFourth)))),
            1.10,
            false,
            false);
    assertThat(merged.certified()).as(merged.verdict()).isFalse();
    assertThat(merged.verdict()).startsWith("not certified: the direct path read 1.33");
  }

  /**
   * No run kept, this host's stall the cause of some exclusions and an emitter late with no stall
   * logged of the others: the verdict says this host stalled (s275 named the stall only inside the
   * last run's reason, and a test that skips on this host's stalls could not tell).
   */
  @Test
  void noRunKeptWhereThisHostStalledThroughSomeSaysSo() {
    StreamResult s = stream(SentTogetherTest::due, readAfterSent(SentTogetherTest::due));
    RunRecord late =
        run(s)
            .withExclusion(
                new Exclusion(
                    Exclusion.Cause.EMITTER_LATE,
                    "emitter late by 53.083 ms (tolerance 20.000 ms); its loop logged no stall then"));
    RunRecord stalled =
        run(s)
            .withExclusion(
                new Exclusion(
                    Exclusion.Cause.HOST_STALL,
                    "the client's host stalled 23 ms at 0.03 s: 3 frames read together then"));
    Certification c = Certification.judged(List.of(late, stalled), 1.10, false, false);
    assertThat(c.certified()).isFalse();
    assertThat(c.verdict())
        .startsWith("not certified: no run was kept (the client's host stalled 23 ms")
        .contains("; this host stalled during certification");
    Certification none = Certification.judged(List.of(late), 1.10, false, false);
    assertThat(none.verdict())
        .as("no stall of this host: nothing said of one")
        .doesNotContain("this host stalled");
  }
}
