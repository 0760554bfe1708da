package flushlab.run;

import flushlab.client.Staircase;

/**
 * One cell of a model's replay, for the bundle's page: how a stream of it arrived through the
 * target and through the built-in relay running the model, and what differed ({@code difference}
 * null when the cell agreed). Either staircase is null when its side kept no complete stream.
 */
public record ReplayedCell(String label, String difference, Staircase target, Staircase model) {
  /**
   * Frames a staircase keeps: a map's cells stream a few hundred at most, and map.json carries
   * them.
   */
  static final int MAX_FRAMES = 1000;
}
