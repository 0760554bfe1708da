package flushlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.map.CellMatch;
import flushlab.map.ReplayVerdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A candidate among others is refused by its first differing cell, replayed from the cells measured
 * last (those measured to tell models apart); the answer's own model is replayed on every cell in
 * the order measured, so that its verdict says which clients' cells it reproduced.
 */
class ModelReplayTest {
  @Test
  void aCandidatesCellsAreReplayedLastFirstAndTheAnswersAsMeasured() {
    List<String> measured = List.of("plain 60 B", "plain 4 KiB", "accepting 60 B", "pinning");
    assertThat(ModelReplay.replayOrder(measured, true))
        .containsExactly("pinning", "accepting 60 B", "plain 4 KiB", "plain 60 B");
    assertThat(ModelReplay.replayOrder(measured, false)).isEqualTo(measured);
  }

  @Test
  void aReplayStoppedAtItsFirstDifferenceSaysSoAndIsNotTheBudgets() {
    ReplayVerdict v =
        new ReplayVerdict(
            "timer=249.4ms -> compress=gzip,flush=none -> nagle",
            List.of(
                new CellMatch("pinning", null),
                new CellMatch(
                    "frame_size=60B interval=2ms frames=600",
                    "the model held every stream to its end, the target did not")));
    ModelReplay.Outcome o =
        new ModelReplay.Outcome(v, null, null, 0, List.of(), List.of(), null, 8, List.of());
    assertThat(o.notReplayed()).isZero();
    assertThat(o.text())
        .startsWith("not verified: the model timer=249.4ms -> compress=gzip,flush=none -> nagle")
        .contains("reproduces 1 of 2 cells")
        .endsWith("(8 more not replayed: one cell that differs refuses it)");
  }
}
