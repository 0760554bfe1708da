package flushlab.client;

import java.util.Map;

/**
 * What one HTTP/2 stream's connection said and did while the stream ran: the server's SETTINGS (by
 * name, as received), WINDOW_UPDATEs the client sent (it gives back what it reads, at once) and
 * received, the DATA bytes received, and the stream and connection windows the client offered.
 */
public record H2Stats(
    Map<String, Long> serverSettings,
    long windowUpdatesSent,
    long windowUpdatesReceived,
    long dataBytes,
    int clientInitialWindow,
    int clientConnectionWindow) {}
