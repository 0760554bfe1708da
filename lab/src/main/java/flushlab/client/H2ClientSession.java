package flushlab.client;

import flushlab.http.H2;
import flushlab.http.H2FrameParser;
import flushlab.http.Hpack;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The client's side of one HTTP/2 connection (h2, h2c by prior knowledge, or h2c by Upgrade), with
 * one or several request streams at once: it writes the preface, SETTINGS and each request (HEADERS
 * with HPACK, then DATA for a body), and turns what each socket read brings for each stream into
 * the HTTP/1.1 bytes its stream meter reads (the head, a chunk per DATA piece, the last chunk at
 * END_STREAM). So frames per read, releases, content decoding and every error keep one meaning
 * across HTTP versions. Flow control: the client gives back what it read, at once, with
 * WINDOW_UPDATEs for each stream and for the connection, written right after the read; a client
 * that reads slowly therefore grants slowly, as a real one does. Confined to the connection's event
 * loop.
 */
final class H2ClientSession implements H2FrameParser.Listener {

  private final boolean tls;
  private final int initialWindow;

  /**
   * h2c by Upgrade: the first request goes as HTTP/1.1 asking to switch; stream 1 is its answer.
   */
  private final boolean upgrade;

  private boolean awaitingSwitch;
  private final StringBuilder switchHead = new StringBuilder();

  /**
   * The server did not switch: the connection is HTTP/1.1, its bytes passed on as they came (to the
   * one stream).
   */
  private boolean http11;

  private final H2FrameParser parser = new H2FrameParser(this, H2.DEFAULT_MAX_FRAME);
  private final Hpack hpack = new Hpack();

  /**
   * Frames to write back after a read (acks, WINDOW_UPDATEs), built in place: a read allocates
   * nothing for them.
   */
  private byte[] replies = new byte[256];

  private int repliesLen;

  /**
   * The open streams, in the order opened: at most 128, looked up by a scan (no map, no iterator
   * per read).
   */
  private final ArrayList<H2StreamOut> streams = new ArrayList<>();

  private int nextStreamId = 1;

  /** The stream the last request opened (an HTTP/1.1 answer after an Upgrade not taken is its). */
  private int current;

  private boolean opened;
  private final Map<String, Long> serverSettings = new LinkedHashMap<>();
  private long serverWindowUpdates;
  private String connectionFailure;

  /**
   * @param initialWindow the stream window this client advertises (SETTINGS_INITIAL_WINDOW_SIZE)
   * @param connectionWindow the connection window it raises its own to with its first WINDOW_UPDATE
   *     (never below 65,535)
   */
  H2ClientSession(boolean tls, int initialWindow, int connectionWindow, boolean upgrade) {
    this.tls = tls;
    this.initialWindow = initialWindow;
    this.connectionWindow = connectionWindow;
    this.upgrade = upgrade;
  }

  private final int connectionWindow;

  /** DATA bytes read on the connection and not yet given back. */
  private long connectionUnacked;

  /**
   * What the connection turned out to speak: h2, h2c, or HTTP/1.1 when an Upgrade was not taken.
   */
  HttpVersion spoken() {
    return http11
        ? HttpVersion.HTTP_1_1
        : tls ? HttpVersion.H2 : upgrade ? HttpVersion.H2C_UPGRADE : HttpVersion.H2C;
  }

  /** The stream id the last {@link #request} opened. */
  int lastStreamId() {
    return current;
  }

  /**
   * The bytes that start the next request: the preface and SETTINGS first on a new connection, then
   * HEADERS (and DATA).
   */
  byte[] request(RequestPlan plan, boolean keepAlive) {
    if (http11) {
      open(); // HTTP/1.1 after an Upgrade not taken: the answer goes to this request's out
      return plan.bytes(keepAlive);
    }
    if (upgrade && !opened) return upgradeRequest(plan);
    ByteArrayOutputStream out = new ByteArrayOutputStream(512);
    if (!opened) {
      opened = true;
      H2RequestFrames.connectionStart(out, initialWindow, connectionWindow);
    }
    H2RequestFrames.request(out, open(), plan, keepAlive, tls, hpack);
    return out.toByteArray();
  }

  private int open() {
    int id = nextStreamId;
    nextStreamId += 2;
    streams.add(new H2StreamOut(id));
    current = id;
    return id;
  }

