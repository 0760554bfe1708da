package flushlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import flushlab.client.StreamResult;
import flushlab.map.CellEvidence;
import java.util.List;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A map cell whose two runs were both excluded because every frame read together was read in a
 * stall of this host: the frames outside the stalls came one at a time, so the cell counts as
 * streamed, and says so; a cell whose reads held frames, or whose runs were excluded for anything
 * else, gives no evidence at all. Streams built read by read (600 frames of 4096 B, 2 ms apart).
 */
class StreamedOutsideStallsTest {
  /** Each frame read on its own 0.1 ms after it was sent. */
  static long alone(long i) {
    return 300_000 + i * DrainedCellTest.INTERVAL;
  }

  /**
   * As {@link #alone}, except that the reader stood still for 10 ms from frame 100: frames 100-104
   * came in one read.
   */
  static long stalledOnce(long i) {
    return i >= 100 && i <= 104 ? alone(104) : alone(i);
  }

  static RunRecord run(StreamResult s, Exclusion why) {
    return new RunRecord(
        "t", 0, 0, new BatchResult(List.of(s)), why, 0, 0, 0, 0, 0, 0, null, List.of());
  }

  static CellEvidence judged(
      Exclusion first,
      LongUnaryOperator firstReads,
      Exclusion second,
      LongUnaryOperator secondReads) {
    List<RunRecord> runs =
        List.of(
            run(DrainedCellTest.stream(firstReads), first),
            run(DrainedCellTest.stream(secondReads), second));
    return MapPass.streamedOutsideStalls(
        TargetCellResult.of("t", DrainedCellTest.CELL, runs), runs, 0);
  }

  static Exclusion stall() {
    return Exclusion.hostStall(
        "the client's host stalled 10 ms at 0.20 s: 4 extra frames read together then");
  }

  @Test
  void twoRunsWhoseOnlyMergedReadsFellInStallsAreAStreamedCellThatSaysSo() {
    CellEvidence e =
        judged(
            stall(),
            StreamedOutsideStallsTest::stalledOnce,
            stall(),
            StreamedOutsideStallsTest::stalledOnce);
    assertThat(e).isNotNull();
    assertThat(e.streamed()).as(e.describe()).isTrue();
    assertThat(e.label()).endsWith("(streamed outside this host's stalls)");
    assertThat(e.streams()).as("both runs' streams").isEqualTo(2);
  }

  /**
   * Pairs everywhere: what a run-queue allowance could have excused is still a target that holds
   * frames, and no evidence.
   */
  @Test
  void runsThatHeldFramesTwoAtATimeGiveNoEvidenceHoweverTheyWereExcluded() {
    LongUnaryOperator pairs = i -> alone(i | 1);
    assertThat(judged(stall(), pairs, stall(), pairs)).isNull();
  }

  @Test
  void aRunExcludedForAnythingButAHostStallOfTheReaderGivesNoEvidence() {
    assertThat(
            judged(
                Exclusion.emitterLate(30_000_000L, 20_000_000L),
                StreamedOutsideStallsTest::alone,
                stall(),
                StreamedOutsideStallsTest::stalledOnce))
        .isNull();
    assertThat(
            judged(
                null,
                StreamedOutsideStallsTest::alone,
                stall(),
                StreamedOutsideStallsTest::stalledOnce))
        .as("a kept run is the cell's evidence already")
        .isNull();
  }

  /**
   * The two-stage fits read the pass as the prober did: a cell streamed outside this host's stalls
   * is data there too (it once ended a pass's two-stage candidates), a kept run is its own
   * evidence, and a cell held in the stalls is none.
   */
  @Test
  void aPassReadsACellStreamedOutsideTheStallsAsTheProberDid() {
    List<RunRecord> stalled =
        List.of(
            run(DrainedCellTest.stream(StreamedOutsideStallsTest::stalledOnce), stall()),
            run(DrainedCellTest.stream(StreamedOutsideStallsTest::stalledOnce), stall()));
    CellEvidence outside =
        MapPass.asProbed(TargetCellResult.of("t", DrainedCellTest.CELL, stalled), 0);
    assertThat(outside).isNotNull();
    assertThat(outside.label()).endsWith("(streamed outside this host's stalls)");
    assertThat(outside.streamed()).isTrue();

    List<RunRecord> kept =
        List.of(run(DrainedCellTest.stream(StreamedOutsideStallsTest::alone), null));
    CellEvidence own = MapPass.asProbed(TargetCellResult.of("t", DrainedCellTest.CELL, kept), 0);
    assertThat(own).isNotNull();
    assertThat(own.label()).doesNotContain("stalls");

    LongUnaryOperator pairs = i -> alone(i | 1);
    List<RunRecord> held =
        List.of(
            run(DrainedCellTest.stream(pairs), stall()),
            run(DrainedCellTest.stream(pairs), stall()));
    assertThat(MapPass.asProbed(TargetCellResult.of("t", DrainedCellTest.CELL, held), 0)).isNull();
  }
}
