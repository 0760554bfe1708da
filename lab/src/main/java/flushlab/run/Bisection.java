package flushlab.run;

import java.util.List;

/**
 * The adaptive bisection's path and answer: the steps measured, the nearest values found where the
 * target coalesces and where it streams (null when no transition was located), and a verdict.
 */
public record Bisection(
    String target,
    String parameter,
    List<Step> steps,
    String coalescingAt,
    String streamingAt,
    String verdict) {

  /**
   * One step: the value measured, the frames per read it gave, and how many runs the guard
   * excluded.
   */
  public record Step(String value, double framesPerRead, int excludedRuns) {}
}
