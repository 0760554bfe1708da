package flushlab.emitter;

/**
 * How the emitter listens. Loopback unless the user asks otherwise; TCP_NODELAY on by default so
 * the emitter itself never coalesces frames (Nagle is something a relay reproduces on purpose).
 *
 * @param maxConnections connections open at once; one more is answered 503 and closed
 * @param requestTimeoutNanos the most a request may take from its first byte to its last (a
 *     client that sends a header line every few seconds is answered 408 and closed)
 */
public record EmitterOptions(String host, int port, boolean tcpNoDelay, int sendBufferBytes, int maxConnections,
    long requestTimeoutNanos) {

  public static final int DEFAULT_MAX_CONNECTIONS = 1024;
  public static final long DEFAULT_REQUEST_TIMEOUT_NANOS = 10_000_000_000L;

  public EmitterOptions(String host, int port, boolean tcpNoDelay, int sendBufferBytes) {
    this(host, port, tcpNoDelay, sendBufferBytes, DEFAULT_MAX_CONNECTIONS, DEFAULT_REQUEST_TIMEOUT_NANOS);
  }

  public static EmitterOptions loopback(int port) {
    return new EmitterOptions("127.0.0.1", port, true, 0);
  }

  public EmitterOptions withLimits(int maxConnections, long requestTimeoutNanos) {
    return new EmitterOptions(host, port, tcpNoDelay, sendBufferBytes, maxConnections, requestTimeoutNanos);
  }
}
