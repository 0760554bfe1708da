package flushlab.relay;

import flushlab.core.IdleWatch;
import flushlab.core.LabVertx;
import flushlab.core.Units;
import flushlab.http.H2;
import flushlab.http.H2FloodException;
import flushlab.http.H2FrameParser;
import flushlab.http.H2Guard;
import flushlab.http.Headers;
import flushlab.http.Hpack;
import flushlab.http.HttpParseException;
import flushlab.http.HttpResponseParser;
import io.netty.channel.Channel;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.concurrent.ScheduledFuture;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
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
final class H2Edge implements H2FrameParser.Listener {
  static final int MAX_STREAMS = 128;
  static final int PAUSE_BYTES = 1 << 20;
  static final int RESUME_BYTES = 256 << 10;

  /**
   * Response bytes all of one connection's streams may hold for windows the client has not opened;
   * its streams take no more above it.
   */
  static final int CONNECTION_PAUSE_BYTES = 8 << 20;

  static final int CONNECTION_RESUME_BYTES = 4 << 20;

  /**
   * The most of a request body without Content-Length read before it goes upstream (the emitter's
   * own body cap).
   */
  static final int MAX_BUFFERED_BODY = 1 << 20;

  /**
   * A request (its header block, its body) must be complete within this of its start, as the
   * emitter's HTTP/1.1 head must.
   */
  private final long requestTimeoutNanos;

  /**
   * Request and response headers HTTP/2 does not carry (RFC 9113 8.2.2), and HTTP/1.1 framing this
   * edge sets itself.
   */
  private static final Set<String> CONNECTION_SPECIFIC =
      Set.of(
          "connection",
          "keep-alive",
          "proxy-connection",
          "transfer-encoding",
          "upgrade",
          "te",
          "http2-settings");

  private final NetSocket client;
  private final SocketClient clientSocket;
  private final Function<ClientSide, RelayConnection> streams;
  private final RelayLog log;
  private final String name;
  private final H2Guard guard = new H2Guard();
  private final H2FrameParser parser = new H2FrameParser(this, H2.DEFAULT_MAX_FRAME, guard);

  /** Response bytes held over all streams, and how many streams take no more now. */
  private long heldBytes;

  private int pausedLegs;

  /**
   * Since when a header block has waited for its CONTINUATIONs (0: none), and the request timeout's
   * one timer.
   */
  private long blockOpenSince;

