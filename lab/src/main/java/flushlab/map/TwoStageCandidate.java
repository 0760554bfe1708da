package flushlab.map;

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
}
