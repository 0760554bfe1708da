package flushlab.relay;

import flushlab.http.H2;
import flushlab.http.Headers;
import flushlab.http.HttpParseException;
import flushlab.http.HttpResponseParser;
import io.netty.channel.Channel;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayDeque;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/** One stream: its HTTP/1.1 exchange, and the response bytes its windows have not let out yet. */
final class H2EdgeStream implements HttpResponseParser.Listener, ClientSide {
  private final H2Edge edge;
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
  long window;
  int pendingBytes;
  int headOffset;
  boolean requestEnded;
  boolean responseEnded;
  boolean headSent;
  boolean ended;

  /**
   * The stream holds over {@link H2Edge#PAUSE_BYTES} (or the connection over its own): its exchange
   * is told it takes no more.
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

  H2EdgeStream(H2Edge edge, int id, String head, boolean bufferBody) {
    this.edge = edge;
    this.window = edge.initialWindow();
    this.id = id;
    this.head = head;
    this.bufferBody = bufferBody;
    if (!bufferBody) early.appendString(head + "\r\n", "ISO-8859-1");
  }

  /**
   * The stream a request's HEADERS open: its HTTP/1.1 request head made from them; a body of
   * unknown length (no content-length, and more to come) read whole first.
   */
  static H2EdgeStream of(H2Edge edge, int id, Http2Headers h, boolean endStream) {
    return new H2EdgeStream(
        edge, id, requestHead(h), !endStream && h.get("content-length") == null);
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
          if (n.startsWith(":") || H2EdgeLimits.connectionSpecific(n)) return;
          sb.append(n).append(": ").append(e.getValue()).append("\r\n");
        });
    return sb.toString();
  }

  /** A line in the relay's log about this stream. */
  private void log(String what) {
    edge.log(edge.name() + ": stream " + id + ": " + what);
  }

  /** Starts the stream's exchange, with what of the request has come. */
  void connect() {
    exchange = edge.exchangeFor(this);
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
      if (early.length() + len > H2EdgeLimits.MAX_BUFFERED_BODY) {
        log(
            "a request body without Content-Length over "
                + H2EdgeLimits.MAX_BUFFERED_BODY
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
    return edge.clientChannel();
  }

  @Override
  public String describe() {
    return edge.remoteAddress() + " (HTTP/2 stream " + id + ")";
  }

  /** The exchange's response bytes (HTTP/1.1), turned into HEADERS and DATA. */
  @Override
  public void write(Buffer b) {
    if (ended) return;
    int n = b.length();
    byte[] scratch = edge.moved(n);
    b.getBytes(0, n, scratch, 0);
    try {
      response.feed(scratch, 0, n);
    } catch (HttpParseException e) {
      log("the response is not HTTP/1.1 this edge can carry (" + e.getMessage() + ")");
      reset(H2.INTERNAL_ERROR);
    }
    edge.flush();
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
    return edge.cork(on);
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
          edge.write(H2.windowUpdate(id, ungranted));
          edge.flush();
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
      if (!H2EdgeLimits.connectionSpecific(n)) h.add(n, headers.value(i));
    }
    byte[] block;
    try {
      block = edge.hpack().encode(id, h);
    } catch (Http2Exception e) {
      reset(H2.INTERNAL_ERROR);
      return;
    }
    if (block.length > H2.DEFAULT_MAX_FRAME) {
      log("response headers over " + H2.DEFAULT_MAX_FRAME + " bytes");
      reset(H2.INTERNAL_ERROR);
      return;
    }
    edge.write(H2.frame(H2.HEADERS, H2.FLAG_END_HEADERS, id, block));
    headSent = true;
  }

  @Override
  public void onBody(byte[] bytes, int off, int len) {
    if (len == 0) return;
    byte[] copy = new byte[len];
    System.arraycopy(bytes, off, copy, 0, len);
    pending.add(copy);
    pendingBytes += len;
    edge.held().add(len);
    pump();
    if ((pendingBytes > H2EdgeLimits.PAUSE_BYTES || edge.held().overPause()) && !paused && !ended)
      takeMore(false);
  }

  /**
   * Whether the exchange may send more: off past the pause mark, on again below the resume mark
   * (its writer then resumes upstream).
   */
  void takeMore(boolean on) {
    if (paused == !on) return;
    paused = !on;
    edge.held().paused(on ? -1 : 1);
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
      long room = Math.min(window, edge.connectionWindow());
      if (room <= 0) break;
      byte[] head = pending.peek();
      int n = (int) Math.min(Math.min(room, H2.DEFAULT_MAX_FRAME), head.length - headOffset);
      edge.data(id, head, headOffset, n);
      window -= n;
      pendingBytes -= n;
      headOffset += n;
      if (headOffset == head.length) {
        pending.poll();
        headOffset = 0;
      }
    }
    if (paused && pendingBytes < H2EdgeLimits.RESUME_BYTES && edge.held().belowResume())
      takeMore(true);
    if (edge.held().anyPaused() && edge.held().belowResume()) edge.resumeQuietLegs();
    if (pending.isEmpty() && responseEnded && headSent) {
      edge.write(H2.frame(H2.DATA, H2.FLAG_END_STREAM, id, new byte[0]));
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
      log("the response broke before its end; RST_STREAM");
      reset(H2.INTERNAL_ERROR);
    }
    edge.flush();
  }

  /**
   * Gives back what this stream held, when it ends: its bytes leave the connection's count, its
   * stop on taking goes.
   */
  private void release() {
    edge.held().add(-pendingBytes);
    pendingBytes = 0;
    pending.clear();
    if (paused) edge.held().paused(-1);
    paused = false;
  }

  void reset(int code) {
    if (ended) return;
    edge.write(H2.rstStream(id, code));
    finish();
  }

  private void finish() {
    ended = true;
    release();
    edge.forget(id);
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
