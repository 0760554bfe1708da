package flushlab.relay.shaper;

import io.netty.util.concurrent.ScheduledFuture;
import java.util.List;

/**
 * An HTTP/2 server's per-stream output buffer, as Apache's mod_http2 keeps one with {@code
 * H2OutputBuffering on} (its default): a stream's output waits until the buffer holds {@code size}
 * bytes (mod_http2's per-stream memory, {@code H2StreamMaxMemSize}, 64 KiB by default) or the
 * response ends. A handler that flushes when its backend goes quiet is {@code idle=T}: what is held
 * leaves once nothing more arrived for T (a quiet backend, not a clock, decides). With {@code
 * H2OutputBuffering off} the same server passes each write on (no shaper at all).
 */
public final class H2OutputBuffer extends HoldingShaper {
  public static final Param SIZE =
      Param.size(
          "size",
          "64KiB",
          1,
          64L << 20,
          "bytes the stream's output buffer holds before it is sent");
  public static final Param IDLE =
      Param.duration(
              "idle",
              null,
              1_000_000L,
              60_000_000_000L,
              "also send what is held once upstream has been quiet this long (a handler flushing when its backend pauses)")
          .optional();

  public static final ShaperType TYPE =
      new ShaperType(
          "h2-buffer",
          false,
          "an HTTP/2 server buffering each stream's output (mod_http2's H2OutputBuffering on): sent when size= bytes are held, at "
              + "the end, or (idle=T) once upstream has been quiet for T",
          List.of(SIZE, IDLE, CAP, X_ACCEL),
          "h2-buffer=64KiB,idle=100ms",
          p -> () -> new H2OutputBuffer(p));

  private final long sizeBytes;
  private final long idleNanos;
  private ScheduledFuture<?> idleTimer;

  H2OutputBuffer(Params p) {
    super(p);
    this.sizeBytes = p.get(SIZE);
    this.idleNanos = p.has(IDLE) ? p.get(IDLE) : 0;
  }

  @Override
  protected void afterHold(int heldBytes) {
    if (heldBytes >= sizeBytes) {
      release("buffer full");
      return;
    }
    if (idleNanos > 0) {
      // every arrival restarts the quiet period: only a pause in upstream's bytes sends what is
      // held
      if (idleTimer != null) idleTimer.cancel(false);
      idleTimer =
          ctx.schedule(
              () -> {
                idleTimer = null;
                release("upstream quiet");
              },
              idleNanos);
    }
  }

  @Override
  protected void cancelTimers() {
    if (idleTimer != null) {
      idleTimer.cancel(false);
      idleTimer = null;
    }
  }
}
