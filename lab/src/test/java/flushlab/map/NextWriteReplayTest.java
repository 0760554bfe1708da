package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A clock then a compressor that flushes each write when the next comes, and the cell measured to
 * tell it from a compressor on a timer (a map of `timer=113ms,periodic=true ->
 * compress=gzip,flush=next`, 2026-12-06): frames 453 ms apart waited 565.1 ms on the target, 454.4
 * on the hidden chain's own model (its clock at another phase) and 114.3 on the timer's. Each was
 * named alike with the other, the timer's replay within the interval's slack a compressor was
 * allowed and the right one held to a wait its clock's phase had not been simulated for.
 */
class NextWriteReplayTest {
  private static final String NEXT = "timer=113.3ms,periodic=true -> compress=gzip,flush=next";
  private static final String TIMED =
      "timer=113.3ms,periodic=true -> compress=gzip,flush=timer,after=112.9ms";

  private static final CellEvidence SEEN =
      EvidenceLine.parse(
          "frame_size=60B interval=453ms frames=6: 1.20 frames/read; 3.0 releases per stream of 1 frames (p10 1, p90 1); the oldest frame waited 565.1 ms (p10 564.5, p90 565.1); 452.7 ms between releases (p10 452.7, p90 453.0); 34 B per frame on the wire, 40 B per release (p10 39, p90 42); the first frame waited 565.6 ms (gzip: compressed bytes as received)");

  private static CellEvidence waited(double ms) {
    return SEEN.withWaitP50(ms).withWaitP10(ms).withWaitP90(ms).withFirstWaitMs(ms);
  }

  @Test
  void aCompressorOnATimerOrTheNextWriteMovesNoWaitByAnInterval() {
    assertThat(WaitSlack.movesUpToMs(TIMED)).isEqualTo(113.3);
    assertThat(WaitSlack.movesUpToMs(NEXT)).isEqualTo(113.3);
    assertThat(WaitSlack.movesUpToMs("compress=gzip,flush=each -> byte-threshold=3069B"))
        .as("a threshold still counts")
        .isInfinite();
    assertThat(
            WaitSlack.movesUpToMs(
                "timer=285.6ms,periodic=true -> compress=gzip,flush=input,bytes=2425B"))
        .as("a compressor's count counts")
        .isInfinite();
  }

  @Test
  void theTimersModelIsRefusedOnTheTellingCellAndTheNextWritesHeldWithinItsClocksPhases() {
    assertThat(Replay.compare(TIMED, List.of(SEEN), List.of(waited(114.3))).verified())
        .as("114.3 ms against 565.1")
        .isFalse();
    assertThat(Replay.compare(NEXT, List.of(SEEN), List.of(waited(454.4))).verified()).isTrue();
    // its clock's phases give the cell waits from one interval to one interval and a period
    assertThat(Replay.heldToItsValues(NEXT, SEEN, waited(454.4))).isNull();
    assertThat(Replay.heldToItsValues(TIMED, SEEN, waited(114.3))).isNotNull();
  }
}