  /** The first request, as HTTP/1.1 asking to switch to h2c; its answer will be stream 1. */
  private byte[] upgradeRequest(RequestPlan plan) {
    opened = true;
    awaitingSwitch = true;
    open();
    return H2RequestFrames.upgradeRequest(plan, initialWindow);
  }

  /**
   * One socket read's bytes; afterwards each stream's {@link H2StreamOut} holds what they meant for
   * it, {@link #replyBytes} what to write back.
   */
  void read(byte[] b, int off, int len) {
    int total = 0;
    for (int i = 0; i < streams.size(); i++) {
      H2StreamOut o = streams.get(i);
      o.h1Len = 0;
      o.consumed = 0;
    }
    if (http11) {
      H2StreamOut o = find(current);
      if (o != null) o.append(b, off, len);
      return;
    }
    if (awaitingSwitch) {
      int used = switchAnswer(b, off, len);
      if (used < 0 || http11) return;
      off += used;
      len -= used;
    }
    parser.feed(b, off, len);
    // Windows are given back as browsers (Chromium) and curl (nghttp2) give them back: once half of
    // a window has been read, not per read. A WINDOW_UPDATE per small DATA frame is what servers
    // that guard against small-update floods (Traffic Server's min_avg_window_update) answer
    // with GOAWAY ENHANCE_YOUR_CALM, which no real client would meet.
    for (int i = 0; i < streams.size(); i++) {
      H2StreamOut o = streams.get(i);
      if (o.consumed == 0) continue;
      total += o.consumed;
      o.unacked += o.consumed;
      if (!o.ended && o.unacked >= initialWindow / 2) {
        windowUpdate(o.id, (int) o.unacked);
        o.windowUpdatesSent++;
        o.unacked = 0;
      }
    }
    connectionUnacked += total + unknownConsumed;
    unknownConsumed = 0;
    if (connectionUnacked > 0
        && connectionUnacked >= Math.max(H2.DEFAULT_WINDOW, connectionWindow) / 2) {
      windowUpdate(0, (int) connectionUnacked);
      connectionUnacked = 0;
    }
  }

  private H2StreamOut find(int id) {
    for (int i = 0; i < streams.size(); i++) if (streams.get(i).id == id) return streams.get(i);
    return null;
  }

  /** A WINDOW_UPDATE written in place into the replies. */
  private void windowUpdate(int streamId, int increment) {
    ensureReplies(13);
    H2.header(replies, repliesLen, 4, H2.WINDOW_UPDATE, 0, streamId);
    replies[repliesLen + 9] = (byte) ((increment >>> 24) & 0x7f);
    replies[repliesLen + 10] = (byte) (increment >>> 16);
    replies[repliesLen + 11] = (byte) (increment >>> 8);
    replies[repliesLen + 12] = (byte) increment;
    repliesLen += 13;
  }

  private void reply(byte[] frame) {
    ensureReplies(frame.length);
    System.arraycopy(frame, 0, replies, repliesLen, frame.length);
    repliesLen += frame.length;
  }

  private void ensureReplies(int n) {
    if (repliesLen + n > replies.length)
      replies = Arrays.copyOf(replies, Math.max(replies.length * 2, repliesLen + n));
  }

  /**
   * DATA of streams no longer tracked (finished, or never ours) still counts against the connection
   * window.
   */
  private int unknownConsumed;

  private int switchAnswer(byte[] b, int off, int len) {
    int before = switchHead.length();
    for (int i = off; i < off + len; i++) switchHead.append((char) (b[i] & 0xff));
    int end = switchHead.indexOf("\r\n\r\n");
    if (end < 0) {
      if (switchHead.length() > 16 * 1024)
        connectionFailure = "the answer to the h2c Upgrade request has no end to its head";
      return -1;
    }
    awaitingSwitch = false;
    if (switchHead.indexOf("HTTP/1.1 101") == 0) {
      reply(H2.PREFACE);
      reply(H2RequestFrames.settings(initialWindow));
      if (connectionWindow > H2.DEFAULT_WINDOW)
        reply(H2.windowUpdate(0, connectionWindow - H2.DEFAULT_WINDOW));
      return end + 4 - before;
    }
    http11 = true; // not switched: the answer is HTTP/1.1, head and all
    byte[] all = switchHead.toString().getBytes(StandardCharsets.ISO_8859_1);
    H2StreamOut o = find(current);
    if (o != null) o.append(all, 0, all.length);
    return 0;
  }

