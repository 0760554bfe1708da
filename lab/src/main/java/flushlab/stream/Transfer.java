package flushlab.stream;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** How the emitter frames an SSE body on HTTP/1.x. */
public enum Transfer {
  /** Chunked, or close-delimited for an HTTP/1.0 request (which has no chunked encoding). */
  CHUNKED("chunked"),
  /** Close-delimited: the body ends when the connection does. */
  CLOSE("close"),
  /** Chunked even for HTTP/1.0, as some servers send it to anyone. */
  CHUNKED_ALWAYS("chunked-always");

  private final String settingName;

  Transfer(String settingName) {
    this.settingName = settingName;
  }

  public String settingName() {
    return settingName;
  }

  /** Whether a response to a request of this HTTP version is chunked. */
  public boolean chunkedFor(boolean http11) {
    return this == CHUNKED_ALWAYS || (this == CHUNKED && http11);
  }

  public static List<String> settingNames() {
    return Arrays.stream(values()).map(Transfer::settingName).toList();
  }

  public static Transfer named(String name) {
    String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    for (Transfer t : values()) if (t.settingName.equals(n)) return t;
    throw new IllegalArgumentException("'" + name + "' is not one of " + String.join(", ", settingNames()));
  }

  @Override
  public String toString() {
    return settingName;
  }
}
