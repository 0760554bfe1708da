package flushlab.http;

/**
 * One header field: a request's to send, or a response head's the emitter writes. Its name as
 * written (names compare case-insensitively) and its value. A value may be a secret from a
 * scenario's environment (an API key), so {@link #toString} names the field only.
 */
public record Header(String name, String value) {
  public Header {
    if (name == null || name.isEmpty()) throw new IllegalArgumentException("a header needs a name");
    if (value == null) throw new IllegalArgumentException("header " + name + " needs a value");
  }

  /** Whether this field is named {@code other}, case aside. */
  public boolean named(String other) {
    return name.equalsIgnoreCase(other);
  }

  /** "Name: value", as a request head carries it. */
  public String line() {
    return name + ": " + value;
  }

  @Override
  public String toString() {
    return name + ": <value not shown>";
  }
}
