package flushlab.emitter;

/**
 * How the emitter listens. Loopback unless the user asks otherwise; TCP_NODELAY on by default so
 * the emitter itself never coalesces frames (Nagle is something a relay reproduces on purpose).
 */
public record EmitterOptions(String host, int port, boolean tcpNoDelay, int sendBufferBytes) {
  public static EmitterOptions loopback(int port) {
    return new EmitterOptions("127.0.0.1", port, true, 0);
  }
}
