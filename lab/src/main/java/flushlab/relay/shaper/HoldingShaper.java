package flushlab.relay.shaper;

import flushlab.core.Named;
import io.vertx.core.buffer.Buffer;

/**
 * The shared shape of the buffering mechanisms: hold response bytes and release everything held in
 * one write when the subclass's trigger fires, and always at the end of the response or when
 * upstream closes. Held bytes are capped; over the cap the connection fails with a clear reason (a
 * 502 when nothing was sent yet), never an OutOfMemoryError. Optionally honours {@code
 * X-Accel-Buffering: no} from upstream by streaming that response unbuffered.
 */
abstract class HoldingShaper extends Shaper {
  static final long DEFAULT_CAP = 16L << 20;

  public static final Param CAP =
      Param.size("cap", "16MiB", 1024, 1L << 30, "most bytes held before the connection fails");

  public static final Param X_ACCEL =
      Param.choice(
          "x-accel",
          XAccel.IGNORE,
          XAccel.class,
          "honor: stream a response unbuffered when upstream sends X-Accel-Buffering: no (nginx); ignore: as HAProxy");

  /** What an upstream's X-Accel-Buffering: no does. */
  public enum XAccel implements Named {
    IGNORE,
    HONOR
  }

  private final long capBytes;
  private final boolean honorXAccel;
  private Buffer held;
  private long heldSinceNanos;

  /** When the newest held chunk arrived: what a split keeps began with it. */
  private long lastArrivalNanos;

  private boolean bypass;
  private boolean failed;

  HoldingShaper(Params p) {
    this.capBytes = p.get(CAP);
    this.honorXAccel = p.choice(X_ACCEL, XAccel.class) == XAccel.HONOR;
  }

  /**
   * Refuses a release threshold the cap makes unreachable: the connection would fail at the cap
   * before the threshold could ever fire, so the spec would never model what it says.
   */
  static void requireReachable(Params p, Param threshold, String shaper) {
    long bytes = p.get(threshold);
    long cap = p.get(CAP);
    if (bytes > cap) {
      throw new ShaperSpecException(
          shaper
              + ": "
              + threshold.key()
              + "="
              + bytes
              + " B can never be reached: the connection fails at its cap="
              + cap
              + " B first (raise cap= to at least "
              + threshold.key()
              + ", up to 1 GiB)");
    }
  }

  @Override
  public void accept(Chunk c) {
    if (failed) return;
    switch (c.kind) {
      case RESPONSE_START:
        String xab = c.headers.get("X-Accel-Buffering");
        bypass = honorXAccel && xab != null && xab.trim().equalsIgnoreCase("no");
        next.accept(c);
        return;
      case DATA:
        if (bypass) {
          next.accept(c);
        } else {
          hold(c);
        }
        return;
      case RESPONSE_END:
        release("end of response");
        next.accept(c);
        bypass = false;
        return;
      case CLOSE:
      case RESET:
        release("upstream closed");
        next.accept(c);
        return;
      default:
        next.accept(c);
    }
  }

  private void hold(Chunk c) {
    if (held == null) {
      held = Buffer.buffer(Math.max(256, c.length()));
      heldSinceNanos = c.arrivalNanos;
      onFirstByteHeld(heldSinceNanos);
    }
    if (held.length() + (long) c.length() > capBytes) {
      failHolding(
          getClass().getSimpleName() + " would hold more than its cap of " + capBytes + " bytes");
      return;
    }
    if (!ctx.holdBytes(c.length())) {
      failHolding(ctx.overRelayCap(c.length()));
      return;
    }
    held.appendBuffer(c.bytes);
    lastArrivalNanos = c.arrivalNanos;
    afterHold(held.length());
  }

  private void failHolding(String reason) {
    failed = true;
    held = null;
    cancelTimers();
    ctx.fail(reason);
  }

  /** Sends everything held as one write (the burst a real buffering proxy produces). */
  protected final void release(String why) {
    cancelTimers();
    if (held == null) return;
    Buffer b = held;
    held = null;
    ctx.releaseBytes(b.length());
    next.accept(Chunk.data(b, heldSinceNanos));
  }

  /**
   * Sends the first {@code n} bytes held as one write and keeps the rest, whose oldest byte arrived
   * with the chunk that filled the buffer (the frame it split). Timers are left running: what is
   * kept is still held.
   */
  protected final void releaseFirst(int n) {
    if (held == null || n <= 0) return;
    if (n >= held.length()) {
      release("threshold");
      return;
    }
    Buffer first = held.getBuffer(0, n);
    Buffer rest =
        Buffer.buffer(Math.max(256, held.length() - n)).appendBuffer(held, n, held.length() - n);
    long since = heldSinceNanos;
    held = rest;
    heldSinceNanos = lastArrivalNanos;
    ctx.releaseBytes(n);
    next.accept(Chunk.data(first, since));
  }

  protected final boolean holding() {
    return held != null;
  }

  /** The first byte of a new batch is held (timers start here). */
  protected void onFirstByteHeld(long arrivalNanos) {}

  /** Bytes were added; {@code heldBytes} are held now (thresholds check here). */
  protected void afterHold(int heldBytes) {}

  protected void cancelTimers() {}

  @Override
  public void release() {
    cancelTimers();
    held = null;
  }
}
