package flushlab.emitter;

import flushlab.core.IdleWatch;
import flushlab.core.LabVertx;
import flushlab.http.H2;
import flushlab.http.HttpRequestParser.Request;
import io.netty.channel.Channel;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;

/**
 * One client connection to the emitter: admitted or refused, told apart as HTTP/1.x or HTTP/2 from
 * its first bytes (h2c's preface; h2 by ALPN; h2c by Upgrade from HTTP/1.1 later), its bytes handed
 * to that protocol's responder, closed when idle. What each request is answered with is the routes'
 * ({@link EmitterRoutes}); how the answer is written, the responder's ({@link Http11Responder},
 * {@link H2Responder}). Runs on the connection's event loop only.
 */
final class EmitterConnection {
  private final NetSocket socket;
  private final Channel channel;
  private final Admission admission;
  private final long requestTimeoutNanos;
  private final EmitterRoutes routes;
  private final Http11Responder http11;

  /** HTTP/2 (h2 by ALPN, h2c by its preface or by Upgrade): its responder; null on HTTP/1.x. */
  private H2Responder h2;

  private boolean closing;
  private long bytesRead;

  /**
   * Closes the connection when no request byte was read and no frame written for the idle timeout.
   */
  private IdleWatch idleWatch;

  /**
   * Until the first bytes say whether this is h2c's preface or an HTTP/1.1 request, how many
   * matched the preface.
   */
  private int prefaceMatched;

  private boolean protocolKnown;

  /** After an h2c Upgrade: bytes of the client's preface still to come before its frames. */
  private int prefaceToSkip;

  EmitterConnection(
      NetSocket socket,
      EmitterRoutes routes,
      Admission admission,
      long requestTimeoutNanos,
      long idleTimeoutNanos) {
    this.socket = socket;
    this.channel = LabVertx.channel(socket);
    this.routes = routes;
    this.admission = admission;
    this.requestTimeoutNanos = requestTimeoutNanos;
    this.http11 = new Http11Responder(this, channel, routes);
    boolean admitted = admission.connectionOpened();
    socket.closeHandler(v -> closed());
    // A client that resets the connection (one that stops reading mid-stream, a proxy dropping an
    // upstream connection) is ordinary here: the close handler cleans up; nothing to report.
    socket.exceptionHandler(t -> {});
    if (!admitted) {
      respondAndClose(
          503,
          "flushlab emitter: too many connections (at most "
              + admission.maxConnections()
              + " at once; see --max-connections)");
      return;
    }
    LabVertx.onWritable(
        channel,
        () -> {
          http11.writable();
          if (h2 != null) h2.writable();
        });
    socket.handler(this::onBytes);
    if ("h2".equals(socket.applicationLayerProtocol())) startH2(); // TLS with ALPN h2
    idleWatch =
        new IdleWatch(
            channel.eventLoop(),
            idleTimeoutNanos,
            () -> bytesRead + http11.progress() + (h2 == null ? 0 : h2.progress()),
            () -> {
              if (closing) return;
              closing = true;
              channel.close();
            });
  }

  Admission admission() {
    return admission;
  }

  long requestTimeoutNanos() {
    return requestTimeoutNanos;
  }

  /** Whether the connection is on its way out: nothing more is read or answered. */
  boolean closing() {
    return closing;
  }

  /** Whether the connection speaks HTTP/2 (from the start, or since an h2c Upgrade). */
  boolean speaksH2() {
    return h2 != null;
  }

  void markClosing() {
    closing = true;
  }

  /** Reads again (a refusal lingering over what its client still sends). */
  void resumeReading() {
    socket.resume();
  }

  private void onBytes(Buffer buffer) {
    if (closing) return;
    byte[] bytes = buffer.getBytes();
    bytesRead += bytes.length;
    if (h2 != null) {
      int start = 0;
      while (prefaceToSkip > 0 && start < bytes.length) {
        if (bytes[start] != H2.PREFACE[H2.PREFACE.length - prefaceToSkip]) {
          respondAndClose(400, "after h2c Upgrade the client must send HTTP/2's preface");
          return;
        }
        start++;
        prefaceToSkip--;
      }
      h2.feed(bytes, start);
      return;
    }
    if (!protocolKnown) {
      // h2c by prior knowledge starts with the preface; anything else is HTTP/1.x from its first
      // differing byte
      int n = Math.min(bytes.length, H2.PREFACE.length - prefaceMatched);
      int i = 0;
      while (i < n && bytes[i] == H2.PREFACE[prefaceMatched + i]) i++;
      if (i == n && prefaceMatched + n == H2.PREFACE.length) {
        startH2();
        h2.feed(bytes, n);
        return;
      }
      if (i == n) {
        prefaceMatched += n; // so far, the preface: wait for more
        return;
      }
      protocolKnown = true;
      // the bytes held back were HTTP/1.x after all
      if (prefaceMatched > 0) http11.feed(H2.PREFACE, 0, prefaceMatched);
      if (closing) return;
    }
    http11.feed(bytes, 0, bytes.length);
  }

  /** From now on this connection speaks HTTP/2: frames in, HEADERS and DATA out. */
  private void startH2() {
    protocolKnown = true;
    h2 = new H2Responder(this, channel, routes);
  }

  /**
   * HTTP/1.1 answered an h2c Upgrade with 101: HTTP/2 from here, the request that asked for it its
   * stream 1, and the client's preface expected next.
   */
  void upgradedToH2(int[] settings, Request request) {
    startH2();
    prefaceToSkip = H2.PREFACE.length;
    h2.adoptUpgrade(settings, request);
  }

  /** Refuses the client with {@code status} and ends the connection (once). */
  void respondAndClose(int status, String reason) {
    if (closing) return;
    closing = true;
    if (h2 != null) h2.refuse();
    else http11.refuse(status, reason);
  }

  private void closed() {
    closing = true;
    admission.connectionClosed();
    if (idleWatch != null) idleWatch.cancel();
    http11.closed();
    if (h2 != null) h2.closed();
  }
}
