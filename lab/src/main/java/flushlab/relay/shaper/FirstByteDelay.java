package flushlab.relay.shaper;

import java.util.List;

/** Holds the first byte of each response for D; what follows queues behind it in order. */
public final class FirstByteDelay extends TimedQueueShaper {
  public static final Param DELAY =
      Param.duration(
          "delay", null, 0, 600_000_000_000L, "added before the first byte of each response");

  public static final ShaperType TYPE =
      new ShaperType(
          "first-byte-delay",
          true,
          "a proxy or backend slow to start answering (time to first byte)",
          List.of(DELAY),
          "first-byte-delay=300ms",
          p -> () -> new FirstByteDelay(p));

  private final long delayNanos;
  private boolean firstPending = true;

  FirstByteDelay(Params p) {
    this.delayNanos = p.get(DELAY);
  }

  @Override
  public void accept(Chunk c) {
    if (c.kind == Chunk.Kind.RESPONSE_END) firstPending = true;
    if (c.kind == Chunk.Kind.DATA && firstPending) {
      firstPending = false;
      enqueue(c, c.arrivalNanos + delayNanos);
      return;
    }
    enqueue(c, c.arrivalNanos);
  }
}
