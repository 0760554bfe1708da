package flushlab.relay.shaper;

import java.util.List;

/** Closes the client connection cleanly (FIN) after K response bytes: a response cut short. */
public final class Truncate extends Shaper {
  public static final Param AFTER_BYTES =
      Param.size("after-bytes", null, 0, 1L << 40, "close after this many response bytes");

  public static final ShaperType TYPE =
      new ShaperType(
          "truncate",
          true,
          "a proxy or timeout that ends the connection cleanly in the middle of a response",
          List.of(AFTER_BYTES),
          "truncate=1KiB",
          p -> () -> new Truncate(p));

  private final long afterBytes;
  private long bytesSeen;
  private boolean done;

  Truncate(Params p) {
    this.afterBytes = p.get(AFTER_BYTES);
  }

  @Override
  public void accept(Chunk c) {
    if (done) return; // a fault: everything after the cut is dropped on purpose
    if (c.kind != Chunk.Kind.DATA) {
      next.accept(c);
      return;
    }
    if (bytesSeen + c.length() >= afterBytes) {
      int keep = (int) (afterBytes - bytesSeen);
      if (keep > 0) next.accept(c.withBytes(c.bytes.slice(0, keep).copy()));
      done = true;
      ctx.log("truncate shaper: closing after " + afterBytes + " bytes");
      next.accept(Chunk.event(Chunk.Kind.CLOSE, c.arrivalNanos));
      return;
    }
    bytesSeen += c.length();
    next.accept(c);
  }
}
