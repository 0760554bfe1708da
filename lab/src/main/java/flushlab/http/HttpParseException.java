package flushlab.http;

/** The bytes on a connection are not the HTTP/1.1 they were expected to be. */
public final class HttpParseException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final boolean notHttp;
  private final int status;
  private final boolean http2Only;

  public HttpParseException(String message, boolean notHttp) {
    this(message, notHttp, 400);
  }

  public HttpParseException(String message, boolean notHttp, int status) {
    this(message, notHttp, status, false);
  }

  private HttpParseException(String message, boolean notHttp, int status, boolean http2Only) {
    super(message);
    this.notHttp = notHttp;
    this.status = status;
    this.http2Only = http2Only;
  }

  /**
   * The peer answered HTTP/1.x with HTTP/2's frames (an h2c-only listener): not HTTP/1.x at all.
   */
  static HttpParseException speakingHttp2Only(String message) {
    return new HttpParseException(message, true, 400, true);
  }

  /** True when the peer answered with HTTP/2's frames: it speaks HTTP/2 by prior knowledge only. */
  public boolean speaksHttp2Only() {
    return http2Only;
  }

  /** True when the peer does not speak HTTP at all (as opposed to speaking it badly). */
  public boolean notHttp() {
    return notHttp;
  }

  /** The status a server answers this with: 400, or 413 for a message over a size limit. */
  public int status() {
    return status;
  }
}
