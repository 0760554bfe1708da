package flushlab.relay.shaper;

import java.util.List;
import java.util.SplittableRandom;

/**
 * Adds a fixed delay plus uniform jitter to every item, keeping order (a long or variable path).
 */
public final class Latency extends TimedQueueShaper {
  public static final Param DELAY =
      Param.duration("delay", null, 0, 60_000_000_000L, "added to every item");
  public static final Param JITTER =
      Param.duration("jitter", "0ms", 0, 60_000_000_000L, "plus or minus up to this, uniformly");

  public static final ShaperType TYPE =
      new ShaperType(
          "latency",
          true,
          "network latency with jitter; order is kept (a jittered item never overtakes an earlier one)",
          List.of(DELAY, JITTER),
          "latency=50ms,jitter=10ms",
          p -> () -> new Latency(p));

  private final long delayNanos;
  private final long jitterNanos;
  private final SplittableRandom random = new SplittableRandom();

  Latency(Params p) {
    this.delayNanos = p.get(DELAY);
    this.jitterNanos = p.get(JITTER);
  }

  @Override
  public void accept(Chunk c) {
    long jitter = jitterNanos == 0 ? 0 : random.nextLong(-jitterNanos, jitterNanos + 1);
    enqueue(c, c.arrivalNanos + Math.max(0, delayNanos + jitter));
  }
}
