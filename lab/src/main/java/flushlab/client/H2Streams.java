package flushlab.client;

import flushlab.core.LabVertx;
import flushlab.http.HttpParseException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * The HTTP/2 side of one client connection (h2, h2c, or h2c by Upgrade): its session, and the
 * streams open on it, each with its own meter and timeout: one at a time, or as many as the options
 * multiplex. Every socket read goes through the session, which says what it brought each stream;
 * the connection's own frames are answered at once. Runs on the client's event-loop context.
 */
final class H2Streams {
  private final ClientConnection connection;
  private final ClientOptions options;
  private final Vertx vertx;
  private final ClientBatch batch;
  private final H2ClientSession session;

  /** The open streams, by a scan of the few open. */
  private final List<OpenStream> streams = new ArrayList<>();

  /**
   * The open streams' ids as a read began, reused read after read: finishing one may open the next,
   * so a read walks this copy (no list, iterator or boxed id per read).
   */
  private int[] openIds = new int[1];

  /** Bytes of HTTP/2 answers written while the connection's queue held unsent bytes, in a row. */
  private long unreadReplyBytes;

  /**
   * @param negotiated h2 was agreed by ALPN (over TLS, whatever the options asked)
   */
  H2Streams(
      ClientConnection connection, MeteredClient client, ClientBatch batch, boolean negotiated) {
    this.connection = connection;
    this.options = client.options();
    this.vertx = client.vertx();
    this.batch = batch;
    this.session =
        new H2ClientSession(
            options.http() == HttpVersion.H2 || negotiated,
            streamWindow(),
            connectionWindow(),
            options.http() == HttpVersion.H2C_UPGRADE);
  }

  /** The connection is up: its first stream, and beside it as many as the options multiplex. */
  void openStreams() {
    openStream();
    while (options.multiplexed()
        && streams.size() < options.streamsPerConnection()
        && batch.takeRequest()) openStream();
  }

  /** The connection failed: every open stream's meter says so (each ends as the close judges). */
  void failAll(StreamError e, String why) {
    for (OpenStream open : streams) open.meter.fail(e, why);
  }

  /**
   * The windows this client advertises: the option when set, else what the profile's client does.
   */
  private int streamWindow() {
    return options.h2Window() > 0 ? options.h2Window() : batch.plan.profile().h2Windows().stream();
  }

  private int connectionWindow() {
    return options.h2Window() > 0
        ? options.h2Window()
        : batch.plan.profile().h2Windows().connection();
  }

  /**
   * What the HTTP/2 session owes the server after a read (acks, WINDOW_UPDATEs): one pooled buffer,
   * written at once.
   */
  private void writeReplies() {
    int n = session.replyLength();
    if (n == 0) return;
    // a server that sends PINGs or SETTINGS and reads none of the answers would grow this
    // client's
    // queue without end: past Netty's own cap for the same (in bytes of answers), the connection
    // fails
    if (LabVertx.backedUp(connection.channel())) {
      unreadReplyBytes += n;
      if (unreadReplyBytes > MeteredClient.MAX_UNREAD_REPLY_BYTES) {
        session.fail(
            "the server sent PINGs or SETTINGS faster than it read the answers ("
                + unreadReplyBytes
                + " bytes of them queued)");
        session.repliesSent();
        return;
      }
    } else {
      unreadReplyBytes = 0;
    }
    Channel channel = connection.channel();
    if (connection.socket() != null && channel.isActive()) {
      ByteBuf out = channel.alloc().directBuffer(n);
      out.writeBytes(session.replyBytes(), 0, n);
      channel.writeAndFlush(out, channel.voidPromise());
    }
    session.repliesSent();
  }

  /**
   * HTTP/2: one more request on this connection, with its own meter and timeout (the first, or one
   * beside those open when the options multiplex several).
   */
  private void openStream() {
    StreamMeter m =
        new StreamMeter(
            batch.plan.expectedFrames(),
            options.recvBufferBytes(),
            batch.accepted,
            batch.plan.askedContentType());
    // one stream at a time keeps the keep-alive option (an h2c Upgrade's request is HTTP/1.1)
    byte[] request = session.request(batch.plan, options.multiplexed() || options.keepAlive());
    int id = session.lastStreamId();
    OpenStream open = new OpenStream(id, m);
    streams.add(open);
    long timeoutMs = Math.max(1, options.timeoutNanos() / 1_000_000);
    open.timer =
        vertx.setTimer(
            timeoutMs,
            t -> {
              if (find(id) == open && !m.finished()) {
                m.fail(StreamError.TIMEOUT, "no complete response within " + timeoutMs + " ms");
                finishStream(id);
              }
            });
    connection
        .socket()
        .write(Buffer.buffer(request))
        .onComplete(
            ar -> {
              if (ar.succeeded()) m.requestWritten(System.nanoTime());
            });
    if (options.slowReaderPauseNanos() > 0 && streams.size() == 1) connection.channel().read();
  }

