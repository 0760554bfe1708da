package flushlab.stream;

import flushlab.core.Named;
import java.util.List;

/** How the emitter frames an SSE body on HTTP/1.x: chunked, close, chunked-always, length. */
public enum Transfer implements Named {
  /** Chunked, or close-delimited for an HTTP/1.0 request (which has no chunked encoding). */
  CHUNKED,
  /** Close-delimited: the body ends when the connection does. */
  CLOSE,
  /** Chunked even for HTTP/1.0, as some servers send it to anyone. */
  CHUNKED_ALWAYS,
  /**
   * A finite body announced by Content-Length (the emitter knows it: frames x size), as a server
   * sends a response it does not think of as a stream; many proxies buffer exactly these.
   */
  LENGTH;

  /** Whether a response to a request of this HTTP version is chunked. */
  public boolean chunkedFor(boolean http11) {
    return this == CHUNKED_ALWAYS || (this == CHUNKED && http11);
  }

  public static List<String> settingNames() {
    return Named.texts(Transfer.class);
  }

  public static Transfer named(String name) {
    return Named.parseOrThrow(Transfer.class, name);
  }
}
