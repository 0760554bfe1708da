package flushlab.map;

import java.util.Comparator;
import java.util.List;

/**
 * A model of two stages the cells allow where no one mechanism explains them, and the answer it
 * stands for once its replay, run on the target's path, reproduced every cell ({@link Replay}).
 *
 * @param chain the model, as `--shape` takes it
 * @param answer the answer it stands for: {@code kind} the first stage, {@code then} the second
 */
public record TwoStageCandidate(String chain, FlushTrigger answer) {

  /**
   * Whether the model ends with the client socket's Nagle, whose cells the replay compares by its
   * own rule: in the answer, or in what a compressing target did for clients that do not accept its
   * coding.
   */
  public boolean socketStage() {
    CompressionFinding c = answer.compression();
    FlushTrigger others = c == null ? null : c.others();
    return nagle(answer) || others != null && nagle(others);
  }

  private static boolean nagle(FlushTrigger t) {
    return t.kind() == TriggerKind.NAGLE || t.then() == TriggerKind.NAGLE;
  }

  /**
   * {@code pairs} with those that fit one value (one-late's pairs) before those that fit two, each
   * kind in the order given: the map gives the simplest model that replays, and its budget can end
   * on the way. `one-late -> timer=243ms,periodic=true` was answered a hold of 116.8 ms then the
   * clock (one of 127 pairs of a hold and a clock that fit), verified, the budget out before
   * one-late's turn (a chain bench, seed 20261244, 2026-12-07).
   */
  public static List<TwoStageCandidate> simplestFirst(List<TwoStageCandidate> pairs) {
    return pairs.stream().sorted(Comparator.comparingInt(TwoStageCandidate::valuesFitted)).toList();
  }

  /** How many values the model's stages were fitted with: one-late has none. */
  private int valuesFitted() {
    PairSimulation.Stage[] stages = ChainStages.of(chain);
    if (stages == null) return 2;
    int n = 0;
    for (PairSimulation.Stage s : stages) if (s.kind() != PairSimulation.Kind.ONE_LATE) n++;
    return n;
  }
}
