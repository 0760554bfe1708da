package flushlab.http;

/**
 * A client's HTTP/2 is valid but abusive (see {@link H2Guard}): the connection ends with GOAWAY
 * ENHANCE_YOUR_CALM.
 */
public final class H2FloodException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public H2FloodException(String message) {
    super(message);
  }
}