  private ScheduledFuture<?> requestTimer;
  private final Hpack hpack = new Hpack();
  private final Map<Integer, Leg> legs = new HashMap<>();
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
    this.requestTimeoutNanos = requestTimeoutNanos;
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
      if (!parser.headerBlockOpen()) blockOpenSince = 0;
      else if (blockOpenSince == 0) blockOpenSince = System.nanoTime();
      scheduleRequestTimeout();
    }
    flush();
  }

  /** When the oldest request not complete yet began; Long.MAX_VALUE when none. */
  private long oldestIncomplete() {
    long oldest = blockOpenSince == 0 ? Long.MAX_VALUE : blockOpenSince;
    for (Leg l : legs.values()) if (!l.requestEnded) oldest = Math.min(oldest, l.openedNanos);
    return oldest;
  }

  /**
   * One timer per connection at its oldest unfinished request's deadline: that request's stream is
   * reset, an open header block ends the connection.
   */
  private void scheduleRequestTimeout() {
    long oldest = oldestIncomplete();
    if (closed || requestTimer != null || oldest == Long.MAX_VALUE) return;
    long delay = Math.max(0, oldest + requestTimeoutNanos - System.nanoTime()) + 1;
    requestTimer =
        LabVertx.channel(client)
            .eventLoop()
            .schedule(
                () -> {
                  requestTimer = null;
                  if (closed) return;
                  long deadline = System.nanoTime() - requestTimeoutNanos;
                  if (blockOpenSince != 0 && blockOpenSince - deadline <= 0) {
                    goAway(
                        H2.PROTOCOL_ERROR,
                        "a header block was not complete within "
                            + Units.formatDuration(requestTimeoutNanos));
                    return;
                  }
                  for (Leg l : legs.values().toArray(Leg[]::new)) {
                    if (!l.requestEnded && l.openedNanos - deadline <= 0) {
                      log.log(
                          name
                              + ": stream "
                              + l.id
                              + ": the request was not complete within "
                              + Units.formatDuration(requestTimeoutNanos)
                              + "; RST_STREAM");
                      l.reset(H2.CANCEL);
                    }
                  }
                  flush();
                  scheduleRequestTimeout();
                },
                delay,
                TimeUnit.NANOSECONDS);
  }

  /**
   * Frames wait here until the event that made them is handled, then leave in one write (as an edge
   * writes what one read produced).
   */
  private void write(byte[] frame) {
    if (out == null) out = Buffer.buffer(Math.max(256, frame.length));
    out.appendBytes(frame);
  }

  private void flush() {
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
  void clientClosed() {
    closedSocket = true;
    closeAll();
  }

  private void closeAll() {
    closed = true;
    if (requestTimer != null) requestTimer.cancel(false);
    idleWatch.cancel();
    for (Leg l : legs.values()) l.abandon();
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
    Leg known = legs.get(streamId);
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
    Leg leg = new Leg(streamId, requestHead(h), !endStream && h.get("content-length") == null);
    legs.put(streamId, leg);
    if (endStream) leg.endRequest();
    leg.connect();
  }

  /**
   * The HTTP/1.1 request an HTTP/2 one stands for: the pseudo-headers as its request line and Host,
   * its fields as they came; without the blank line that ends it (a body of unknown length adds its
   * Content-Length first).
   */
  private static String requestHead(Http2Headers h) {
    StringBuilder sb = new StringBuilder(256);
    sb.append(h.method() == null ? "GET" : h.method())
        .append(' ')
        .append(h.path() == null ? "/" : h.path())
        .append(" HTTP/1.1\r\n");
    if (h.authority() != null && h.get("host") == null)
      sb.append("Host: ").append(h.authority()).append("\r\n");
    h.forEach(
        e -> {
          String n = e.getKey().toString();
          if (n.startsWith(":") || CONNECTION_SPECIFIC.contains(n)) return;
          sb.append(n).append(": ").append(e.getValue()).append("\r\n");
        });
    return sb.toString();
  }

  @Override
  public void onData(int streamId, byte[] b, int off, int len, boolean endStream) {
    Leg leg = legs.get(streamId);
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
        for (Leg l : legs.values())
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
    Leg l = legs.get(streamId);
    if (l != null) {
      l.window += increment;
      l.pump();
    }
  }

  /**
   * Streams that stopped taking bytes only for the connection's total take them again once it has
   * drained.
   */
  private void resumeQuietLegs() {
    for (Leg l : legs.values().toArray(Leg[]::new)) {
      if (l.paused && l.pendingBytes < RESUME_BYTES) l.takeMore(true);
    }
  }

  private void pumpAll() {
    for (Leg l : legs.values().toArray(Leg[]::new)) {
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
    Leg l = legs.remove(streamId);
    if (l != null) l.abandon();
  }

  @Override
  public void onGoAway(int lastStreamId, long code) {
    closeAll();
    closedSocket = true;
    client.close();
  }

  /** One stream: its HTTP/1.1 exchange, and the response bytes its windows have not let out yet. */
  private final class Leg implements HttpResponseParser.Listener, ClientSide {
    final int id;

    /**
     * A body without Content-Length is read whole before it goes upstream, with its length (as
     * nginx's proxy_request_buffering does).
     */
    final boolean bufferBody;

    final String head;
    final ArrayDeque<byte[]> pending = new ArrayDeque<>();
    final Buffer early = Buffer.buffer();
    final HttpResponseParser response = new HttpResponseParser(this);
    final long openedNanos = System.nanoTime();
    long window = initialWindow;
    int pendingBytes;
    int headOffset;
    boolean requestEnded;
    boolean responseEnded;
    boolean headSent;
    boolean ended;

    /**
     * The stream holds over {@link #PAUSE_BYTES} (or the connection over its own): its exchange is
     * told it takes no more.
     */
    boolean paused;

    /**
     * The exchange stopped taking request bytes: the stream's window is not given back meanwhile
     * ({@code ungranted}).
     */
    boolean requestPaused;

    int ungranted;
    RelayConnection exchange;
    Runnable onWritable;

    /**
     * The exchange's end, once: it runs after the event that ended the stream, never inside the
     * exchange's own call.
     */
    boolean exchangeGone;

    Leg(int id, String head, boolean bufferBody) {
      this.id = id;
      this.head = head;
      this.bufferBody = bufferBody;
      if (!bufferBody) early.appendString(head + "\r\n", "ISO-8859-1");
    }

    /** Starts the stream's exchange, with what of the request has come. */
    void connect() {
      exchange = streams.apply(this);
      Buffer first = bufferBody ? pendingWhole() : early;
      if (first != null && first.length() > 0 && !ended) exchange.fromClient(first);
    }

    private Buffer whole;

    private Buffer pendingWhole() {
      Buffer w = whole;
      whole = null;
      return w;
    }

    void body(byte[] b, int off, int len) {
      if (len == 0 || requestEnded) return;
      if (bufferBody) {
        if (early.length() + len > MAX_BUFFERED_BODY) {
          log.log(
              name
                  + ": stream "
                  + id
                  + ": a request body without Content-Length over "
                  + MAX_BUFFERED_BODY
                  + " bytes; refused");
          reset(H2.REFUSED_STREAM);
          return;
        }
        early.appendBytes(b, off, len);
      } else if (exchange != null) {
        exchange.fromClient(Buffer.buffer(len).appendBytes(b, off, len));
      } else {
        early.appendBytes(b, off, len);
      }
    }

    void endRequest() {
      if (requestEnded) return;
      requestEnded = true;
      if (!bufferBody) return;
      Buffer w =
          Buffer.buffer(head.length() + 32 + early.length())
              .appendString(head, "ISO-8859-1")
              .appendString("Content-Length: " + early.length() + "\r\n\r\n")
              .appendBuffer(early);
      if (exchange != null) {
        exchange.fromClient(w);
      } else {
        whole = w;
      }
    }

    // ---- the stream as its exchange's client ----

    @Override
    public Channel channel() {
      return clientSocket.channel();
    }

    @Override
    public String describe() {
      return client.remoteAddress() + " (HTTP/2 stream " + id + ")";
    }

    /** The exchange's response bytes (HTTP/1.1), turned into HEADERS and DATA. */
    @Override
    public void write(Buffer b) {
      if (ended) return;
      int n = b.length();
      moved += n;
      if (scratch.length < n) scratch = new byte[Math.max(n, scratch.length * 2)];
      b.getBytes(0, n, scratch, 0);
      try {
        response.feed(scratch, 0, n);
      } catch (HttpParseException e) {
        log.log(
            name
                + ": stream "
                + id
                + ": the response is not HTTP/1.1 this edge can carry ("
                + e.getMessage()
                + ")");
        reset(H2.INTERNAL_ERROR);
      }
      flush();
    }

    @Override
    public boolean writable() {
      return !paused && !ended;
    }

    @Override
    public void onWritable(Runnable r) {
      this.onWritable = r;
    }

    @Override
    public void end() {
      exchangeClosed();
    }

    @Override
    public void close() {
      exchangeClosed();
    }

    @Override
    public void reset() {
      exchangeClosed();
    }

    @Override
    public boolean cork(boolean on) {
      return clientSocket.cork(on);
    }

    @Override
    public FlowControl.Valve requestValve(BooleanSupplier mayResume) {
      return new FlowControl.Valve() {
        @Override
        public void pause() {
          requestPaused = true;
        }

        @Override
        public void resume() {
          requestPaused = false;
          if (ungranted > 0 && !ended && mayResume.getAsBoolean()) {
            H2Edge.this.write(H2.windowUpdate(id, ungranted));
            flush();
          }
          ungranted = 0;
        }
      };
    }

    // ---- the response ----

    @Override
    public void onHead(int status, String reason, Headers headers) {
      if (status < 200) return; // interim answers are not relayed
      Http2Headers h = new DefaultHttp2Headers().status(Integer.toString(status));
      for (int i = 0; i < headers.size(); i++) {
        String n = headers.name(i).toLowerCase(Locale.ROOT);
        if (!CONNECTION_SPECIFIC.contains(n)) h.add(n, headers.value(i));
      }
      byte[] block;
      try {
        block = hpack.encode(id, h);
      } catch (Http2Exception e) {
        reset(H2.INTERNAL_ERROR);
        return;
      }
      if (block.length > H2.DEFAULT_MAX_FRAME) {
        log.log(
            name + ": stream " + id + ": response headers over " + H2.DEFAULT_MAX_FRAME + " bytes");
        reset(H2.INTERNAL_ERROR);
        return;
      }
      H2Edge.this.write(H2.frame(H2.HEADERS, H2.FLAG_END_HEADERS, id, block));
      headSent = true;
    }

    @Override
    public void onBody(byte[] bytes, int off, int len) {
      if (len == 0) return;
      byte[] copy = new byte[len];
      System.arraycopy(bytes, off, copy, 0, len);
      pending.add(copy);
      pendingBytes += len;
      heldBytes += len;
      pump();
      if ((pendingBytes > PAUSE_BYTES || heldBytes > CONNECTION_PAUSE_BYTES) && !paused && !ended)
        takeMore(false);
    }

    /**
     * Whether the exchange may send more: off past the pause mark, on again below the resume mark
     * (its writer then resumes upstream).
     */
    void takeMore(boolean on) {
      if (paused == !on) return;
      paused = !on;
      pausedLegs += on ? -1 : 1;
      if (on && onWritable != null) onWritable.run();
    }

    @Override
    public void onComplete() {
      responseEnded = true;
      pump();
    }

    /**
     * Sends what the stream's window and the connection's allow, in DATA frames of at most 16 KiB;
     * END_STREAM after the last byte.
     */
    void pump() {
      if (ended) return;
      while (!pending.isEmpty()) {
        long room = Math.min(window, connectionWindow);
        if (room <= 0) break;
        byte[] head = pending.peek();
        int n = (int) Math.min(Math.min(room, H2.DEFAULT_MAX_FRAME), head.length - headOffset);
        byte[] f = new byte[H2.FRAME_HEADER_BYTES];
        H2.header(f, 0, n, H2.DATA, 0, id);
        H2Edge.this.write(f);
        out.appendBytes(head, headOffset, n);
        window -= n;
        connectionWindow -= n;
        pendingBytes -= n;
        heldBytes -= n;
        headOffset += n;
        if (headOffset == head.length) {
          pending.poll();
          headOffset = 0;
        }
      }
      if (paused && pendingBytes < RESUME_BYTES && heldBytes < CONNECTION_RESUME_BYTES)
        takeMore(true);
      if (pausedLegs > 0 && heldBytes < CONNECTION_RESUME_BYTES) resumeQuietLegs();
      if (pending.isEmpty() && responseEnded && headSent) {
        H2Edge.this.write(H2.frame(H2.DATA, H2.FLAG_END_STREAM, id, new byte[0]));
        finish();
      }
    }

    /**
     * The exchange closed its side (the end of a close-delimited response, a failure, a reset
     * shaper).
     */
    private void exchangeClosed() {
      if (ended) return;
      if (response.connectionClosed() && headSent) {
        responseEnded = true; // a close-delimited body ends with its connection
        pump();
      } else {
        log.log(name + ": stream " + id + ": the response broke before its end; RST_STREAM");
        reset(H2.INTERNAL_ERROR);
      }
      flush();
    }

    /**
     * Gives back what this stream held, when it ends: its bytes leave the connection's count, its
     * stop on taking goes.
     */
    private void release() {
      heldBytes -= pendingBytes;
      pendingBytes = 0;
      pending.clear();
      if (paused) pausedLegs--;
      paused = false;
    }

    void reset(int code) {
      if (ended) return;
      H2Edge.this.write(H2.rstStream(id, code));
      finish();
    }

    private void finish() {
      ended = true;
      release();
      legs.remove(id);
      endExchange();
    }

    /**
     * The client reset the stream, or its connection went: the exchange goes, nothing more is sent.
     */
    void abandon() {
      ended = true;
      release();
      endExchange();
    }

    /**
     * Ends the exchange (its shapers and upstream let go) after the event at hand: a stream often
     * ends inside its exchange's own call (the last byte written), which must finish first.
     */
    private void endExchange() {
      if (exchangeGone || exchange == null) return;
      exchangeGone = true;
      RelayConnection x = exchange;
      channel().eventLoop().execute(x::clientGone);
    }
  }
}
