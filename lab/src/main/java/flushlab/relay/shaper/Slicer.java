package flushlab.relay.shaper;

import flushlab.relay.Chunk;
import java.util.List;

/** Splits every write into pieces of a size with a delay between them (a proxy that re-chunks). */
public final class Slicer extends TimedQueueShaper {
  public static final ShaperType TYPE = new ShaperType("slicer", true,
      "a path that splits writes into small pieces, optionally spaced in time",
      List.of(Param.size("size", null, 1, 1L << 20, "piece size"),
          Param.duration("delay", "0ms", 0, 10_000_000_000L, "between pieces of one write")),
      "slicer=7B,delay=1ms", p -> () -> new Slicer(p));

  private final int pieceBytes;
  private final long delayNanos;

  Slicer(Params p) {
    this.pieceBytes = (int) p.get("size");
    this.delayNanos = p.get("delay");
  }

  @Override
  public void accept(Chunk c) {
    if (c.kind != Chunk.Kind.DATA) {
      enqueue(c, c.arrivalNanos);
      return;
    }
    // the first piece leaves at once, each later one a delay after the previous
    enqueueSlices(c, pieceBytes, (previous, n, first) -> first ? previous : previous + delayNanos);
  }
}
