package flushlab.stream;

/** An extra header the emitter adds to a stream's response head. */
public record ResponseHeader(String name, String value) {
  private static final String TOKEN = "[A-Za-z0-9!#$%&'*+.^_`|~-]+";

  /** A header name and a single-line value, or an IllegalArgumentException saying which is wrong. */
  public ResponseHeader {
    if (name == null || !name.matches(TOKEN)) throw new IllegalArgumentException("'" + name + "' is not a valid header name");
    if (value == null || value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
      throw new IllegalArgumentException("the value of " + name + " must be a single line");
    }
  }

  @Override
  public String toString() {
    return name + ": " + value;
  }
}
