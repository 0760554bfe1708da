package flushlab.relay;

import flushlab.relay.shaper.ShaperRegistry;
import flushlab.tls.ServerTls;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.List;

/**
 * A relay: where it listens, where upstream is, the shapers applied in order to each response, and
 * whether upstream connections are pooled (kept alive and reused across client connections) or
 * opened fresh for every client connection. At most {@code maxConnections} client connections are
 * served at once; one more is answered 503 and closed. Each buffering shaper has its own
 * per-connection cap, and all connections together hold at most {@code maxHeldBytes}; a connection
 * that would pass it fails with a 502 naming the cap.
 *
 * @param tls when set, clients reach the relay over TLS with this certificate (the relay terminates
 *     TLS, as a proxy in front of a plain server does); upstream stays plain TCP
 */
@RecordBuilder
public record RelayOptions(
    String host,
    int port,
    String upstreamHost,
    int upstreamPort,
    List<ShaperRegistry.Spec> shapers,
    boolean poolUpstream,
    int maxConnections,
    long maxHeldBytes,
    long idleTimeoutNanos,
    ServerTls tls,
    long requestTimeoutNanos)
    implements RelayOptionsBuilder.With {

  /**
   * An HTTP/2 stream whose request (header block or body) is not complete this long after it began
   * is reset, and a header block left unfinished ends its connection: the relay's edge holds no
   * request open for a client that trickles it.
   */
  public static final long DEFAULT_REQUEST_TIMEOUT_NANOS = 10_000_000_000L;

  /**
   * A connection through which nothing moved this long (no byte from the client, none from
   * upstream, none to the client) is closed. Bytes a shaper holds while upstream still sends are
   * movement: a drain-and-flush of a long stream is not idle.
   */
  public static final long DEFAULT_IDLE_TIMEOUT_NANOS = 300_000_000_000L;

  public static final int MAX_POOLED = 64;
  public static final int DEFAULT_MAX_CONNECTIONS = 1024;
  public static final long DEFAULT_MAX_HELD_BYTES = 256L << 20;

  /**
   * A relay with the default caps and timeouts, without TLS on the client side: the generated
   * {@code with...} methods set the rest.
   */
  public RelayOptions(
      String host,
      int port,
      String upstreamHost,
      int upstreamPort,
      List<ShaperRegistry.Spec> shapers,
      boolean poolUpstream) {
    this(
        host,
        port,
        upstreamHost,
        upstreamPort,
        shapers,
        poolUpstream,
        DEFAULT_MAX_CONNECTIONS,
        DEFAULT_MAX_HELD_BYTES,
        DEFAULT_IDLE_TIMEOUT_NANOS,
        null,
        DEFAULT_REQUEST_TIMEOUT_NANOS);
  }

  public static RelayOptions loopback(int upstreamPort, List<String> shaperSpecs) {
    return new RelayOptions(
        "127.0.0.1",
        0,
        "127.0.0.1",
        upstreamPort,
        shaperSpecs.stream().map(ShaperRegistry::parse).toList(),
        false);
  }

  public RelayOptions withLimits(int maxConnections, long maxHeldBytes) {
    return with(b -> b.maxConnections(maxConnections).maxHeldBytes(maxHeldBytes));
  }

  /**
   * A request timeout other than {@link #DEFAULT_REQUEST_TIMEOUT_NANOS} (tests of the timeout
   * itself use a short one).
   */
  public RelayOptions withRequestTimeout(long nanos) {
    if (nanos <= 0)
      throw new IllegalArgumentException(
          "a request timeout must be positive, not " + nanos + " ns");
    return withRequestTimeoutNanos(nanos);
  }

  public String describe() {
    StringBuilder sb = new StringBuilder();
    for (ShaperRegistry.Spec s : shapers)
      sb.append(sb.length() == 0 ? "" : " -> ").append(s.text());
    return sb.length() == 0 ? "passthrough" : sb.toString();
  }
}
