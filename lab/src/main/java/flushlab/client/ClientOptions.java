package flushlab.client;

import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * How the metered client runs a batch: how many requests, how many at once, whether connections are
 * reused, how long a request may take, and whether it reads like a slow client.
 *
 * @param slowReaderPauseNanos after each read, stop reading from the kernel this long (0: read at
 *     once)
 * @param recvBufferBytes the most one read may return, like the buffer handed to recv()
 * @param http which HTTP it speaks
 * @param streamsPerConnection HTTP/2: requests in flight on one connection at once (concurrency
 *     counts them all)
 * @param h2Window HTTP/2: the window the client advertises for each stream and for the connection;
 *     0 for what its profile's client advertises (Chromium 6 MiB per stream and 15 MiB per
 *     connection, curl 32 MiB, the others the protocol's 65,535 bytes)
 */
@RecordBuilder
public record ClientOptions(
    int requests,
    int concurrency,
    boolean keepAlive,
    long timeoutNanos,
    long slowReaderPauseNanos,
    int recvBufferBytes,
    HttpVersion http,
    int streamsPerConnection,
    int h2Window)
    implements ClientOptionsBuilder.With {

  public static final int MAX_STREAMS_PER_CONNECTION = 128;

  /** Speaking the HTTP its client profile would (auto), one stream per connection. */
  public ClientOptions(
      int requests,
      int concurrency,
      boolean keepAlive,
      long timeoutNanos,
      long slowReaderPauseNanos,
      int recvBufferBytes) {
    this(
        requests,
        concurrency,
        keepAlive,
        timeoutNanos,
        slowReaderPauseNanos,
        recvBufferBytes,
        HttpVersion.AUTO,
        1,
        0);
  }

  public static final int MAX_REQUESTS = 100_000;
  public static final int MAX_CONCURRENCY = 1_000;

  public ClientOptions {
    if (requests < 1 || requests > MAX_REQUESTS)
      throw new IllegalArgumentException("requests must be 1.." + MAX_REQUESTS);
    if (concurrency < 1 || concurrency > MAX_CONCURRENCY)
      throw new IllegalArgumentException("concurrency must be 1.." + MAX_CONCURRENCY);
    if (timeoutNanos <= 0) throw new IllegalArgumentException("timeout must be positive");
    if (recvBufferBytes < 64)
      throw new IllegalArgumentException("recv buffer must be at least 64 B");
    if (http == null) throw new IllegalArgumentException("http must be given");
    if (streamsPerConnection < 1 || streamsPerConnection > MAX_STREAMS_PER_CONNECTION) {
      throw new IllegalArgumentException(
          "streams per connection must be 1.." + MAX_STREAMS_PER_CONNECTION);
    }
    if (h2Window != 0 && (h2Window < MIN_H2_WINDOW || h2Window > MAX_H2_WINDOW)) {
      throw new IllegalArgumentException(
          "h2 window must be "
              + MIN_H2_WINDOW
              + ".."
              + MAX_H2_WINDOW
              + " bytes (0: the profile's)");
    }
  }

  public static final int MIN_H2_WINDOW = 1;
  public static final int MAX_H2_WINDOW = Integer.MAX_VALUE;

  /**
   * One request at a time, a fresh connection each, 60 s each, read at once, 64 KiB reads: every
   * client setting's default.
   */
  public static final ClientOptions DEFAULT =
      new ClientOptions(1, 1, false, 60_000_000_000L, 0, 65536);

  public static ClientOptions single() {
    return DEFAULT;
  }

  public ClientOptions withRequests(int n, int c) {
    return new ClientOptions(
        n,
        c,
        keepAlive,
        timeoutNanos,
        slowReaderPauseNanos,
        recvBufferBytes,
        http,
        streamsPerConnection,
        h2Window);
  }

  /** HTTP/2 with several streams on each connection. */
  public boolean multiplexed() {
    return http.h2() && streamsPerConnection > 1;
  }
}
