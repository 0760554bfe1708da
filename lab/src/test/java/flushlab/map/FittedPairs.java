package flushlab.map;

import flushlab.netpath.NetworkPath;
import java.util.List;

/**
 * The pairs {@link HoldingPairFit} fits on a test's cells (on loopback), printed, and one asked
 * for.
 */
final class FittedPairs {
  private FittedPairs() {}

  /**
   * The first candidate whose chain matches {@code pattern}, once every candidate's chain is
   * printed after {@code who}; the test fails, naming them, when none does.
   */
  static TwoStageCandidate matching(String who, List<CellEvidence> cells, String pattern) {
    List<TwoStageCandidate> found = HoldingPairFit.candidates("x", cells, NetworkPath.LOOPBACK);
    List<String> chains = found.stream().map(TwoStageCandidate::chain).toList();
    System.out.println(who + ": " + chains);
    return found.stream()
        .filter(c -> c.chain().matches(pattern))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + pattern + " among " + chains));
  }

  /** The value of the candidate's first stage that {@code pattern} names. */
  static double firstValue(String who, List<CellEvidence> cells, String pattern) {
    return ChainStages.of(matching(who, cells, pattern).chain())[0].value();
  }
}
