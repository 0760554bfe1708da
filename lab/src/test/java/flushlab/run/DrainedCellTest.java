package flushlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.ReadByRead;
import flushlab.client.BatchResult;
import flushlab.client.StreamResult;
import flushlab.map.CellEvidence;
import flushlab.scenario.Cell;
import java.util.List;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Whether a cell counts as drained (nothing left before the end) from what its reads showed, with
 * streams built read by read: 600 frames of 4096 B sent 2 ms apart, as the map's large-frame cell.
 */
class DrainedCellTest {
  static final int FRAMES = 600;
  static final int SIZE = 4096;
  static final long INTERVAL = 2_000_000L;
  static final Cell CELL = ReadByRead.cell(FRAMES, SIZE, "2ms");

  /** One stream of the cell's frames, read at {@code readAt(i)} ({@link ReadByRead}). */
  static StreamResult stream(LongUnaryOperator readAt) {
    return ReadByRead.stream(FRAMES, SIZE, INTERVAL, readAt);
  }

  static CellEvidence evidence(StreamResult s) {
    assertThat(s.ok()).as(String.valueOf(s.errorMessage())).isTrue();
    BatchResult b = new BatchResult(List.of(s));
    RunRecord run = new RunRecord("t", 0, 0, b, null, 0, 0, 0, 0, 0, 0, null, List.of());
    return TargetCellResult.of("t", CELL, List.of(run)).evidence(0);
  }

  static final long END = 200_000 + FRAMES * INTERVAL + 500_000;

  @Test
  void everythingAtTheEndInOneBurstIsDrained() {
    assertThat(evidence(stream(i -> END + (i / 16) * 30_000L)).drained()).isTrue();
  }

  /**
   * The end came in two pieces: the sender's loop stalled 3 ms after the first half, and the
   * client, having read what was there (a read shorter than its buffer), waited for the rest. The
   * first frame was still read only after the last was sent: drained, not "released once".
   */
  @Test
  void anEndSplitByAStallOfTheSenderIsStillDrained() {
    CellEvidence e =
        evidence(
            stream(
                i ->
                    i < 300
                        ? END + (i / 16) * 30_000L
                        : END + 5_000_000L + ((i - 300) / 16) * 30_000L));
    assertThat(e.drained()).as(e.describe()).isTrue();
  }

  /**
   * A hold of half the stream, then the rest at the end: the first frame was read long before the
   * last was sent.
   */
  @Test
  void aReleaseBeforeTheLastFrameWasSentIsNotDrained() {
    long half = 200_000 + 300 * INTERVAL + 500_000;
    CellEvidence e =
        evidence(
            stream(i -> i < 300 ? half + (i / 16) * 30_000L : END + ((i - 300) / 16) * 30_000L));
    assertThat(e.drained()).as(e.describe()).isFalse();
  }
}