  /** The stream's out (null once forgotten). */
  H2StreamOut out(int id) {
    return find(id);
  }

  /** Forgets a finished stream (its late DATA still counts against the connection window). */
  void forget(int id) {
    H2StreamOut o = find(id);
    if (o != null) streams.remove(o);
  }

  String connectionFailure() {
    return connectionFailure;
  }

  /**
   * The connection failed for a reason found outside the frames (the caller's): every stream fails
   * with it.
   */
  void fail(String why) {
    if (connectionFailure == null) connectionFailure = why;
  }

  /**
   * Bytes of control frames to write after this read (SETTINGS and PING acks, WINDOW_UPDATEs), in
   * {@link #replyBytes}.
   */
  int replyLength() {
    return repliesLen;
  }

  byte[] replyBytes() {
    return replies;
  }

  /** The replies were written. */
  void repliesSent() {
    repliesLen = 0;
  }

  H2Stats stats(int id) {
    H2StreamOut o = find(id);
    return new H2Stats(
        Map.copyOf(serverSettings),
        o == null ? 0 : o.windowUpdatesSent,
        serverWindowUpdates,
        o == null ? 0 : o.dataBytes,
        initialWindow,
        Math.max(H2.DEFAULT_WINDOW, connectionWindow));
  }

  @Override
  public void onData(int id, byte[] b, int off, int len, boolean endStream) {
    H2StreamOut o = find(id);
    if (o == null) {
      unknownConsumed += len;
      return;
    }
    o.consumed += len;
    o.dataBytes += len;
    if (o.ended) return;
    if (!o.headSeen) {
      o.failure = "DATA on stream " + id + " before its HEADERS";
      return;
    }
    if (len > 0) {
      o.chunkSize(len);
      o.append(b, off, len);
      o.crlf();
    }
    if (endStream) o.end();
  }

  @Override
  public void onHeaders(int id, byte[] block, int len, boolean endStream) {
    Http2Headers headers;
    try {
      headers = hpack.decode(id, block, len);
    } catch (Http2Exception e) {
      connectionFailure = "the response's HTTP/2 headers do not decode (" + e.getMessage() + ")";
      return;
    }
    H2StreamOut o = find(id);
    if (o == null || o.ended) return;
    if (o.headSeen) { // trailers
      if (endStream) o.end();
      return;
    }
    CharSequence status = headers.status();
    if (status == null) {
      o.failure = "an HTTP/2 response without :status";
      return;
    }
    if (status.toString().startsWith("1")) return; // an informational head: the real one follows
    o.headSeen = true;
    StringBuilder s = new StringBuilder(256).append("HTTP/1.1 ").append(status).append(" h2\r\n");
    headers.forEach(
        e -> {
          String name = e.getKey().toString();
          if (name.startsWith(":")
              || name.equals("content-length")
              || name.equals("transfer-encoding")) return;
          s.append(name).append(": ").append(e.getValue()).append("\r\n");
        });
    s.append(endStream ? "Content-Length: 0\r\n\r\n" : "Transfer-Encoding: chunked\r\n\r\n");
    byte[] head = s.toString().getBytes(StandardCharsets.ISO_8859_1);
    o.append(head, 0, head.length);
    if (endStream) o.ended = true;
  }

  @Override
  public void onSettings(boolean ack, int[] idValue) {
    if (ack) return;
    for (int i = 0; i < idValue.length; i += 2)
      serverSettings.put(H2.settingName(idValue[i]), idValue[i + 1] & 0xffffffffL);
    reply(H2.settingsAck());
  }

  @Override
  public void onWindowUpdate(int id, int increment) {
    serverWindowUpdates++;
  }

  @Override
  public void onPing(boolean ack, byte[] opaque) {
    if (!ack) reply(H2.pingAck(opaque));
  }

  @Override
  public void onRstStream(int id, long code) {
    H2StreamOut o = find(id);
    if (o == null || o.ended) return;
    o.reset = true;
    o.failure = "the server reset the stream (RST_STREAM " + H2.errorName(code) + ")";
  }

  @Override
  public void onGoAway(int lastStreamId, long code) {
    for (H2StreamOut o : streams) {
      if (!o.ended && (o.id > lastStreamId || code != H2.NO_ERROR)) {
        o.failure =
            "the server closed the connection (GOAWAY "
                + H2.errorName(code)
                + ", last stream "
                + lastStreamId
                + ")";
      }
    }
  }
}
