package flushlab.client;

import java.util.List;
import java.util.Map;

/**
 * HTTP/2, over a batch's complete streams: the server's SETTINGS (of the first), WINDOW_UPDATEs
 * each way and DATA bytes summed, and the client's own windows.
 */
public record H2Summary(
    int streams,
    Map<String, Long> serverSettings,
    long windowUpdatesSent,
    long windowUpdatesReceived,
    long dataBytes,
    int clientInitialWindow,
    int clientConnectionWindow) {

  /** The summary of these streams, or null when none complete went over HTTP/2. */
  static H2Summary of(List<StreamResult> streams) {
    H2Summary sum = null;
    for (StreamResult s : streams) {
      if (!s.ok() || s.h2() == null) continue;
      H2Stats h = s.h2();
      sum =
          sum == null
              ? new H2Summary(
                  1,
                  h.serverSettings(),
                  h.windowUpdatesSent(),
                  h.windowUpdatesReceived(),
                  h.dataBytes(),
                  h.clientInitialWindow(),
                  h.clientConnectionWindow())
              : new H2Summary(
                  sum.streams + 1,
                  sum.serverSettings,
                  sum.windowUpdatesSent + h.windowUpdatesSent(),
                  sum.windowUpdatesReceived + h.windowUpdatesReceived(),
                  sum.dataBytes + h.dataBytes(),
                  sum.clientInitialWindow,
                  sum.clientConnectionWindow);
    }
    return sum;
  }
}
