package flushlab;

import java.util.function.BooleanSupplier;

/**
 * Waits for a condition the test can observe, checking every 5 ms, up to a deadline (then fails).
 */
public final class Await {
  private Await() {}

  public static void until(String what, long timeoutMillis, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline)
        throw new AssertionError("not within " + timeoutMillis + " ms: " + what);
      Thread.sleep(5);
    }
  }
}
