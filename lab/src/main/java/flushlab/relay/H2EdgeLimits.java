package flushlab.relay;

import flushlab.http.H2;

/**
 * What the relay's HTTP/2 edge holds at the most, and the headers it does not pass between HTTP/2
 * and HTTP/1.1.
 */
final class H2EdgeLimits {
  private H2EdgeLimits() {}

  /**
   * Response bytes one stream may hold for a window the client has not opened; it takes no more.
   */
  static final int PAUSE_BYTES = 1 << 20;

  /** A stream paused for its own bytes takes more once it holds less than this. */
  static final int RESUME_BYTES = 256 << 10;

  /**
   * Response bytes all of one connection's streams may hold for windows the client has not opened;
   * its streams take no more above it.
   */
  static final int CONNECTION_PAUSE_BYTES = 8 << 20;

  /** Streams paused for the connection's total take more once it holds less than this. */
  static final int CONNECTION_RESUME_BYTES = 4 << 20;

  /**
   * The most of a request body without Content-Length read before it goes upstream (the emitter's
   * own body cap).
   */
  static final int MAX_BUFFERED_BODY = 1 << 20;

  /**
   * Request and response headers HTTP/2 does not carry ({@link H2#CONNECTION_SPECIFIC}), and the
   * ones this edge frames itself: TE, and the h2c upgrade's HTTP2-Settings.
   */
  static boolean connectionSpecific(String lowerCaseName) {
    return H2.CONNECTION_SPECIFIC.contains(lowerCaseName)
        || lowerCaseName.equals("te")
        || lowerCaseName.equals("http2-settings");
  }
}
