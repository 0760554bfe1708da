package flushlab.emitter;

import flushlab.http.H2;
import flushlab.http.H2FloodException;
import flushlab.http.H2FrameParser;
import flushlab.http.H2Guard;
import flushlab.http.Header;
import flushlab.http.Headers;
import flushlab.http.Hpack;
import flushlab.http.HttpParseException;
import flushlab.http.HttpRequestParser;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import java.io.ByteArrayOutputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The emitter's side of one HTTP/2 connection (h2 by ALPN, h2c by prior knowledge or Upgrade): up
 * to {@link #MAX_STREAMS} streams at once, as SETTINGS says (one more is refused with
 * REFUSED_STREAM). A request's HEADERS (and DATA, for a body) become the same request the HTTP/1.1
 * parser makes, so routing, the pacing audit, the frame format and the OpenAI endpoints are
 * unchanged; responses go out as HEADERS and DATA frames of at most 16 KiB. Flow control: a DATA
 * frame is written only when its stream's window and the connection's hold it; otherwise the paced
 * stream waits for the client's WINDOW_UPDATE, as it waits for a writable socket. The floods HTTP/2
 * is known for end the connection with GOAWAY ENHANCE_YOUR_CALM ({@link H2Guard}); requests not
 * complete within the request timeout are reset ({@link #expire}). Confined to the connection's
 * event loop.
 */
final class H2ServerSession implements H2FrameParser.Listener {
  /**
   * Frames written carry at most this much: the default SETTINGS_MAX_FRAME_SIZE, whatever the
   * client allows.
   */
  static final int MAX_DATA_FRAME = H2.DEFAULT_MAX_FRAME;

  /** Streams answered at once on one connection (SETTINGS_MAX_CONCURRENT_STREAMS). */
  static final int MAX_STREAMS = 128;

  interface Handler {
    void onRequest(int streamId, HttpRequestParser.Request request);

    /** The client reset this stream: stop writing it. */
    void onStreamReset(int streamId, String why);

    /** More window to send into. */
    void onWindow();

    /** The connection is broken: a reason to log, then close. */
    void onConnectionError(String why);

    void write(ByteBuf bytes);

    /**
     * Whether the connection's outbound buffer holds bytes the socket has not taken (the client is
     * not reading).
     */
    boolean backedUp();
  }

  /**
   * A stream from its HEADERS to its last DATA: the request being put together, then the window it
   * may send into.
   */
  private static final class Stream {
    Http2Headers headers;
    final ByteArrayOutputStream body = new ByteArrayOutputStream();
    long window;
    boolean dispatched;

    /** When its HEADERS arrived: the request must be complete within the request timeout of it. */
    long openedNanos;
  }

  private final Handler handler;
  private final H2Guard guard = new H2Guard();
  private final H2FrameParser parser = new H2FrameParser(this, H2.DEFAULT_MAX_FRAME, guard);

  /** Since when a header block has waited for its CONTINUATIONs (0: none open). */
  private long blockOpenSince;

  private final Hpack hpack = new Hpack();
  private final Map<Integer, Stream> streams = new HashMap<>();
  private long connectionWindow = H2.DEFAULT_WINDOW;
  private int initialWindow = H2.DEFAULT_WINDOW;
  private int lastStream;

  H2ServerSession(Handler handler) {
    this.handler = handler;
    handler.write(
        Unpooled.wrappedBuffer(
            H2.settings(
                H2.SETTINGS_MAX_CONCURRENT_STREAMS, MAX_STREAMS, H2.SETTINGS_ENABLE_PUSH, 0)));
  }

  /**
   * h2c by Upgrade: the HTTP/1.1 request that asked for it is stream 1, already complete (half
   * closed from the client); its HTTP2-Settings header's values apply as a SETTINGS frame would,
   * without an acknowledgement (RFC 7540 3.2.1).
   */
  void adoptUpgradedStream(int[] settings) {
    applySettings(settings);
    lastStream = 1;
    Stream s = new Stream();
    s.window = initialWindow;
    s.dispatched = true;
    streams.put(1, s);
  }

  /**
   * Feeds the client's bytes; false when the connection is to end (GOAWAY written, the handler told
   * why).
   */
  boolean feed(byte[] b, int off, int len) {
    try {
      parser.feed(b, off, len);
    } catch (HttpParseException e) {
      return fail(H2.PROTOCOL_ERROR, e.getMessage());
    } catch (H2FloodException e) {
      return fail(H2.ENHANCE_YOUR_CALM, e.getMessage());
    }
    if (!parser.headerBlockOpen()) blockOpenSince = 0;
    else if (blockOpenSince == 0) blockOpenSince = System.nanoTime();
    return true;
  }

  private boolean fail(int code, String why) {
    handler.write(Unpooled.wrappedBuffer(H2.goAway(lastStream, code)));
    handler.onConnectionError(why + " (GOAWAY " + H2.errorName(code) + ")");
    return false;
  }

  /**
   * Request bytes held for requests not complete yet (their bodies, an open header block): counted
   * in the emitter's budget.
   */
  long heldRequestBytes() {
    long n = parser.heldHeaderBytes();
    for (Stream s : streams.values()) if (!s.dispatched) n += s.body.size();
    return n;
  }

  /**
   * When the oldest request not complete yet began (its HEADERS, or an open header block);
   * Long.MAX_VALUE when none.
   */
  long oldestIncompleteNanos() {
    long oldest = blockOpenSince == 0 ? Long.MAX_VALUE : blockOpenSince;
    for (Stream s : streams.values()) if (!s.dispatched) oldest = Math.min(oldest, s.openedNanos);
    return oldest;
  }

  /**
   * The request timeout: every stream whose request began before {@code deadline} and is not
   * complete is reset (CANCEL) and its body dropped; a header block still open since before it ends
   * the connection (false), since nothing else may come on it until the block is done.
   */
  boolean expire(long deadline, String why) {
    if (blockOpenSince != 0 && blockOpenSince - deadline < 0)
      return fail(H2.PROTOCOL_ERROR, "a header block " + why);
    for (var it = streams.entrySet().iterator(); it.hasNext(); ) {
      var e = it.next();
      Stream s = e.getValue();
      if (!s.dispatched && s.openedNanos - deadline < 0) {
        it.remove();
        handler.write(Unpooled.wrappedBuffer(H2.rstStream(e.getKey(), H2.CANCEL)));
      }
    }
    return true;
  }

  /**
   * Whether {@code n} bytes of DATA on {@code streamId} fit its window and the connection's now.
   */
  boolean canSend(int streamId, int n) {
    Stream s = streams.get(streamId);
    return s != null && Math.min(s.window, connectionWindow) >= n;
  }

  /**
   * Writes {@code n} bytes of body as DATA frames of {@code streamId} into {@code out}, spending
   * the windows; END_STREAM on the last when {@code end}.
   */
  void data(ByteBuf out, int streamId, byte[] b, int off, int n, boolean end) {
    if (n == 0) header(out, 0, end ? H2.FLAG_END_STREAM : 0, streamId);
    for (int done = 0; done < n; ) {
      int k = Math.min(MAX_DATA_FRAME, n - done);
      boolean last = done + k == n;
      header(out, k, last && end ? H2.FLAG_END_STREAM : 0, streamId);
      out.writeBytes(b, off + done, k);
      done += k;
    }
    Stream s = streams.get(streamId);
    if (s != null) s.window -= n;
    connectionWindow -= n;
    if (end) streams.remove(streamId);
  }

  /** DATA framing bytes for a body piece of {@code n} bytes. */
  static int framing(int n) {
    return H2.FRAME_HEADER_BYTES * Math.max(1, (n + MAX_DATA_FRAME - 1) / MAX_DATA_FRAME);
  }

  private static void header(ByteBuf out, int length, int flags, int stream) {
    out.writeMedium(length);
    out.writeByte(H2.DATA);
    out.writeByte(flags);
    out.writeInt(stream);
  }

  /**
   * The response head of {@code streamId}: :status and these headers (names lower-cased,
   * connection-specific ones dropped); END_STREAM when there is no body.
   */
  ByteBuf head(int streamId, int status, List<Header> headers, boolean endStream) {
    Http2Headers h = new DefaultHttp2Headers().status(Integer.toString(status));
    for (Header e : headers) {
      String name = e.name().toLowerCase(Locale.ROOT);
      if (name.equals("connection")
          || name.equals("transfer-encoding")
          || name.equals("keep-alive")) continue;
      h.add(name, e.value());
    }
    byte[] block;
    try {
      block = hpack.encode(streamId, h);
    } catch (Http2Exception e) {
      throw new IllegalStateException("HTTP/2 response headers: " + e.getMessage(), e);
    }
    int n = block.length;
    if (n > MAX_DATA_FRAME)
      throw new IllegalStateException("HTTP/2 response headers over " + MAX_DATA_FRAME + " bytes");
    ByteBuf out = Unpooled.buffer(H2.FRAME_HEADER_BYTES + n);
    out.writeMedium(n);
    out.writeByte(H2.HEADERS);
    out.writeByte(H2.FLAG_END_HEADERS | (endStream ? H2.FLAG_END_STREAM : 0));
    out.writeInt(streamId);
    out.writeBytes(block);
    if (endStream) streams.remove(streamId);
    return out;
  }

  /**
   * A whole answer at once (errors, JSON): HEADERS, then its body as DATA (an answer this small is
   * not held by a window).
   */
  ByteBuf simple(int streamId, int status, String type, byte[] body) {
    ByteBuf head =
        head(
            streamId,
            status,
            List.of(
                new Header("content-type", type),
                new Header("content-length", Integer.toString(body.length))),
            body.length == 0);
    if (body.length == 0) return head;
    ByteBuf out = Unpooled.buffer(head.readableBytes() + body.length + framing(body.length));
    out.writeBytes(head);
    head.release();
    data(out, streamId, body, 0, body.length, true);
    return out;
  }

  @Override
  public void onHeaders(int streamId, byte[] block, int len, boolean endStream) {
    Http2Headers headers;
    try {
      headers = hpack.decode(streamId, block, len);
    } catch (Http2Exception e) {
      handler.write(Unpooled.wrappedBuffer(H2.goAway(lastStream, H2.PROTOCOL_ERROR)));
      handler.onConnectionError("the request's HTTP/2 headers do not decode: " + e.getMessage());
      return;
    }
    Stream known = streams.get(streamId);
    if (known != null || streamId <= lastStream) return; // trailers, or a stream already answered
    if (streams.size() >= MAX_STREAMS) {
      handler.write(Unpooled.wrappedBuffer(H2.rstStream(streamId, H2.REFUSED_STREAM)));
      return;
    }
    lastStream = streamId;
    Stream s = new Stream();
    s.headers = headers;
    s.window = initialWindow;
    s.openedNanos = System.nanoTime();
    streams.put(streamId, s);
    if (endStream) dispatch(streamId, s);
  }

  @Override
  public void onData(int streamId, byte[] b, int off, int len, boolean endStream) {
    if (len > 0) {
      // request bodies are read at once: their window is given back as they arrive
      handler.write(Unpooled.wrappedBuffer(H2.windowUpdate(0, len)));
      if (!endStream) handler.write(Unpooled.wrappedBuffer(H2.windowUpdate(streamId, len)));
    }
    Stream s = streams.get(streamId);
    if (s == null || s.dispatched) return;
    if (s.body.size() + len > HttpRequestParser.MAX_BODY_BYTES) {
      handler.write(Unpooled.wrappedBuffer(H2.rstStream(streamId, H2.REFUSED_STREAM)));
      streams.remove(streamId);
      return;
    }
    s.body.write(b, off, len);
    if (endStream) dispatch(streamId, s);
  }

  private void dispatch(int streamId, Stream s) {
    s.dispatched = true;
    Http2Headers h = s.headers;
    s.headers = null;
    Headers headers = new Headers();
    h.forEach(
        e -> {
          String name = e.getKey().toString();
          if (!name.startsWith(":")) headers.add(name, e.getValue().toString());
        });
    CharSequence authority = h.authority();
    if (authority != null && headers.get("host") == null) headers.add("host", authority.toString());
    String method = h.method() == null ? "GET" : h.method().toString();
    String path = h.path() == null ? "/" : h.path().toString();
    handler.onRequest(
        streamId,
        new HttpRequestParser.Request(method, path, "HTTP/2", headers, s.body.toByteArray()));
  }

  @Override
  public void onSettings(boolean ack, int[] idValue) {
    if (ack) return;
    applySettings(idValue);
    handler.write(Unpooled.wrappedBuffer(H2.settingsAck()));
    String flood = guard.controlAnswered(handler.backedUp());
    if (flood != null) throw new H2FloodException(flood);
    handler.onWindow();
  }

  private void applySettings(int[] idValue) {
    for (int i = 0; i < idValue.length; i += 2) {
      if (idValue[i] == H2.SETTINGS_INITIAL_WINDOW_SIZE) {
        long delta = (idValue[i + 1] & 0xffffffffL) - initialWindow;
        initialWindow = idValue[i + 1];
        for (Stream s : streams.values())
          s.window += delta; // RFC 9113 6.9.2: open streams move by the difference
      }
    }
  }

  @Override
  public void onWindowUpdate(int streamId, int increment) {
    if (streamId == 0) {
      connectionWindow += increment;
    } else {
      Stream s = streams.get(streamId);
      if (s != null) s.window += increment;
    }
    handler.onWindow();
  }

  @Override
  public void onPing(boolean ack, byte[] opaque) {
    if (ack) return;
    handler.write(Unpooled.wrappedBuffer(H2.pingAck(opaque)));
    String flood = guard.controlAnswered(handler.backedUp());
    if (flood != null) throw new H2FloodException(flood);
  }

  @Override
  public void onRstStream(int streamId, long code) {
    String flood = guard.streamReset(System.nanoTime());
    if (flood != null) throw new H2FloodException(flood);
    if (streams.remove(streamId) == null) return;
    handler.onStreamReset(
        streamId,
        "the client reset stream " + streamId + " (RST_STREAM " + H2.errorName(code) + ")");
  }

  @Override
  public void onGoAway(int lastStreamId, long code) {
    handler.onConnectionError("the client went away (GOAWAY " + H2.errorName(code) + ")");
  }
}
