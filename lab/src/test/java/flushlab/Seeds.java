package flushlab;

/**
 * The seed of a test that draws hidden values at random: {@code -Dflushlab.seed=N} when given (to
 * replay a failure), else a fresh one; printed either way with the line that replays it.
 */
public final class Seeds {
  private Seeds() {}

  public static long seed(String test) {
    long seed = Long.getLong("flushlab.seed", System.nanoTime());
    System.out.println(test + ": seed " + seed + " (replay with -Dflushlab.seed=" + seed + ")");
    return seed;
  }
}
