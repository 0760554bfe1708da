package flushlab.stream;

import flushlab.core.Named;
import java.util.List;

/**
 * How the client asks for the sse endpoint. Some proxies decide on the method alone (a cloudflared
 * quick tunnel streamed POST and buffered GET), and LLM APIs stream answers to POSTs.
 */
public enum RequestMethod implements Named {
  GET,
  /** With a small JSON body, as a fetch() that posts a prompt sends. */
  POST;

  public static List<String> settingNames() {
    return Named.texts(RequestMethod.class);
  }
}
