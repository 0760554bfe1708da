package flushlab.map;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
   * {@code pairs} with those that fit one value (one-late's pairs) before those that fit two, and
   * of as many values, the closest to {@code cells} first (their simulations' misfit, {@link
   * ThresholdSpan#score}, misfits within {@link ThresholdSpan#SAME_FIT} of each other in the order
   * given): the map gives the simplest model that replays, and its budget can end on the way.
   * `one-late -> timer=243ms,periodic=true` was answered a hold of 116.8 ms then the clock (one of
   * 127 pairs of a hold and a clock that fit), verified, the budget out before one-late's turn (a
   * chain bench, seed 20261244, 2026-12-07). `timer=102ms,periodic=true ->
   * timer=212ms,periodic=true` was answered a 210.4 ms clock then a 75.9 ms hold, verified, the
   * budget out before the two clocks' turn, which came after in the order of the kinds though its
   * misfit was a seventeenth of the hold's (a chain bench, seed 20261258, 2026-12-08).
   */
  public static List<TwoStageCandidate> simplestFirst(
      List<TwoStageCandidate> pairs, List<CellEvidence> cells) {
    List<CellEvidence> fitted = HoldingStageFits.fittable(cells);
    // each pair's simulation once, not at every comparison the sort makes
    Map<TwoStageCandidate, Long> closeness = new HashMap<>();
    for (TwoStageCandidate c : pairs) closeness.put(c, c.closeness(fitted));
    return pairs.stream()
        .sorted(
            Comparator.comparingInt(TwoStageCandidate::valuesFitted)
                .thenComparingLong(closeness::get))
        .toList();
  }

  /**
   * How far the model's simulation lies from {@code cells}, in steps of {@link
   * ThresholdSpan#SAME_FIT} (closer is one fit); the most there is where a cell does not match at
   * the values as written.
   */
  private long closeness(List<CellEvidence> cells) {
    PairSimulation.Stage[] stages = ChainStages.of(chain);
    double score =
        stages == null || stages.length != 2
            ? Double.NaN
            : ThresholdSpan.score(cells, stages[0], stages[1]);
    return Double.isNaN(score) ? Long.MAX_VALUE : (long) Math.floor(score / ThresholdSpan.SAME_FIT);
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
