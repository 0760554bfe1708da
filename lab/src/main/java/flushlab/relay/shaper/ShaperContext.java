package flushlab.relay.shaper;

import io.netty.channel.Channel;
import io.netty.util.concurrent.ScheduledFuture;

/**
 * What a shaper may use besides its next stage: the connection's event loop for timers, the
 * client-facing channel for socket options, upstream flow control, the relay's log, a budget of
 * held bytes, and a way to fail the connection. Every shaper of a connection runs on that
 * connection's event loop: no locking anywhere in a chain.
 */
public interface ShaperContext {
  /**
   * Counts n bytes this connection now holds against the relay-wide cap; false when the relay would
   * hold more than that (the caller fails the connection). Every byte taken is given back with
   * {@link #releaseBytes} as it leaves, or all at once when the connection ends.
   */
  boolean holdBytes(long n);

  void releaseBytes(long n);

  /** The message for a connection refused by the relay-wide cap. */
  String overRelayCap(long wanted);

  /**
   * Runs {@code task} on the connection's event loop after {@code delayNanos} (at once if not
   * positive).
   */
  ScheduledFuture<?> schedule(Runnable task, long delayNanos);

  Channel clientChannel();

  /**
   * Stops reading from upstream while {@code holder} (and anyone else) holds it: back-pressure,
   * written once.
   */
  void holdUpstream(Object holder);

  void releaseUpstream(Object holder);

  void log(String message);

  /** Ends the client connection with a reason: a 502 if nothing was sent yet, else a close. */
  void fail(String reason);

  String failure();

  /** Whether the client socket can take more bytes now (the proxy-buffer shaper pumps on this). */
  boolean clientWritable();

  /** Called (once per change to writable) when the client socket drains. */
  void onClientWritable(Runnable r);
}
