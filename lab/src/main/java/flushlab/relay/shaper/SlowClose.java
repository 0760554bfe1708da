package flushlab.relay.shaper;

import java.util.List;

/**
 * Delays closing the client connection by D after upstream closed (a lingering half-closed peer).
 */
public final class SlowClose extends TimedQueueShaper {
  public static final Param DELAY =
      Param.duration("delay", null, 0, 600_000_000_000L, "how long the close waits");

  public static final ShaperType TYPE =
      new ShaperType(
          "slow-close",
          true,
          "a proxy that keeps the client connection open for a while after the response ended",
          List.of(DELAY),
          "slow-close=1s",
          p -> () -> new SlowClose(p));

  private final long delayNanos;

  SlowClose(Params p) {
    this.delayNanos = p.get(DELAY);
  }

  @Override
  public void accept(Chunk c) {
    enqueue(c, c.kind == Chunk.Kind.CLOSE ? c.arrivalNanos + delayNanos : c.arrivalNanos);
  }
}
