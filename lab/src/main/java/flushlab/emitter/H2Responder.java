package flushlab.emitter;

import flushlab.coding.ContentCoding;
import flushlab.core.LabVertx;
import flushlab.core.Units;
import flushlab.http.H2;
import flushlab.http.Header;
import flushlab.http.HttpRequestParser.Request;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * HTTP/2 on one emitter connection (h2 by ALPN, h2c by its preface or by Upgrade): streams answered
 * side by side, none waiting for another, each a HEADERS frame and its paced DATA frames under the
 * session's flow control. Runs on the connection's event loop.
 */
final class H2Responder implements EmitterRoutes.Responder {
  /**
   * How long a client has to take a GOAWAY (and what was queued before it) before its connection is
   * cut off.
   */
  static final long GOAWAY_GRACE_MS = 1_000;

  private final EmitterConnection connection;
  private final Channel channel;
  private final EmitterRoutes routes;
  private final H2ServerSession session;

  /** The streams being answered, by stream id. */
  private final Map<Integer, PacedStream> streams = new HashMap<>();

  /** Which stream each request being answered came on. */
  private final IdentityHashMap<Request, Integer> requestStreams = new IdentityHashMap<>();

  /** Completions waiting out their generation time, by stream. */
  private final Map<Integer, ScheduledFuture<?>> completions = new HashMap<>();

  /** Request bytes the session holds (unfinished requests), counted in the shared budget. */
  private long heldRequestBytes;

  /** One timer per connection, at the deadline of its oldest request not complete yet. */
  private ScheduledFuture<?> requestTimer;

  H2Responder(EmitterConnection connection, Channel channel, EmitterRoutes routes) {
    this.connection = connection;
    this.channel = channel;
    this.routes = routes;
    this.session = new H2ServerSession(new SessionEvents());
  }

  /** What the session reports: requests, resets, windows, errors; and where it writes. */
  private final class SessionEvents implements H2ServerSession.Handler {
    @Override
    public void onRequest(int streamId, Request request) {
      request(streamId, request);
    }

    @Override
    public void onStreamReset(int streamId, String why) {
      PacedStream p = streams.get(streamId);
      if (p != null) p.cancel();
      // a completion nobody waits for anymore, with its request, is dropped now
      ScheduledFuture<?> later = completions.remove(streamId);
      if (later != null) later.cancel(false);
    }

    @Override
    public void onWindow() {
      writable();
    }

    @Override
    public void onConnectionError(String why) {
      connection.markClosing();
      // GOAWAY goes out with what is queued before it, then a FIN; a client whose queue is backed
      // up already (one that floods PINGs and reads nothing) would take none of it: cut off at once
      if (backedUp()) LabVertx.closeNow(channel);
      else LabVertx.closeAfterFlush(channel, GOAWAY_GRACE_MS);
    }

    @Override
    public void write(ByteBuf bytes) {
      channel.writeAndFlush(bytes);
    }

    @Override
    public boolean backedUp() {
      return LabVertx.backedUp(channel);
    }
  }

  /**
   * HTTP/2 bytes from the client: into the session, then its unfinished requests held to the shared
   * request-bytes budget and to the request timeout, as HTTP/1.1's are.
   */
  void feed(byte[] bytes, int from) {
    if (!session.feed(bytes, from, bytes.length - from)) return;
    long now = session.heldRequestBytes();
    if (!connection.admission().holdRequestBytes(now - heldRequestBytes)) {
      connection.respondAndClose(
          503, "flushlab emitter: too many unanswered request bytes over all connections");
      return;
    }
    heldRequestBytes = now;
    scheduleRequestTimeout();
  }

  /** After an h2c Upgrade: the request that asked for it, answered as stream 1. */
  void adoptUpgrade(int[] settings, Request request) {
    session.adoptUpgradedStream(settings);
    request(1, request);
  }

  /** Bytes written of every stream being answered, for the idle watch. */
  long progress() {
    long p = 0;
    for (PacedStream s : streams.values()) p += s.progress();
    return p;
  }

  void writable() {
    for (PacedStream p : List.copyOf(streams.values())) p.writable();
  }

