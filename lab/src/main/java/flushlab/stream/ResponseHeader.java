package flushlab.stream;

/** An extra header the emitter adds to a stream's response head. */
public record ResponseHeader(String name, String value) {
  private static final String TOKEN = "[A-Za-z0-9!#$%&'*+.^_`|~-]+";

  /** Headers that frame the response or the connection: the emitter's alone. */
  private static final String[] FRAMING = {
    "Content-Length", "Transfer-Encoding", "Connection", "Keep-Alive", "Upgrade", "Trailer"
  };

  /**
   * A header name and a single-line value, or an IllegalArgumentException saying which is wrong.
   */
  public ResponseHeader {
    if (name == null || !name.matches(TOKEN))
      throw new IllegalArgumentException("'" + name + "' is not a valid header name");
    for (String framing : FRAMING) {
      if (framing.equalsIgnoreCase(name)) {
        // a second framing header beside the emitter's own would make the response ambiguous (both
        // Content-Length
        // and Transfer-Encoding: a request-smuggling shape), which is not a buffering behaviour to
        // reproduce
        throw new IllegalArgumentException(
            name
                + " is written by the emitter itself (it decides how the response is framed); "
                + "allowed: any other header");
      }
    }
    if (value == null || value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
      throw new IllegalArgumentException("the value of " + name + " must be a single line");
    }
  }

  @Override
  public String toString() {
    return name + ": " + value;
  }
}
