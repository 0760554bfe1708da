package flushlab.stream;

import flushlab.core.Named;
import java.util.List;

/**
 * The Cache-Control the emitter answers a stream with: {@code no-cache} as SSE servers send, or
 * {@code no-transform} added, the header RFC 9111 gives origins to tell intermediaries not to alter
 * the body (the usual escape from a CDN's or proxy's compression).
 */
public enum CacheControl implements Named {
  NO_CACHE("no-cache"),
  NO_TRANSFORM("no-cache, no-transform");

  public final String header;

  CacheControl(String header) {
    this.header = header;
  }

  public static List<String> settingNames() {
    return Named.texts(CacheControl.class);
  }

  public static CacheControl named(String name) {
    return Named.parseOrThrow(CacheControl.class, name);
  }
}
