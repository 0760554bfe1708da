package flushlab.relay.shaper;

import java.util.List;

/** Limits the response to a rate: bytes leave in slices of about 10 ms worth, each on its time. */
public final class Bandwidth extends TimedQueueShaper {
  public static final Param RATE = Param.rate("rate", null, 1, 10L << 30, "bytes per second");

  public static final ShaperType TYPE =
      new ShaperType(
          "bandwidth",
          true,
          "a slow link: at most this many bytes per second reach the client",
          List.of(RATE),
          "bandwidth=64KiB/s",
          p -> () -> new Bandwidth(p));

  private final long bytesPerSecond;
  private final int sliceBytes;

  Bandwidth(Params p) {
    this.bytesPerSecond = p.get(RATE);
    this.sliceBytes = (int) Math.max(1, Math.min(64 * 1024, bytesPerSecond / 100));
  }

  @Override
  public void accept(Chunk c) {
    if (c.kind != Chunk.Kind.DATA) {
      enqueue(c, c.arrivalNanos);
      return;
    }
    // a slice leaves once the link has had time to carry it
    enqueueSlices(
        c, sliceBytes, (previous, n, first) -> previous + n * 1_000_000_000L / bytesPerSecond);
  }
}