  /** A refusal that ends the connection: a GOAWAY, then the close. */
  void refuse() {
    channel
        .writeAndFlush(Unpooled.wrappedBuffer(H2.goAway(0, H2.NO_ERROR)))
        .addListener(ChannelFutureListener.CLOSE);
  }

  /** The connection closed: what it held is let go. */
  void closed() {
    connection.admission().holdRequestBytes(-heldRequestBytes);
    heldRequestBytes = 0;
    if (requestTimer != null) requestTimer.cancel(false);
    for (PacedStream p : List.copyOf(streams.values())) p.cancel();
    for (ScheduledFuture<?> later : completions.values()) later.cancel(false);
    completions.clear();
  }

  private void request(int streamId, Request request) {
    if (connection.closing()) return;
    requestStreams.put(request, streamId);
    routes.route(request, this);
  }

  private void scheduleRequestTimeout() {
    long oldest = session.oldestIncompleteNanos();
    if (oldest == Long.MAX_VALUE || requestTimer != null || connection.closing()) return;
    long timeout = connection.requestTimeoutNanos();
    long delay = Math.max(0, oldest + timeout - System.nanoTime());
    requestTimer =
        channel
            .eventLoop()
            .schedule(
                () -> {
                  requestTimer = null;
                  if (connection.closing()) return;
                  boolean open =
                      session.expire(
                          System.nanoTime() - timeout + 1,
                          "was not complete within " + Units.formatDuration(timeout));
                  long now = session.heldRequestBytes();
                  connection.admission().holdRequestBytes(now - heldRequestBytes);
                  heldRequestBytes = now;
                  if (open) scheduleRequestTimeout();
                },
                delay,
                TimeUnit.NANOSECONDS);
  }

  @Override
  public int maxEventBytes() {
    return H2ServerSession.MAX_DATA_FRAME;
  }

  @Override
  public void respond(Request r, int status, String type, String body) {
    Integer streamId = requestStreams.remove(r);
    if (streamId != null)
      channel.writeAndFlush(
          session.simple(streamId, status, type, body.getBytes(StandardCharsets.UTF_8)));
  }

  @Override
  public void respondLater(Request request, long delayNanos, String type, Supplier<String> body) {
    Integer streamId = requestStreams.remove(request);
    if (streamId == null) return;
    // what waits out the delay keeps no body; cancelled, with it, when its stream is reset or the
    // connection closes
    Request r = request.withoutBody();
    requestStreams.put(r, streamId);
    completions.put(
        streamId,
        channel
            .eventLoop()
            .schedule(
                () -> {
                  completions.remove(streamId);
                  respond(r, 200, type, body.get());
                },
                delayNanos,
                TimeUnit.NANOSECONDS));
  }

  /**
   * A HEADERS frame (the answer's fields and, for a body with one, its content-length), the
   * preamble as DATA in the same write, as on HTTP/1.1; then the paced DATA frames. The connection
   * stays.
   */
  @Override
  public void stream(Request r, StreamAnswer answer) {
    long start = System.nanoTime();
    int streamId = requestStreams.remove(r);
    ContentCoding coding = answer.codingFor(r.headers().get("Accept-Encoding"));
    List<Header> fields = answer.headers(coding);
    if (answer.contentLength() >= 0)
      fields.add(new Header("Content-Length", Long.toString(answer.contentLength())));
    ByteBuf head = session.head(streamId, 200, fields, false);
    byte[] preamble = answer.source().preamble();
    if (preamble.length > 0) {
      ByteBuf both =
          Unpooled.buffer(
              head.readableBytes() + preamble.length + H2ServerSession.framing(preamble.length));
      both.writeBytes(head);
      head.release();
      session.data(both, streamId, preamble, 0, preamble.length, false);
      head = both;
    }
    PacingAudit audit =
        routes
            .audits()
            .start(answer.id(), answer.source().frames(), answer.paced(), channel.eventLoop());
    channel.writeAndFlush(head);
    PacedStream p =
        new PacedStream(
            channel,
            answer.source(),
            audit,
            false,
            answer.compressor(coding),
            session,
            streamId,
            start,
            answer.thinkNanos(),
            answer.intervalNanos(),
            complete -> streams.remove(streamId));
    streams.put(streamId, p);
    p.keepAlive(answer.keepAliveNanos());
    p.start();
  }
}
