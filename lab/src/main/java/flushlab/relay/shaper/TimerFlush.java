package flushlab.relay.shaper;

import io.netty.util.concurrent.ScheduledFuture;
import java.util.List;

/**
 * Releases what it holds T after the first held byte, or (periodic=true) on a fixed clock every T
 * whatever is held, as proxies with a flush interval do. Models timer-driven flushing.
 */
public final class TimerFlush extends HoldingShaper {
  public static final Param AFTER =
      Param.duration(
          "after",
          null,
          1_000_000L,
          60_000_000_000L,
          "hold time, from the first held byte (or the period)");
  public static final Param PERIODIC =
      Param.bool(
          "periodic",
          "false",
          "flush every T on a fixed clock instead of T after the first held byte");

  public static final ShaperType TYPE =
      new ShaperType(
          "timer",
          false,
          "a proxy that flushes T after the first byte it holds (or every T on a fixed clock, periodic=true)",
          List.of(AFTER, PERIODIC, CAP, X_ACCEL),
          "timer=200ms",
          p -> () -> new TimerFlush(p));

  private final long afterNanos;
  private final boolean periodic;
  private ScheduledFuture<?> timer;
  private ScheduledFuture<?> clock;

  TimerFlush(Params p) {
    super(p);
    this.afterNanos = p.get(AFTER);
    this.periodic = p.bool(PERIODIC);
  }

  @Override
  protected void onWired() {
    if (periodic) tick();
  }

  private void tick() {
    clock =
        ctx.schedule(
            () -> {
              if (holding()) release("periodic flush");
              tick();
            },
            afterNanos);
  }

  @Override
  protected void onFirstByteHeld(long arrivalNanos) {
    if (!periodic) {
      timer =
          ctx.schedule(
              () -> {
                timer = null;
                release("timer");
              },
              arrivalNanos + afterNanos - System.nanoTime());
    }
  }

  @Override
  protected void cancelTimers() {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
  }

  @Override
  public void release() {
    super.release();
    if (clock != null) clock.cancel(false);
  }
}
