package flushlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.map.CompressionFinding;
import flushlab.map.FlushTrigger;
import flushlab.map.TriggerKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pass as the client that accepts compression, ended because this host stalled through both runs
 * of a cell, showed nothing of what the compressor does: no model joins a compressor then. A
 * fresh-clone suite (s234) lost the browser's 60 B cell so, and the map gave a threshold then a
 * compressor flushing one release late, "verified" on the bare client's cells alone.
 */
class AcceptingPassStalledTest {
  private static final FlushTrigger THRESHOLD =
      new FlushTrigger(
          "relay",
          TriggerKind.BYTE_THRESHOLD,
          1419.0,
          1290.0,
          null,
          null,
          "byte threshold: releases once it holds ~1419 B",
          List.of(),
          List.of());

  private static final FlushTrigger STALLED =
      FlushTrigger.inconclusive(
          "relay",
          MapSession.HOST_STALLED
              + " in both runs of frame_size=60B interval=2ms frames=600 (emitter late by 27.082 ms);"
              + " nothing is inferred from it",
          List.of(),
          List.of("map again on a quieter host"));

  private static FlushTrigger found(FlushTrigger accepting, String coding) {
    return accepting.withCompression(
        CompressionFinding.of(coding, "browser", accepting, "bare", THRESHOLD, null));
  }

  @Test
  void anAcceptingPassThisHostStalledThroughLeavesTheCompressorUnseen() {
    FlushTrigger answer = found(STALLED, "gzip");
    assertThat(answer.kind()).isEqualTo(TriggerKind.INCONCLUSIVE);
    assertThat(MapSession.acceptingPassStalled(answer)).isTrue();
  }

  @Test
  void anAcceptingPassNoMechanismExplainedIsNoStall() {
    FlushTrigger unexplained =
        FlushTrigger.inconclusive(
            "relay", "no one mechanism explains every cell", List.of(), List.of());
    assertThat(MapSession.acceptingPassStalled(found(unexplained, "gzip"))).isFalse();
    assertThat(MapSession.acceptingPassStalled(found(THRESHOLD, "gzip"))).isFalse();
    assertThat(MapSession.acceptingPassStalled(THRESHOLD)).as("no compression step").isFalse();
  }
}
