package flushlab.relay;

import flushlab.core.IdleWatch;
import flushlab.core.LabVertx;
import flushlab.core.Units;
import flushlab.http.H2;
import flushlab.http.H2FloodException;
import flushlab.http.H2FrameParser;
import flushlab.http.H2Guard;
import flushlab.http.Hpack;
import flushlab.http.HttpParseException;
import io.netty.channel.Channel;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.SocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The relay's HTTP/2 client side, as an edge terminates h2 in front of HTTP/1.1 servers: each
 * stream of one client connection becomes one HTTP/1.1 exchange ({@link RelayConnection}) of its
 * own, with that stream's shaper chain and upstream connection exactly as for an HTTP/1.1 client
 * (so every shaper composes unchanged, per stream), run directly on this connection's loop with the
 * stream as its client ({@link ClientSide}): no connection in between, so a reset stream lets go of
 * everything it held at once. The shaped response is turned back into HEADERS and DATA as its bytes
 * arrive, within the client's stream and connection windows: what a window does not let out waits
 * here, and past {@link #PAUSE_BYTES} the stream says it takes no more (back-pressure reaches the
 * shapers and upstream, as it does from a full socket). A request body is granted window as its
 * exchange takes it. A response that breaks before its end resets its stream (RST_STREAM), which is
 * how HTTP/2 tells a client one response failed. Socket shapers act on the client's one TCP
 * connection, as in a proxy that speaks h2 (cork, nagle). Confined to the client connection's event
 * loop.
 */
final class H2Edge implements H2FrameParser.Listener, H2RequestDeadline.Expiry {
  static final int MAX_STREAMS = 128;

  private final NetSocket client;
  private final SocketClient clientSocket;
  private final Function<ClientSide, RelayConnection> streams;
  private final RelayLog log;
  private final String name;
  private final H2Guard guard = new H2Guard();
  private final H2FrameParser parser = new H2FrameParser(this, H2.DEFAULT_MAX_FRAME, guard);

  private final H2ConnectionHold held = new H2ConnectionHold();

  private final H2RequestDeadline deadline;
  private final Hpack hpack = new Hpack();
  private final Map<Integer, H2EdgeStream> legs = new HashMap<>();
  private byte[] scratch = new byte[16 * 1024];
  private long connectionWindow = H2.DEFAULT_WINDOW;
  private int initialWindow = H2.DEFAULT_WINDOW;
  private int lastStream;
  private int prefaceSeen;

  /** Bytes from the client, to it, and from the streams' exchanges: the idle watch's progress. */
  private long moved;

  private final IdleWatch idleWatch;
  private boolean closed;
  private boolean closedSocket;
  private Buffer out;

  H2Edge(
      NetSocket client,
      Function<ClientSide, RelayConnection> streams,
      RelayLog log,
      String name,
      Buffer first,
      long idleTimeoutNanos,
      long requestTimeoutNanos) {
    this.client = client;
    this.clientSocket = new SocketClient(client);
    this.streams = streams;
    this.log = log;
    this.name = name;
    write(H2.settings(H2.SETTINGS_MAX_CONCURRENT_STREAMS, MAX_STREAMS, H2.SETTINGS_ENABLE_PUSH, 0));
    // the relay's idle timeout, as for an HTTP/1.1 client: nothing moved either way, on any stream,
    // for that long
    idleWatch =
        new IdleWatch(
            LabVertx.channel(client).eventLoop(),
            idleTimeoutNanos,
            () -> moved,
            () -> {
              if (closed) return;
              log.log(
                  name
                      + ": nothing moved for "
                      + Units.formatDuration(idleTimeoutNanos)
                      + "; closing");
              goAway(H2.NO_ERROR, "idle");
            });
    // a request (its header block, its body) must be complete within the timeout of its start
    deadline =
        new H2RequestDeadline(
            LabVertx.channel(client).eventLoop(), requestTimeoutNanos, legs.values(), this);
    client.handler(this::fromClient);
    fromClient(first);
  }

