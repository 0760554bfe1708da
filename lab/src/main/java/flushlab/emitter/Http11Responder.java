package flushlab.emitter;

import flushlab.coding.ContentCoding;
import flushlab.core.Units;
import flushlab.http.H2;
import flushlab.http.Header;
import flushlab.http.HttpParseException;
import flushlab.http.HttpRequestParser;
import flushlab.http.HttpRequestParser.Request;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * HTTP/1.x on one emitter connection: requests parsed one at a time (keep-alive; pipelined ones
 * queued, at most {@link #MAX_PIPELINED}), each answered in turn, a stream as a head and its paced
 * body (chunked, with a Content-Length, or close-delimited). Runs on the connection's event loop.
 */
final class Http11Responder implements EmitterRoutes.Responder {
  private static final int MAX_PIPELINED = 16;

  /**
   * How long a connection refused mid-body keeps reading (and dropping) what its client still
   * sends.
   */
  static final long LINGER_MS = 2_000;

  private final EmitterConnection connection;
  private final Channel channel;
  private final EmitterRoutes routes;
  private final HttpRequestParser parser = new HttpRequestParser(this::onRequest);
  private final ArrayDeque<Request> queued = new ArrayDeque<>();

  /** The stream being written, or null. */
  private PacedStream stream;

  /** A completion waiting out its generation time, or null. */
  private ScheduledFuture<?> completion;

  /** Whether a request is being answered (the next waits in {@link #queued}). */
  private boolean busy;

  /** Request bytes this connection holds (unfinished and queued), counted in the shared budget. */
  private long heldRequestBytes;

  private long queuedRequestBytes;
  private ScheduledFuture<?> requestTimer;

  Http11Responder(EmitterConnection connection, Channel channel, EmitterRoutes routes) {
    this.connection = connection;
    this.channel = channel;
    this.routes = routes;
  }

  /**
   * Request bytes from the client: parsed, held to the shared request-bytes budget, and to the
   * request timeout from when a request starts arriving.
   */
  void feed(byte[] bytes, int from, int length) {
    try {
      parser.feed(bytes, from, length);
    } catch (HttpParseException e) {
      connection.respondAndClose(e.status(), e.getMessage());
      return;
    }
    if (!holdRequestBytes()) {
      connection.respondAndClose(
          503,
          "flushlab emitter: too many unanswered request bytes over all connections (budget "
              + (Admission.REQUEST_BYTES_BUDGET >> 20)
              + " MiB); retry later");
      return;
    }
    startRequestTimerIfNeeded();
  }

  /** Bytes written of the stream being answered, for the idle watch. */
  long progress() {
    return stream == null ? 0 : stream.progress();
  }

  void writable() {
    if (stream != null) stream.writable();
  }

  /**
   * A refusal that ends the connection: an answer, unless one is being written (an answer cannot go
   * in the middle of a response: the connection just ends).
   */
  void refuse(int status, String reason) {
    if (busy) channel.close();
    else writeSimple(status, "text/plain", reason + "\n", false);
  }

  /** The connection closed: what it held is let go. */
  void closed() {
    connection.admission().holdRequestBytes(-heldRequestBytes);
    heldRequestBytes = 0;
    queued.clear();
    if (requestTimer != null) requestTimer.cancel(false);
    if (stream != null) stream.cancel();
    if (completion != null) completion.cancel(false);
  }

  private void onRequest(Request request) {
    if (requestTimer != null) {
      requestTimer.cancel(false);
      requestTimer = null;
    }
    // after an h2c Upgrade, what the parser still finds (a request pipelined behind the upgrade
    // request) came in the old protocol: the connection is HTTP/2's now (the split connection
    // answered it over HTTP/1.1 inside the HTTP/2 stream; the one before failed on it)
    if (connection.closing() || connection.speaksH2()) return;
    if (!busy && h2cUpgrade(request)) return;
    if (busy) {
      if (queued.size() >= MAX_PIPELINED) {
        connection.markClosing();
        channel.close();
        return;
      }
      queued.add(request);
      queuedRequestBytes += request.body().length;
      return;
    }
    busy = true;
    routes.route(request, this);
  }

  /**
   * h2c by Upgrade (RFC 7540 3.2): a GET asking for it with Upgrade: h2c and HTTP2-Settings is
   * answered 101, and then, as stream 1 of HTTP/2, with what it asked for. False (and nothing done)
   * for any other request.
   */
  private boolean h2cUpgrade(Request r) {
    String upgrade = r.headers().get("Upgrade");
    String settings = r.headers().get("HTTP2-Settings");
    if (upgrade == null
        || settings == null
        || !upgrade.toLowerCase(Locale.ROOT).contains("h2c")
        || r.body().length > 0
        || !"HTTP/1.1".equals(r.version())) {
      return false;
    }
    int[] values = H2.settingsFromHeader(settings);
    // a header that does not decode: answered over HTTP/1.1, as the RFC allows
    if (values == null) return false;
    channel.writeAndFlush(
        Unpooled.wrappedBuffer(
            "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII)));
    connection.upgradedToH2(values, r);
    return true;
  }

  @Override
  public int maxEventBytes() {
    return PacedStream.MAX_WHOLE_EVENT_BYTES;
  }

  @Override
  public void respond(Request r, int status, String type, String body) {
    boolean keepAlive = r.keepAlive();
    writeSimple(status, type, body, keepAlive);
    if (keepAlive) nextRequest();
    else connection.markClosing();
  }

  @Override
  public void respondLater(Request r, long delayNanos, String type, Supplier<String> body) {
    Request kept = r.withoutBody(); // what waits out the delay keeps no body
    completion =
        channel
            .eventLoop()
            .schedule(
                () -> {
                  completion = null;
                  respond(kept, 200, type, body.get());
                },
                delayNanos,
                TimeUnit.NANOSECONDS);
  }

  /**
   * The head (the answer's fields, then HTTP/1.1's framing), with the preamble in the same write,
   * as a server announces the response before it generates; then the paced body.
   */
  @Override
  public void stream(Request r, StreamAnswer answer) {
    long start = System.nanoTime();
    // HTTP/1.0 has no chunked encoding: such a client (nginx's default upstream) gets a
    // close-delimited body, unless the request asks for transfer=chunked-always (as some servers
    // send chunked to anyone, which is how a proxy may see it in the wild)
    boolean chunked = answer.transfer().chunkedFor(!"HTTP/1.0".equals(r.version()));
    boolean keepAlive = (chunked || answer.contentLength() >= 0) && r.keepAlive();
    ContentCoding coding = answer.codingFor(r.headers().get("Accept-Encoding"));
    StringBuilder head = new StringBuilder(256).append("HTTP/1.1 200 OK\r\n");
    for (Header h : answer.headers(coding)) head.append(h.line()).append("\r\n");
    if (chunked) head.append("Transfer-Encoding: chunked\r\n");
    else if (answer.contentLength() >= 0)
      head.append("Content-Length: ").append(answer.contentLength()).append("\r\n");
    if (!keepAlive) head.append("Connection: close\r\n");
    head.append("\r\n");
    byte[] preamble = answer.source().preamble();
    if (preamble.length > 0) {
      if (chunked) head.append(Integer.toHexString(preamble.length)).append("\r\n");
      // bytes kept as they are (UTF-8 inside)
      head.append(new String(preamble, StandardCharsets.ISO_8859_1));
      if (chunked) head.append("\r\n");
    }
    PacingAudit audit =
        routes
            .audits()
            .start(answer.id(), answer.source().frames(), answer.paced(), channel.eventLoop());
    channel.writeAndFlush(
        Unpooled.wrappedBuffer(head.toString().getBytes(StandardCharsets.ISO_8859_1)));
    stream =
        new PacedStream(
            channel,
            answer.source(),
            audit,
            chunked,
            answer.compressor(coding),
            null, // HTTP/1.1: no HTTP/2 session, no stream id
            0,
            start,
            answer.thinkNanos(),
            answer.intervalNanos(),
            complete -> {
              stream = null;
              if (!complete || !keepAlive) {
                connection.markClosing();
                channel
                    .writeAndFlush(Unpooled.EMPTY_BUFFER)
                    .addListener(ChannelFutureListener.CLOSE);
              } else {
                nextRequest();
              }
            });
    stream.keepAlive(answer.keepAliveNanos());
    stream.start();
  }

  private void writeSimple(int status, String type, String body, boolean keepAlive) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    String head =
        "HTTP/1.1 "
            + status
            + " "
            + reason(status)
            + "\r\nContent-Type: "
            + type
            + "\r\nContent-Length: "
            + bytes.length
            + "\r\n"
            + (keepAlive ? "" : "Connection: close\r\n")
            + "\r\n";
    byte[] h = head.getBytes(StandardCharsets.ISO_8859_1);
    var f = channel.writeAndFlush(Unpooled.wrappedBuffer(h, bytes));
    if (keepAlive) return;
    if (status == 413) f.addListener(done -> lingerThenClose());
    else f.addListener(ChannelFutureListener.CLOSE);
  }

  /**
   * After a refusal the client may still be sending (a body over the limit): closing now, with its
   * bytes unread, makes the kernel answer them with a reset that can destroy the response before
   * the client reads it. So: send FIN, keep reading and dropping its bytes (the connection drops
   * everything once closing), and close when it closes or after {@link #LINGER_MS}.
   */
  private void lingerThenClose() {
    if (!(channel instanceof DuplexChannel d) || !channel.isActive()) {
      channel.close();
      return;
    }
    connection.resumeReading();
    d.shutdownOutput()
        .addListener(
            x -> {
              Runnable close = channel::close;
              channel.eventLoop().schedule(close, LINGER_MS, TimeUnit.MILLISECONDS);
            });
  }

  private void nextRequest() {
    busy = false;
    Request next = queued.poll();
    if (next != null) {
      queuedRequestBytes -= next.body().length;
      holdRequestBytes();
      onRequest(next);
    }
    startRequestTimerIfNeeded();
  }

  /**
   * A request has started arriving on a free connection: it must be complete within the timeout.
   */
  private void startRequestTimerIfNeeded() {
    if (busy || connection.closing() || parser.idle() || requestTimer != null) return;
    long timeout = connection.requestTimeoutNanos();
    requestTimer =
        channel
            .eventLoop()
            .schedule(
                () -> {
                  requestTimer = null;
                  connection.respondAndClose(
                      408,
                      "flushlab emitter: the request was not complete within "
                          + Units.formatDuration(timeout));
                },
                timeout,
                TimeUnit.NANOSECONDS);
  }

  /** Brings this connection's share of the request-bytes budget up to date; false when over it. */
  private boolean holdRequestBytes() {
    long now = parser.bufferedBytes() + queuedRequestBytes;
    if (!connection.admission().holdRequestBytes(now - heldRequestBytes)) return false;
    heldRequestBytes = now;
    return true;
  }

  private static String reason(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 400 -> "Bad Request";
      case 401 -> "Unauthorized";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 408 -> "Request Timeout";
      case 409 -> "Conflict";
      case 413 -> "Payload Too Large";
      case 503 -> "Service Unavailable";
      default -> "Status";
    };
  }
}
