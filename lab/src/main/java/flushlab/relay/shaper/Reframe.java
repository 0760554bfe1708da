package flushlab.relay.shaper;

import flushlab.core.Named;
import flushlab.http.Headers;
import flushlab.http.HttpParseException;
import flushlab.http.HttpResponseParser;
import io.vertx.core.buffer.Buffer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A relay that re-assembles an event stream at its blank lines, as Traefik's, Envoy's and LiteLLM's
 * SSE handling came to: a partial event waits for the rest of it, each complete event leaves as one
 * write, and (comments=drop) comment-only events such as keep-alives are dropped. An event split
 * across upstream writes therefore leaves whole, later; a stream of whole events is unchanged. A
 * chunked response is re-chunked one event per chunk; a body with a Content-Length keeps its
 * comments (dropping them would break the length announced) and its bytes as they were.
 */
public final class Reframe extends Shaper {
  public static final Param COMMENTS =
      Param.choice(
          "comments",
          Comments.KEEP,
          Comments.class,
          "keep comment lines (keep-alives) as events of their own, or drop comment-only events");
  public static final Param CAP =
      Param.size("cap", "16MiB", 1024, 1L << 30, "most bytes of one partial event held");

  /** What becomes of comment lines. */
  public enum Comments implements Named {
    KEEP,
    DROP
  }

  public static final ShaperType TYPE =
      new ShaperType(
          "reframe",
          false,
          "a relay that re-assembles SSE at blank lines: partial events wait for their end, each event leaves whole, comments "
              + "optionally dropped (Traefik, Envoy, LiteLLM)",
          List.of(COMMENTS, CAP),
          "reframe,comments=drop",
          p -> () -> new Reframe(p));

  private static final byte[] CRLF = {'\r', '\n'};
  private static final byte[] LAST_CHUNK = {'0', '\r', '\n', '\r', '\n'};

  private final boolean dropComments;
  private final long capBytes;
  private final HeadBoundary head = new HeadBoundary();
  private HttpResponseParser http;
  private boolean chunked;
  private boolean lengthKnown;
  private boolean opaque;

  /**
   * The event being assembled: its bytes so far, and whether the line being read began with ':'.
   */
  private final ByteArrayOutputStream event = new ByteArrayOutputStream();

  private int newlines;
  private boolean onlyComments = true;
  private boolean lineStart = true;
  private long eventSince;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private long readArrival;

  Reframe(Params p) {
    this.dropComments = p.choice(COMMENTS, Comments.class) == Comments.DROP;
    this.capBytes = p.get(CAP);
  }

  @Override
  public void accept(Chunk c) {
    switch (c.kind) {
      case RESPONSE_START -> {
        head.start();
        startResponse(c.headers);
        next.accept(c);
      }
      case DATA -> data(c);
      case RESPONSE_END, CLOSE, RESET -> {
        flushPartial();
        next.accept(c);
      }
      default -> next.accept(c);
    }
  }

  private void startResponse(Headers h) {
    String te = h.get("Transfer-Encoding");
    chunked = te != null && te.toLowerCase().contains("chunked");
    lengthKnown = !chunked && h.get("Content-Length") != null;
    opaque = false;
    event.reset();
    newlines = 0;
    onlyComments = true;
    lineStart = true;
    http =
        new HttpResponseParser(
            new HttpResponseParser.Listener() {
              @Override
              public void onHead(int status, String reason, Headers headers) {}

              @Override
              public void onBody(byte[] bytes, int off, int len) {
                body(bytes, off, len);
              }

              @Override
              public void onComplete() {
                flushPartial();
                if (chunked) out.writeBytes(LAST_CHUNK);
              }
            });
  }

  private void data(Chunk c) {
    if (http == null || opaque) {
      next.accept(c);
      return;
    }
    int h = head.headBytes(c);
    if (h > 0) next.accept(h == c.length() ? c : c.withBytes(c.bytes.slice(0, h).copy()));
    readArrival = c.arrivalNanos;
    byte[] b = c.bytes.getBytes();
    try {
      http.feed(b, 0, b.length);
    } catch (HttpParseException e) {
      opaque = true; // not a response this relay can re-frame: what follows passes as it comes
      if (h < c.length()) next.accept(c.withBytes(c.bytes.slice(h, c.length()).copy()));
      return;
    }
    if (out.size() > 0) {
      Buffer whole = Buffer.buffer(out.toByteArray());
      out.reset();
      next.accept(Chunk.data(whole, eventSince > 0 ? eventSince : readArrival));
    }
  }

  /**
   * Body bytes, de-chunked: complete events go to {@code out}, a partial one waits in {@code
   * event}.
   */
  private void body(byte[] b, int off, int len) {
    for (int i = off; i < off + len; i++) {
      byte x = b[i];
      if (event.size() == 0) eventSince = readArrival;
      event.write(x);
      if (lineStart && x != '\n' && x != '\r') onlyComments &= x == ':';
      if (x == '\n') {
        newlines++;
        lineStart = true;
        if (newlines == 2) endEvent();
      } else if (x != '\r') {
        newlines = 0;
        lineStart = false;
      }
      if (event.size() > capBytes) {
        ctx.fail("reframe: an event over " + capBytes + " bytes without its blank line");
        opaque = true;
        return;
      }
    }
  }

  private void endEvent() {
    boolean drop = dropComments && onlyComments && !lengthKnown;
    if (!drop) writeEvent(event.toByteArray());
    event.reset();
    newlines = 0;
    onlyComments = true;
    lineStart = true;
  }

  private void writeEvent(byte[] e) {
    if (e.length == 0) return;
    if (chunked) {
      out.writeBytes(Integer.toHexString(e.length).getBytes(StandardCharsets.US_ASCII));
      out.writeBytes(CRLF);
    }
    out.writeBytes(e);
    if (chunked) out.writeBytes(CRLF);
  }

  /** The response ended: a partial event still held goes as it is (nothing is lost). */
  private void flushPartial() {
    if (event.size() > 0) writeEvent(event.toByteArray());
    event.reset();
    if (out.size() > 0) {
      Buffer whole = Buffer.buffer(out.toByteArray());
      out.reset();
      next.accept(Chunk.data(whole, readArrival));
    }
  }
}