  private void fromClient(Buffer b) {
    if (closed) return;
    int n = b.length();
    moved += n;
    if (scratch.length < n) scratch = new byte[Math.max(n, scratch.length * 2)];
    b.getBytes(0, n, scratch, 0);
    int off = 0;
    // the client's preface comes first, possibly over several reads; frames follow it
    while (prefaceSeen < H2.PREFACE.length && off < n) {
      if (scratch[off++] != H2.PREFACE[prefaceSeen++]) {
        goAway(H2.PROTOCOL_ERROR, "the client's first bytes are not HTTP/2's preface");
        return;
      }
    }
    if (off < n) {
      try {
        parser.feed(scratch, off, n - off);
      } catch (HttpParseException e) {
        goAway(H2.PROTOCOL_ERROR, "the client's HTTP/2 is not valid: " + e.getMessage());
      } catch (H2FloodException e) {
        goAway(H2.ENHANCE_YOUR_CALM, e.getMessage());
      }
      deadline.headerBlockOpen(parser.headerBlockOpen());
    }
    flush();
  }

  /**
   * Frames wait here until the event that made them is handled, then leave in one write (as an edge
   * writes what one read produced).
   */
  void write(byte[] frame) {
    if (out == null) out = Buffer.buffer(Math.max(256, frame.length));
    out.appendBytes(frame);
  }

  @Override
  public boolean closed() {
    return closed;
  }

  @Override
  public void headerBlockLate(String why) {
    goAway(H2.PROTOCOL_ERROR, why);
  }

  @Override
  public void requestLate(H2EdgeStream stream, String why) {
    log.log(name + ": stream " + stream.id + ": " + why + "; RST_STREAM");
    stream.reset(H2.CANCEL);
  }

  @Override
  public void flush() {
    if (out == null || closedSocket) return;
    Buffer b = out;
    out = null;
    moved += b.length();
    client.write(b);
  }

  private void goAway(int code, String why) {
    if (closed) return;
    log.log(name + ": " + why + "; GOAWAY " + H2.errorName(code));
    write(H2.goAway(lastStream, code));
    flush();
    closeAll();
    closedSocket = true;
    // the GOAWAY goes with what is queued, then a FIN; a client whose queue is backed up already
    // (one that floods PINGs and reads nothing) would take none of it: cut off at once
    Channel ch = LabVertx.channel(client);
    if (LabVertx.backedUp(ch)) LabVertx.closeNow(ch);
    else LabVertx.closeAfterFlush(ch, 1_000);
  }

  /** The client's connection closed: every stream's exchange goes with it. */
  // ---- what a stream asks of its connection ----

  int initialWindow() {
    return initialWindow;
  }

  /** A new stream's exchange: the relay's shapers and upstream for it. */
  RelayConnection exchangeFor(ClientSide stream) {
    return streams.apply(stream);
  }

  String name() {
    return name;
  }

  void log(String line) {
    log.log(line);
  }

  Channel clientChannel() {
    return clientSocket.channel();
  }

  SocketAddress remoteAddress() {
    return client.remoteAddress();
  }

  boolean cork(boolean on) {
    return clientSocket.cork(on);
  }

  Hpack hpack() {
    return hpack;
  }

  /**
   * {@code n} bytes of a stream's response came from its exchange: counted as moved, with a scratch
   * array that holds them.
   */
  byte[] moved(int n) {
    moved += n;
    if (scratch.length < n) scratch = new byte[Math.max(n, scratch.length * 2)];
    return scratch;
  }

  /** What the connection's streams hold for windows the client has not opened. */
  H2ConnectionHold held() {
    return held;
  }

  long connectionWindow() {
    return connectionWindow;
  }

  /**
   * A DATA frame of {@code n} bytes of {@code b} on {@code streamId}, into the write at hand: the
   * connection's window spent, the bytes no longer held.
   */
  void data(int streamId, byte[] b, int off, int n) {
    byte[] f = new byte[H2.FRAME_HEADER_BYTES];
    H2.header(f, 0, n, H2.DATA, 0, streamId);
    write(f);
    out.appendBytes(b, off, n);
    connectionWindow -= n;
    held.add(-n);
  }

  /** A stream ended: it is no longer one of the connection's. */
  void forget(int streamId) {
    legs.remove(streamId);
  }

  void clientClosed() {
    closedSocket = true;
    closeAll();
  }

