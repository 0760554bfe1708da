package flushlab.relay;

import io.netty.channel.Channel;
import java.util.concurrent.TimeUnit;

/**
 * What a shaper may use besides its next stage: the connection's event loop for timers, the
 * client-facing channel for socket options, flow control, the relay's log, and a way to fail the
 * connection. Every shaper of a connection runs on that connection's event loop: no locking
 * anywhere in a chain.
 */
public final class ShaperContext {
  private final Channel clientChannel;
  private final FlowControl flow;
  private final RelayLog log;
  private final String connectionName;
  private Runnable failer;
  private String failure;
  private Runnable writableListener;
  private final HeldBytes relayHeld;
  private long heldHere;

  public ShaperContext(Channel clientChannel, FlowControl flow, RelayLog log, String connectionName, HeldBytes relayHeld) {
    this.clientChannel = clientChannel;
    this.flow = flow;
    this.log = log;
    this.connectionName = connectionName;
    this.relayHeld = relayHeld;
  }

  /** For a shaper on its own (tests): no relay-wide cap. */
  public ShaperContext(Channel clientChannel, FlowControl flow, RelayLog log, String connectionName) {
    this(clientChannel, flow, log, connectionName, new HeldBytes(Long.MAX_VALUE));
  }

  /**
   * Counts n bytes this connection now holds against the relay-wide cap; false when the relay
   * would hold more than that (the caller fails the connection). Every byte taken is given back
   * with {@link #releaseBytes} as it leaves, or all at once when the connection ends.
   */
  public boolean holdBytes(long n) {
    if (!relayHeld.take(n)) return false;
    heldHere += n;
    return true;
  }

  public void releaseBytes(long n) {
    long k = Math.min(n, heldHere);
    heldHere -= k;
    relayHeld.give(k);
  }

  /** The connection ended: whatever it still held is no longer held. */
  void releaseAllHeld() {
    relayHeld.give(heldHere);
    heldHere = 0;
  }

  /** The message for a connection refused by the relay-wide cap. */
  public String overRelayCap(long wanted) {
    return "the relay would hold more than its cap of " + relayHeld.capBytes() + " bytes over all connections (--max-held; "
        + relayHeld.held() + " held, " + wanted + " more asked)";
  }

  public io.netty.util.concurrent.ScheduledFuture<?> schedule(Runnable task, long delayNanos) {
    return clientChannel.eventLoop().schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
  }

  public Channel clientChannel() {
    return clientChannel;
  }

  public FlowControl flow() {
    return flow;
  }

  public void log(String message) {
    log.log(connectionName + ": " + message);
  }

  /** Ends the client connection with a reason: a 502 if nothing was sent yet, else a close. */
  public void fail(String reason) {
    if (failure != null) return;
    failure = reason;
    log(reason);
    if (failer != null) failer.run();
  }

  public String failure() {
    return failure;
  }

  void onFail(Runnable f) {
    this.failer = f;
  }

  /** Whether the client socket can take more bytes now (the proxy-buffer shaper pumps on this). */
  public boolean clientWritable() {
    return clientChannel.isWritable();
  }

  /** Called (once per change to writable) when the client socket drains. */
  public void onClientWritable(Runnable r) {
    this.writableListener = r;
  }

  void clientBecameWritable() {
    if (writableListener != null) writableListener.run();
  }
}
