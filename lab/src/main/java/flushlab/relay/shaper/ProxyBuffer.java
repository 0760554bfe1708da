package flushlab.relay.shaper;

import java.util.ArrayDeque;
import java.util.List;

/**
 * nginx's proxy_buffering: read upstream as fast as it sends, into at most N bytes, while the
 * client takes bytes at its own pace. Upstream is paused only when N bytes are held (not when the
 * client's socket fills, as with passthrough), so a slow client costs the proxy memory instead of
 * slowing the upstream.
 */
public final class ProxyBuffer extends Shaper {
  public static final Param SIZE =
      Param.size(
          "size", null, 1024, 1L << 30, "the buffer: upstream pauses when this much is held");

  public static final ShaperType TYPE =
      new ShaperType(
          "proxy-buffer",
          false,
          "nginx proxy_buffering on: upstream is read into a bounded buffer regardless of how fast the client reads",
          List.of(SIZE),
          "proxy-buffer=64KiB",
          p -> () -> new ProxyBuffer(p));

  private final long capBytes;
  private final ArrayDeque<Chunk> held = new ArrayDeque<>();
  private long heldBytes;
  private boolean failed;

  ProxyBuffer(Params p) {
    this.capBytes = p.get(SIZE);
  }

  @Override
  protected void onWired() {
    ctx.onClientWritable(this::pump);
  }

  @Override
  public void accept(Chunk c) {
    if (failed) return;
    if (!ctx.holdBytes(c.length())) {
      failed = true;
      held.clear();
      ctx.fail(ctx.overRelayCap(c.length()));
      return;
    }
    held.add(c);
    heldBytes += c.length();
    pump();
  }

  private void pump() {
    while (!held.isEmpty() && ctx.clientWritable()) {
      Chunk c = held.poll();
      heldBytes -= c.length();
      ctx.releaseBytes(c.length());
      next.accept(c);
    }
    if (heldBytes >= capBytes) {
      ctx.holdUpstream(this);
    } else {
      ctx.releaseUpstream(this);
    }
  }

  /** The client writer's own back-pressure does not reach upstream: this buffer takes it. */
  @Override
  public boolean absorbsClientBackPressure() {
    return true;
  }

  @Override
  public void release() {
    held.clear();
  }
}