  private void closeAll() {
    closed = true;
    deadline.cancel();
    idleWatch.cancel();
    for (H2EdgeStream l : legs.values()) l.abandon();
    legs.clear();
  }

  @Override
  public void onHeaders(int streamId, byte[] block, int len, boolean endStream) {
    Http2Headers h;
    try {
      h = hpack.decode(streamId, block, len);
    } catch (Http2Exception e) {
      goAway(H2.PROTOCOL_ERROR, "the request's HTTP/2 headers do not decode: " + e.getMessage());
      return;
    }
    H2EdgeStream known = legs.get(streamId);
    if (known != null) {
      if (endStream) known.endRequest(); // trailers end the request; their fields are not forwarded
      return;
    }
    if (streamId <= lastStream || streamId % 2 == 0) return;
    lastStream = streamId;
    if (legs.size() >= MAX_STREAMS) {
      write(H2.rstStream(streamId, H2.REFUSED_STREAM));
      return;
    }
    H2EdgeStream leg = H2EdgeStream.of(this, streamId, h, endStream);
    legs.put(streamId, leg);
    if (endStream) leg.endRequest();
    leg.connect();
  }

  @Override
  public void onData(int streamId, byte[] b, int off, int len, boolean endStream) {
    H2EdgeStream leg = legs.get(streamId);
    if (len > 0) {
      // the connection's window is given back as bodies arrive (one stream's pause must not stop
      // the others); a
      // stream's own as its exchange takes them: an exchange that stops reading (upstream slow)
      // stops its client
      write(H2.windowUpdate(0, len));
      if (!endStream) {
        if (leg != null && leg.requestPaused) leg.ungranted += len;
        else write(H2.windowUpdate(streamId, len));
      }
    }
    if (leg == null) return;
    leg.body(b, off, len);
    if (endStream) leg.endRequest();
  }

  @Override
  public void onSettings(boolean ack, int[] idValue) {
    if (ack) return;
    for (int i = 0; i < idValue.length; i += 2) {
      if (idValue[i] == H2.SETTINGS_INITIAL_WINDOW_SIZE) {
        long delta = (idValue[i + 1] & 0xffffffffL) - initialWindow;
        initialWindow = idValue[i + 1];
        for (H2EdgeStream l : legs.values())
          l.window += delta; // open streams move by the difference (RFC 9113 6.9.2)
      }
    }
    write(H2.settingsAck());
    controlAnswered();
    pumpAll();
  }

  /**
   * A PING or SETTINGS answered: a client that sends them and does not read the answers is cut off
   * ({@link H2Guard}).
   */
  private void controlAnswered() {
    String flood = guard.controlAnswered(LabVertx.backedUp(LabVertx.channel(client)));
    if (flood != null) throw new H2FloodException(flood);
  }

  @Override
  public void onWindowUpdate(int streamId, int increment) {
    if (streamId == 0) {
      connectionWindow += increment;
      pumpAll();
      return;
    }
    H2EdgeStream l = legs.get(streamId);
    if (l != null) {
      l.window += increment;
      l.pump();
    }
  }

  /**
   * Streams that stopped taking bytes only for the connection's total take them again once it has
   * drained.
   */
  void resumeQuietLegs() {
    for (H2EdgeStream l : legs.values().toArray(H2EdgeStream[]::new)) {
      if (l.paused && l.pendingBytes < H2EdgeLimits.RESUME_BYTES) l.takeMore(true);
    }
  }

  private void pumpAll() {
    for (H2EdgeStream l : legs.values().toArray(H2EdgeStream[]::new)) {
      if (connectionWindow <= 0) return;
      l.pump();
    }
  }

  @Override
  public void onPing(boolean ack, byte[] opaque) {
    if (ack) return;
    write(H2.pingAck(opaque));
    controlAnswered();
  }

  @Override
  public void onRstStream(int streamId, long code) {
    String flood = guard.streamReset(System.nanoTime());
    if (flood != null) throw new H2FloodException(flood);
    H2EdgeStream l = legs.remove(streamId);
    if (l != null) l.abandon();
  }

  @Override
  public void onGoAway(int lastStreamId, long code) {
    closeAll();
    closedSocket = true;
    client.close();
  }
}
