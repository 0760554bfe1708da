package flushlab.relay;

import flushlab.relay.shaper.ShaperContext;
import io.netty.channel.Channel;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One relay connection's {@link ShaperContext}: its client channel, its flow control, the relay's
 * log and the relay-wide budget of held bytes. Confined to the connection's event loop.
 */
public final class ConnectionContext implements ShaperContext {
  private final Channel clientChannel;
  private final BooleanSupplier clientWritable;
  private final FlowControl flow;
  private final RelayLog log;
  private final String connectionName;
  private Runnable failer;
  private String failure;
  private Runnable writableListener;
  private final HeldBytes relayHeld;
  private long heldHere;

  public ConnectionContext(
      Channel clientChannel,
      FlowControl flow,
      RelayLog log,
      String connectionName,
      HeldBytes relayHeld) {
    this(clientChannel, clientChannel::isWritable, flow, log, connectionName, relayHeld);
  }

  /**
   * @param clientWritable whether the client takes more now (its socket's, or its HTTP/2 stream's,
   *     room)
   */
  ConnectionContext(
      Channel clientChannel,
      BooleanSupplier clientWritable,
      FlowControl flow,
      RelayLog log,
      String connectionName,
      HeldBytes relayHeld) {
    this.clientChannel = clientChannel;
    this.clientWritable = clientWritable;
    this.flow = flow;
    this.log = log;
    this.connectionName = connectionName;
    this.relayHeld = relayHeld;
  }

  /** For a shaper on its own (tests): no relay-wide cap. */
  public ConnectionContext(
      Channel clientChannel, FlowControl flow, RelayLog log, String connectionName) {
    this(clientChannel, flow, log, connectionName, new HeldBytes(Long.MAX_VALUE));
  }

  /**
   * Counts n bytes this connection now holds against the relay-wide cap; false when the relay would
   * hold more than that (the caller fails the connection). Every byte taken is given back with
   * {@link #releaseBytes} as it leaves, or all at once when the connection ends.
   */
  @Override
  public boolean holdBytes(long n) {
    if (!relayHeld.take(n)) return false;
    heldHere += n;
    return true;
  }

  @Override
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
  @Override
  public String overRelayCap(long wanted) {
    return "the relay would hold more than its cap of "
        + relayHeld.capBytes()
        + " bytes over all connections (--max-held; "
        + relayHeld.held()
        + " held, "
        + wanted
        + " more asked)";
  }

  @Override
  public ScheduledFuture<?> schedule(Runnable task, long delayNanos) {
    return clientChannel.eventLoop().schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
  }

  @Override
  public Channel clientChannel() {
    return clientChannel;
  }

  @Override
  public void holdUpstream(Object holder) {
    flow.hold(holder);
  }

  @Override
  public void releaseUpstream(Object holder) {
    flow.release(holder);
  }

  @Override
  public void log(String message) {
    log.log(connectionName + ": " + message);
  }

  /** Ends the client connection with a reason: a 502 if nothing was sent yet, else a close. */
  @Override
  public void fail(String reason) {
    if (failure != null) return;
    failure = reason;
    log(reason);
    if (failer != null) failer.run();
  }

  @Override
  public String failure() {
    return failure;
  }

  void onFail(Runnable f) {
    this.failer = f;
  }

  /** Whether the client socket can take more bytes now (the proxy-buffer shaper pumps on this). */
  @Override
  public boolean clientWritable() {
    return clientWritable.getAsBoolean();
  }

  /** Called (once per change to writable) when the client socket drains. */
  @Override
  public void onClientWritable(Runnable r) {
    this.writableListener = r;
  }

  void clientBecameWritable() {
    if (writableListener != null) writableListener.run();
  }
}
