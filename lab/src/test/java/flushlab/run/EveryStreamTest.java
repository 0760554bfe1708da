package flushlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import flushlab.client.StreamResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a cell's runs say apart from their pacing (the map's compression probe reads the response
 * head's Content-Encoding from them) counts a run the pacing guard excluded too; its timing does
 * not. A probe whose one run was excluded on a host that stalled once said "answered without
 * compression" of a relay that compressed every response.
 */
class EveryStreamTest {

  @Test
  void anExcludedRunsStreamsCountForWhatTheyReadButNotForTheirTiming() {
    StreamResult s = DrainedCellTest.stream(i -> DrainedCellTest.END);
    RunRecord excluded =
        new RunRecord(
            "t",
            0,
            0,
            new BatchResult(List.of(s)),
            Exclusion.emitterLate(30_000_000L, 10_000_000L),
            30_000_000L,
            0,
            0,
            0,
            0,
            0,
            null,
            List.of());
    TargetCellResult r = TargetCellResult.of("t", DrainedCellTest.CELL, List.of(excluded));
    assertThat(r.included().streamsOk()).isZero();
    assertThat(r.everyStream().streamsOk()).isEqualTo(1);
  }

  @Test
  void aRunThatReadNothingGivesNoStreamToReadACodingFrom() {
    RunRecord failed =
        new RunRecord(
            "t",
            0,
            0,
            new BatchResult(List.of(StreamResult.connectFailed("connection refused"))),
            null,
            0,
            0,
            0,
            0,
            0,
            0,
            null,
            List.of());
    BatchResult every =
        TargetCellResult.of("t", DrainedCellTest.CELL, List.of(failed)).everyStream();
    assertThat(every.streamsOk()).isZero();
    assertThat(every.firstError()).contains("connection refused");
  }
}
