package flushlab.relay;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A relayed exchange's request direction: the client's bytes held until upstream is connected
 * (capped), each piece delayed when the plan says so, and back-pressure on the client while
 * upstream cannot take more.
 */
final class RequestPath {
  /** Request bytes held before upstream connected, and delayed at once, at the most. */
  static final int MAX_EARLY_REQUEST_BYTES = 1 << 20;

  private static final Object CONNECTING = "connecting upstream";
  private static final Object DELAY_QUEUE_FULL = "request delay queue over its cap";
  private static final Object UPSTREAM_FULL = "upstream write queue full";

  /**
   * Back-pressure on the request direction: the client is read while nobody holds it; any holder
   * pauses it: upstream not connected yet, the request delay queue over its cap, upstream's write
   * queue full. One valve, so one holder letting go never resumes what another still holds.
   */
  private final FlowControl flow = new FlowControl();

  private final ConnectionContext ctx;

  /** How long each piece of the request waits before it goes upstream (0: at once). */
  private final long delayNanos;

  private final BooleanSupplier closed;
  private final Consumer<String> fail;
  private final List<Buffer> early = new ArrayList<>();
  private int earlyBytes;

  /** Request bytes waiting out that delay; over the early-request cap, the client is not read. */
  private long delayedBytes;

  private NetSocket upstream;

  RequestPath(
      ConnectionContext ctx, long delayNanos, BooleanSupplier closed, Consumer<String> fail) {
    this.ctx = ctx;
    this.delayNanos = delayNanos;
    this.closed = closed;
    this.fail = fail;
  }

  /** The client's side of the valve: read while nobody holds the request direction. */
  void attachClient(FlowControl.Valve clientValve) {
    flow.attach(clientValve);
  }

  /** Upstream is being connected: the client is not read until it is there. */
  void connecting() {
    flow.hold(CONNECTING);
  }

  /** Upstream is there: what the client sent meanwhile goes to it, and the client is read again. */
  void attach(NetSocket up) {
    upstream = up;
    for (Buffer b : early) {
      if (delayNanos > 0) {
        ctx.schedule(
            () -> {
              if (upstream != null && !closed.getAsBoolean()) upstream.write(b);
            },
            delayNanos);
      } else {
        up.write(b);
      }
    }
    early.clear();
    ctx.releaseBytes(earlyBytes);
    earlyBytes = 0;
    flow.release(CONNECTING);
  }

  /** Upstream went: what comes from the client from now is held as before it connected. */
  void detach() {
    upstream = null;
  }

  /** The exchange failed: nothing held goes anywhere. */
  void drop() {
    early.clear();
  }

  /** Request bytes from the client, to upstream now, after the delay, or once it is connected. */
  void forward(Buffer b) {
    if (upstream == null) {
      earlyBytes += b.length();
      if (earlyBytes > MAX_EARLY_REQUEST_BYTES) {
        fail.accept(
            "request larger than " + MAX_EARLY_REQUEST_BYTES + " bytes before upstream connected");
        return;
      }
      if (!ctx.holdBytes(b.length())) {
        fail.accept(ctx.overRelayCap(b.length()));
        return;
      }
      early.add(b);
      return;
    }
    if (delayNanos > 0) {
      // equal delays keep the pieces in order: the loop runs timers by deadline, ties by arrival
      delayedBytes += b.length();
      if (delayedBytes > MAX_EARLY_REQUEST_BYTES) flow.hold(DELAY_QUEUE_FULL);
      ctx.schedule(
          () -> {
            delayedBytes -= b.length();
            if (upstream != null && !closed.getAsBoolean()) write(b);
            if (delayedBytes <= MAX_EARLY_REQUEST_BYTES) flow.release(DELAY_QUEUE_FULL);
          },
          delayNanos);
      return;
    }
    write(b);
  }

  private void write(Buffer b) {
    upstream.write(b);
    if (upstream.writeQueueFull()) {
      flow.hold(UPSTREAM_FULL);
      upstream.drainHandler(v -> flow.release(UPSTREAM_FULL));
    }
  }
}
