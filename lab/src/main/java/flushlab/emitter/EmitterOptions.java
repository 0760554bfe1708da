package flushlab.emitter;

import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * How the emitter listens. Loopback unless the user asks otherwise; TCP_NODELAY on by default so
 * the emitter itself never coalesces frames (Nagle is something a relay reproduces on purpose).
 *
 * @param maxConnections connections open at once; one more is answered 503 and closed
 * @param requestTimeoutNanos the most a request may take from its first byte to its last (a client
 *     that sends a header line every few seconds is answered 408 and closed)
 * @param listeners event loops that accept and pace connections (one listener each, sharing the
 *     port, the audits and the limits); 1 keeps every stream on the emitter's own loop
 * @param idleTimeoutNanos a connection on which nothing moved this long (no request byte read, no
 *     frame written: left open between requests, or its client stopped reading) is closed
 */
@RecordBuilder
public record EmitterOptions(
    String host,
    int port,
    boolean tcpNoDelay,
    int sendBufferBytes,
    int maxConnections,
    long requestTimeoutNanos,
    int listeners,
    long idleTimeoutNanos,
    String apiKey)
    implements EmitterOptionsBuilder.With {

  public static final long DEFAULT_IDLE_TIMEOUT_NANOS = 120_000_000_000L;

  public static final int DEFAULT_MAX_CONNECTIONS = 1024;
  public static final long DEFAULT_REQUEST_TIMEOUT_NANOS = 10_000_000_000L;

  /**
   * One listener with the default caps and timeouts and no API key: the {@code with...} methods set
   * the rest.
   */
  public EmitterOptions(String host, int port, boolean tcpNoDelay, int sendBufferBytes) {
    this(
        host,
        port,
        tcpNoDelay,
        sendBufferBytes,
        DEFAULT_MAX_CONNECTIONS,
        DEFAULT_REQUEST_TIMEOUT_NANOS,
        1,
        DEFAULT_IDLE_TIMEOUT_NANOS,
        null);
  }

  public static EmitterOptions loopback(int port) {
    return new EmitterOptions("127.0.0.1", port, true, 0);
  }

  /** toString without the key: options may be logged. */
  @Override
  public String toString() {
    return "EmitterOptions["
        + host
        + ":"
        + port
        + ", listeners "
        + listeners
        + (apiKey == null ? "" : ", API key required")
        + "]";
  }

  /**
   * Answer /v1/* only to requests carrying {@code Authorization: Bearer key} (OpenAI's 401 error
   * otherwise), as a provider does: so a gateway's credential handling can be tried against it.
   */
  @Override
  public EmitterOptions withApiKey(String key) {
    return with(b -> b.apiKey(key.startsWith("Bearer ") ? key.substring(7) : key));
  }

  public EmitterOptions withLimits(int maxConnections, long requestTimeoutNanos) {
    return with(b -> b.maxConnections(maxConnections).requestTimeoutNanos(requestTimeoutNanos));
  }

  /** Accept and pace on this many event loops (the Vert.x instance must have at least as many). */
  @Override
  public EmitterOptions withListeners(int n) {
    return with(b -> b.listeners(Math.max(1, n)));
  }
}
