package flushlab.http;

/** The bytes on a connection are not the HTTP/1.1 they were expected to be. */
public final class HttpParseException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final boolean notHttp;

  public HttpParseException(String message, boolean notHttp) {
    super(message);
    this.notHttp = notHttp;
  }

  /** True when the peer does not speak HTTP at all (as opposed to speaking it badly). */
  public boolean notHttp() {
    return notHttp;
  }
}
