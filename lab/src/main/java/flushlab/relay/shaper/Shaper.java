package flushlab.relay.shaper;

import io.vertx.core.buffer.Buffer;

/**
 * One mechanism applied to the response path of one relay connection. The whole contract is {@link
 * #accept}: take items in order, pass items on in order. A shaper that is not a fault forwards
 * every byte it is given, once and in order (the no-loss rule); it may only change when. Instances
 * are per connection and confined to its event loop.
 */
public abstract class Shaper implements Stage {
  protected Stage next;
  protected ShaperContext ctx;

  public final void wire(Stage next, ShaperContext ctx) {
    this.next = next;
    this.ctx = ctx;
    onWired();
  }

  /** Called once the shaper knows its next stage and context (connection-level setup goes here). */
  protected void onWired() {}

  @Override
  public void accept(Chunk chunk) {
    next.accept(chunk);
  }

  /**
   * True for a shaper that must see the requests too (a compressing proxy reads each request's
   * Accept-Encoding): the relay then hands it every request byte, as it goes upstream unchanged.
   */
  public boolean readsRequests() {
    return false;
  }

  /** Request bytes from the client, in order (only for a shaper that {@link #readsRequests}). */
  public void onRequestBytes(Buffer bytes) {}

  /** The connection is gone: cancel timers, drop what is held. */
  public void release() {}

  /**
   * True for a shaper that takes the client's back-pressure itself (a bounded proxy buffer): the
   * client writer then does not pause upstream when the client's socket is full.
   */
  public boolean absorbsClientBackPressure() {
    return false;
  }

  /** How long the relay waits before connecting upstream (the connect-delay shaper). */
  public long connectDelayNanos() {
    return 0;
  }
}
