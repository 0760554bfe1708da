package flushlab.relay.shaper;

import io.netty.util.concurrent.ScheduledFuture;
import java.util.List;

/** Aborts the client connection with a TCP RST after K response bytes or T after the first byte. */
public final class Reset extends Shaper {
  public static final Param AFTER_BYTES =
      Param.size("after-bytes", null, 0, 1L << 40, "reset after this many response bytes")
          .optional();
  public static final Param AFTER =
      Param.duration(
              "after", null, 0, 600_000_000_000L, "or this long after the first response byte")
          .optional();

  public static final ShaperType TYPE =
      new ShaperType(
          "reset",
          true,
          "a peer or middlebox that kills the connection (RST) mid-response",
          List.of(AFTER_BYTES, AFTER),
          "reset,after-bytes=2KiB",
          p -> () -> new Reset(p));

  private final long afterBytes;
  private final long afterNanos;
  private long bytesSeen;
  private boolean done;
  private ScheduledFuture<?> timer;

  Reset(Params p) {
    Param which = p.exactlyOne(AFTER_BYTES, AFTER);
    this.afterBytes = which == AFTER_BYTES ? p.get(AFTER_BYTES) : -1;
    this.afterNanos = which == AFTER ? p.get(AFTER) : -1;
  }

  @Override
  public void accept(Chunk c) {
    if (done) return; // a fault: what comes after the reset is dropped on purpose
    if (c.kind != Chunk.Kind.DATA) {
      next.accept(c);
      return;
    }
    if (afterNanos >= 0 && timer == null) {
      timer = ctx.schedule(this::fire, c.arrivalNanos + afterNanos - System.nanoTime());
    }
    if (afterBytes >= 0 && bytesSeen + c.length() >= afterBytes) {
      int keep = (int) (afterBytes - bytesSeen);
      if (keep > 0) next.accept(c.withBytes(c.bytes.slice(0, keep).copy()));
      fire();
      return;
    }
    bytesSeen += c.length();
    next.accept(c);
  }

  private void fire() {
    if (done) return;
    done = true;
    ctx.log("reset shaper: sending RST");
    next.accept(Chunk.event(Chunk.Kind.RESET, System.nanoTime()));
  }

  @Override
  public void release() {
    if (timer != null) timer.cancel(false);
  }
}
