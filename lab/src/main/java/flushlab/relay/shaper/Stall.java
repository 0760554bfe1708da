package flushlab.relay.shaper;

import java.util.List;

/**
 * Pauses the response once, for D, after K bytes or T after its first byte (a stuck upstream or GC
 * pause).
 */
public final class Stall extends TimedQueueShaper {
  public static final Param FOR =
      Param.duration("for", null, 1_000_000L, 600_000_000_000L, "how long the stall lasts");
  public static final Param AFTER_BYTES =
      Param.size("after-bytes", null, 0, 1L << 40, "stall after this many response bytes")
          .optional();
  public static final Param AFTER =
      Param.duration(
              "after", null, 0, 600_000_000_000L, "or this long after the first response byte")
          .optional();

  public static final ShaperType TYPE =
      new ShaperType(
          "stall",
          true,
          "a path that freezes once mid-response (a GC pause, a stuck upstream)",
          List.of(FOR, AFTER_BYTES, AFTER),
          "stall,for=500ms,after-bytes=1KiB",
          p -> () -> new Stall(p));

  private final long forNanos;
  private final long afterBytes;
  private final long afterNanos;
  private long bytesSeen;
  private long firstByteNanos = -1;
  private long stallUntil = -1;

  Stall(Params p) {
    this.forNanos = p.get(FOR);
    Param which = p.exactlyOne(AFTER_BYTES, AFTER);
    this.afterBytes = which == AFTER_BYTES ? p.get(AFTER_BYTES) : -1;
    this.afterNanos = which == AFTER ? p.get(AFTER) : -1;
  }

  @Override
  public void accept(Chunk c) {
    if (c.kind != Chunk.Kind.DATA) {
      enqueue(c, stallUntil > 0 ? Math.max(c.arrivalNanos, stallUntil) : c.arrivalNanos);
      return;
    }
    if (firstByteNanos < 0) firstByteNanos = c.arrivalNanos;
    if (stallUntil < 0 && afterBytes >= 0 && bytesSeen + c.length() > afterBytes) {
      int before = (int) (afterBytes - bytesSeen);
      if (before > 0) enqueue(c.withBytes(c.bytes.slice(0, before).copy()), c.arrivalNanos);
      stallUntil = c.arrivalNanos + forNanos;
      bytesSeen += c.length();
      enqueue(c.withBytes(c.bytes.slice(before, c.length()).copy()), stallUntil);
      return;
    }
    if (stallUntil < 0 && afterNanos >= 0 && c.arrivalNanos >= firstByteNanos + afterNanos) {
      stallUntil = firstByteNanos + afterNanos + forNanos;
    }
    bytesSeen += c.length();
    enqueue(
        c,
        stallUntil > 0
            ? Math.max(c.arrivalNanos, Math.min(stallUntil, c.arrivalNanos + forNanos))
            : c.arrivalNanos);
  }
}