  /**
   * One socket read on an HTTP/2 connection: each open stream's meter reads what the read brought
   * for it (a stream it brought nothing for has no read); a stream alone on the connection is given
   * the read's wire bytes, one beside others its DATA. Between streams (or before the first: a
   * server's SETTINGS right after the TLS handshake) the connection's frames still count, and the
   * acks and window updates the session owes go out at once.
   */
  void read(long now, byte[] scratch, int n, boolean full) {
    try {
      session.read(scratch, 0, n);
    } catch (HttpParseException e) {
      for (OpenStream open : streams)
        open.meter.fail(StreamError.PROTOCOL, "HTTP/2: " + e.getMessage());
      if (streams.isEmpty() && connection.socket() != null) connection.socket().close();
      int count = snapshotIds();
      for (int k = 0; k < count; k++) finishStream(openIds[k]);
      return;
    }
    writeReplies();
    boolean alone = streams.size() == 1;
    int count = snapshotIds();
    for (int k = 0; k < count; k++) {
      int id = openIds[k];
      OpenStream open = find(id);
      H2StreamOut o = session.out(id);
      if (open == null || o == null) continue;
      StreamMeter m = open.meter;
      if (o.h1Len > 0) {
        int before = m.framesSoFar();
        m.onRead(now, o.h1, 0, o.h1Len, full, alone ? n : o.consumed > 0 ? o.consumed : o.h1Len);
        connection.read(m, now, before);
      }
      if (o.failure != null || session.connectionFailure() != null) {
        m.fail(
            o.reset ? StreamError.RESET : StreamError.PROTOCOL,
            o.failure != null ? o.failure : session.connectionFailure());
      }
      if (m.finished()) finishStream(id);
    }
    if (!streams.isEmpty()) connection.readAgainAfterThePause();
  }

  /**
   * An HTTP/2 stream ended: recorded; the next request takes its place on the connection, or the
   * connection closes once no stream is left (and the next request, if any, opens another). One
   * stream at a time, the connection is kept only as HTTP/1.1 keeps one: the response complete,
   * keep-alive on, the server not closing.
   */
  private void finishStream(int id) {
    OpenStream open = find(id);
    if (open == null) return;
    streams.remove(open);
    vertx.cancelTimer(open.timer);
    StreamMeter m = open.meter;
    StreamResult r = m.result();
    if (session.spoken() != HttpVersion.HTTP_1_1) r = r.withH2(session.stats(id));
    session.forget(id);
    batch.record(r);
    if (!options.multiplexed() && (!r.ok() || !r.complete() || m.serverWillClose()))
      connection.notReusable();
    boolean again = connection.socket() != null && (options.multiplexed() || connection.reusable());
    if (again && batch.takeRequest()) {
      openStream();
    } else if (streams.isEmpty()) {
      NetSocket s = connection.dropSocket();
      if (s != null) s.close();
      if (again) batch.connectionDone();
      else connection.next();
    }
  }

  /**
   * The connection closed under its streams: each is ended as the meter judges (truncated, unless
   * complete); the rest of the batch goes on anew.
   */
  void connectionClosed() {
    connection.dropSocket();
    List<OpenStream> closed = List.copyOf(streams);
    streams.clear();
    for (OpenStream open : closed) {
      vertx.cancelTimer(open.timer);
      open.meter.connectionClosed();
      StreamResult r = open.meter.result();
      batch.record(session.spoken() != HttpVersion.HTTP_1_1 ? r.withH2(session.stats(open.id)) : r);
    }
    connection.next();
  }

  /** The open stream of this id, by a scan of the few open (null once finished). */
  private OpenStream find(int id) {
    for (int k = 0; k < streams.size(); k++) {
      OpenStream open = streams.get(k);
      if (open.id == id) return open;
    }
    return null;
  }

  /** The open streams' ids into {@link #openIds}; how many. */
  private int snapshotIds() {
    int count = streams.size();
    if (openIds.length < count) openIds = new int[Math.max(count, openIds.length * 2)];
    for (int k = 0; k < count; k++) openIds[k] = streams.get(k).id;
    return count;
  }

  /** An HTTP/2 stream being measured: its id, its meter and its timeout timer. */
  private static final class OpenStream {
    final int id;
    final StreamMeter meter;
    long timer = -1;

    OpenStream(int id, StreamMeter meter) {
      this.id = id;
      this.meter = meter;
    }
  }
}
