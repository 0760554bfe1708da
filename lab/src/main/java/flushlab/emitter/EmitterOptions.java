package flushlab.emitter;

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
public record EmitterOptions(
    String host,
    int port,
    boolean tcpNoDelay,
    int sendBufferBytes,
    int maxConnections,
    long requestTimeoutNanos,
    int listeners,
    long idleTimeoutNanos,
    String apiKey) {

  public EmitterOptions(
      String host,
      int port,
      boolean tcpNoDelay,
      int sendBufferBytes,
      int maxConnections,
      long requestTimeoutNanos,
      int listeners,
      long idleTimeoutNanos) {
    this(
        host,
        port,
        tcpNoDelay,
        sendBufferBytes,
        maxConnections,
        requestTimeoutNanos,
        listeners,
        idleTimeoutNanos,
        null);
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
  public EmitterOptions withApiKey(String key) {
    return new EmitterOptions(
        host,
        port,
        tcpNoDelay,
        sendBufferBytes,
        maxConnections,
        requestTimeoutNanos,
        listeners,
        idleTimeoutNanos,
        key.startsWith("Bearer ") ? key.substring(7) : key);
  }

  public static final long DEFAULT_IDLE_TIMEOUT_NANOS = 120_000_000_000L;

  public static final int DEFAULT_MAX_CONNECTIONS = 1024;
  public static final long DEFAULT_REQUEST_TIMEOUT_NANOS = 10_000_000_000L;

  public EmitterOptions(String host, int port, boolean tcpNoDelay, int sendBufferBytes) {
    this(
        host,
        port,
        tcpNoDelay,
        sendBufferBytes,
        DEFAULT_MAX_CONNECTIONS,
        DEFAULT_REQUEST_TIMEOUT_NANOS,
        1,
        DEFAULT_IDLE_TIMEOUT_NANOS);
  }

  public EmitterOptions(
      String host,
      int port,
      boolean tcpNoDelay,
      int sendBufferBytes,
      int maxConnections,
      long requestTimeoutNanos) {
    this(
        host,
        port,
        tcpNoDelay,
        sendBufferBytes,
        maxConnections,
        requestTimeoutNanos,
        1,
        DEFAULT_IDLE_TIMEOUT_NANOS);
  }

  public static EmitterOptions loopback(int port) {
    return new EmitterOptions("127.0.0.1", port, true, 0);
  }

  public EmitterOptions withLimits(int maxConnections, long requestTimeoutNanos) {
    return new EmitterOptions(
        host,
        port,
        tcpNoDelay,
        sendBufferBytes,
        maxConnections,
        requestTimeoutNanos,
        listeners,
        idleTimeoutNanos,
        apiKey);
  }

  /** Accept and pace on this many event loops (the Vert.x instance must have at least as many). */
  public EmitterOptions withListeners(int n) {
    return new EmitterOptions(
        host,
        port,
        tcpNoDelay,
        sendBufferBytes,
        maxConnections,
        requestTimeoutNanos,
        Math.max(1, n),
        idleTimeoutNanos,
        apiKey);
  }

  public EmitterOptions withIdleTimeout(long nanos) {
    return new EmitterOptions(
        host,
        port,
        tcpNoDelay,
        sendBufferBytes,
        maxConnections,
        requestTimeoutNanos,
        listeners,
        nanos,
        apiKey);
  }
}
