package flushlab.relay;

/**
 * What an HTTP/2 client connection's streams hold for windows the client has not opened, over all
 * of them, and how many streams take no more from their exchanges now: a stream pauses its exchange
 * past its own mark or the connection's, and streams paused for the connection's total take more
 * once it has drained. Confined to the connection's event loop.
 */
final class H2ConnectionHold {
  private long bytes;
  private int pausedStreams;

  /** Response bytes held: {@code delta} more (or fewer). */
  void add(long delta) {
    bytes += delta;
  }

  /** Whether the connection's streams hold more than they may: each takes no more. */
  boolean overPause() {
    return bytes > H2EdgeLimits.CONNECTION_PAUSE_BYTES;
  }

  /** Whether the connection's streams hold little enough that a paused one may take more. */
  boolean belowResume() {
    return bytes < H2EdgeLimits.CONNECTION_RESUME_BYTES;
  }

  /** Streams that take no more now: {@code delta} more (or fewer). */
  void paused(int delta) {
    pausedStreams += delta;
  }

  /** Whether some stream takes no more now. */
  boolean anyPaused() {
    return pausedStreams > 0;
  }
}
