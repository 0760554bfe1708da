package flushlab.relay.shaper;

import io.netty.util.concurrent.ScheduledFuture;
import java.util.List;

/**
 * Releases when N bytes are held or T after the first held byte, whichever comes first: the most
 * common real-world shape (a buffer with a flush timeout).
 */
public final class ThresholdOrTimer extends HoldingShaper {
  public static final Param BYTES =
      Param.size("bytes", null, 1, 64L << 20, "release when at least this many bytes are held");
  public static final Param AFTER =
      Param.duration(
          "after", null, 1_000_000L, 60_000_000_000L, "or this long after the first held byte");

  public static final ShaperType TYPE =
      new ShaperType(
          "threshold-or-timer",
          false,
          "a proxy with an output buffer and a flush timeout: N bytes or T after the first held byte, whichever first",
          List.of(BYTES, AFTER, CAP, X_ACCEL),
          "threshold-or-timer,bytes=2KiB,after=200ms",
          p -> () -> new ThresholdOrTimer(p));

  private final long thresholdBytes;
  private final long afterNanos;
  private ScheduledFuture<?> timer;

  ThresholdOrTimer(Params p) {
    super(p);
    requireReachable(p, BYTES, "threshold-or-timer");
    this.thresholdBytes = p.get(BYTES);
    this.afterNanos = p.get(AFTER);
  }

  @Override
  protected void onFirstByteHeld(long arrivalNanos) {
    timer =
        ctx.schedule(
            () -> {
              timer = null;
              release("timer");
            },
            arrivalNanos + afterNanos - System.nanoTime());
  }

  @Override
  protected void afterHold(int heldBytes) {
    if (heldBytes >= thresholdBytes) release("threshold");
  }

  @Override
  protected void cancelTimers() {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
  }
}
