package flushlab.relay.shaper;

import flushlab.core.Units;
import io.netty.util.concurrent.ScheduledFuture;
import io.vertx.core.buffer.Buffer;
import java.util.List;

/**
 * A load balancer's idle timeout: the connection is closed once no byte has moved either way for T
 * (60 s on AWS ALBs and GCP, 4 minutes on Azure, 5 on others by default). A stream whose model
 * thinks longer than T before its first token, or pauses that long between two, is cut; SSE comment
 * keep-alives sent more often than T keep it open, since they are bytes. The cut is a close (a 502
 * when nothing of the response was sent yet), which the client reports as an error.
 */
public final class IdleTimeout extends Shaper {
  public static final Param AFTER =
      Param.duration(
          "after",
          null,
          1_000_000L,
          3_600_000_000_000L,
          "close the connection once no byte has moved either way for this long");

  public static final ShaperType TYPE =
      new ShaperType(
          "idle-timeout",
          true,
          "a load balancer that closes a connection idle for T (no byte either way), cutting long thinks and pauses",
          List.of(AFTER),
          "idle-timeout=60s",
          p -> () -> new IdleTimeout(p));

  private final long afterNanos;
  private ScheduledFuture<?> timer;
  private boolean fired;

  IdleTimeout(Params p) {
    this.afterNanos = p.get(AFTER);
  }

  @Override
  protected void onWired() {
    restart(); // the connection's opening is its last activity so far
  }

  @Override
  public boolean readsRequests() {
    return true; // request bytes are activity too
  }

  @Override
  public void onRequestBytes(Buffer bytes) {
    restart();
  }

  @Override
  public void accept(Chunk c) {
    if (fired) return;
    if (c.kind == Chunk.Kind.DATA) restart();
    next.accept(c);
  }

  private void restart() {
    if (fired) return;
    if (timer != null) timer.cancel(false);
    timer =
        ctx.schedule(
            () -> {
              timer = null;
              fired = true;
              ctx.fail(
                  "idle-timeout: no byte moved for "
                      + Units.formatDuration(afterNanos)
                      + "; closing, as a load balancer does");
            },
            afterNanos);
  }

  @Override
  public void release() {
    fired = true;
    if (timer != null) timer.cancel(false);
  }
}
