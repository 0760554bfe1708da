package flushlab.relay.shaper;

import java.util.List;

/** Splits every write into pieces of a size with a delay between them (a proxy that re-chunks). */
public final class Slicer extends TimedQueueShaper {
  public static final Param SIZE = Param.size("size", null, 1, 1L << 20, "piece size");
  public static final Param DELAY =
      Param.duration("delay", "0ms", 0, 10_000_000_000L, "between pieces of one write");

  public static final ShaperType TYPE =
      new ShaperType(
          "slicer",
          true,
          "a path that splits writes into small pieces, optionally spaced in time",
          List.of(SIZE, DELAY),
          "slicer=7B,delay=1ms",
          p -> () -> new Slicer(p));

  private final int pieceBytes;
  private final long delayNanos;

  Slicer(Params p) {
    this.pieceBytes = (int) p.get(SIZE);
    this.delayNanos = p.get(DELAY);
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
