package flushlab.http;

/**
 * Incremental HTTP/1.1 response parser: status line, headers, then a chunked, length-delimited or
 * close-delimited body. Bytes arrive in whatever pieces the kernel hands over; the parser keeps
 * state across calls and never assumes a boundary. It handles consecutive responses on one
 * keep-alive connection. It does not copy body bytes: it hands out slices of the input.
 */
public final class HttpResponseParser {

  /** Receives the parsed pieces. All calls happen inside {@link #feed}. */
  public interface Listener {
    void onHead(int status, String reason, Headers headers);

    void onBody(byte[] bytes, int off, int len);

    /** The response is complete (terminating chunk, Content-Length reached, or close). */
    void onComplete();
  }

  private enum State {
    HEAD,
    LENGTH_BODY,
    CLOSE_BODY,
    CHUNK_SIZE,
    CHUNK_DATA,
    CHUNK_DATA_END,
    TRAILERS
  }

  private final Listener listener;
  private final HeadBuffer head = new HeadBuffer();
  private State state = State.HEAD;
  private long remaining;
  private final StringBuilder line = new StringBuilder();
  private boolean sawAnyByte;
  private boolean expectNoBody;

  public HttpResponseParser(Listener listener) {
    this.listener = listener;
  }

  /** The next response has no body whatever its headers say (the answer to a HEAD request). */
  public void expectNoBody() {
    this.expectNoBody = true;
  }

  public void feed(byte[] b, int off, int len) {
    int end = off + len;
    int p = off;
    while (p < end) {
      switch (state) {
        case HEAD:
          {
            sawAnyByte = true;
            int before = head.length();
            int r = head.append(b, p, end - p);
            checkLooksLikeHttp(before);
            if (r >= 0) {
              p += r;
            } else {
              p += -1 - r;
              headComplete();
            }
            break;
          }
        case LENGTH_BODY:
          {
            int n = (int) Math.min(remaining, end - p);
            listener.onBody(b, p, n);
            p += n;
            remaining -= n;
            if (remaining == 0) complete();
            break;
          }
        case CLOSE_BODY:
          {
            listener.onBody(b, p, end - p);
            p = end;
            break;
          }
        case CHUNK_SIZE:
          {
            byte c = b[p++];
            if (c == '\n') {
              startChunk();
            } else if (c != '\r') {
              if (line.length() > 64)
                throw new HttpParseException("chunk size line too long", false);
              line.append((char) c);
            }
            break;
          }
        case CHUNK_DATA:
          {
            int n = (int) Math.min(remaining, end - p);
            listener.onBody(b, p, n);
            p += n;
            remaining -= n;
            if (remaining == 0) state = State.CHUNK_DATA_END;
            break;
          }
        case CHUNK_DATA_END:
          {
            byte c = b[p++];
            if (c == '\n') {
              state = State.CHUNK_SIZE;
            } else if (c != '\r') {
              throw new HttpParseException("chunk data not followed by CRLF", false);
            }
            break;
          }
        case TRAILERS:
          {
            byte c = b[p++];
            if (c == '\n') {
              if (line.length() == 0) {
                complete();
              } else {
                line.setLength(0);
              }
            } else if (c != '\r') {
              line.append((char) c);
            }
            break;
          }
        default:
          throw new IllegalStateException(state.toString());
      }
    }
  }

  /**
   * The connection closed. Returns true when that ended a close-delimited body (a complete
   * response) or happened between responses; false when it cut a response short.
   */
  public boolean connectionClosed() {
    if (state == State.CLOSE_BODY) {
      complete();
      return true;
    }
    return state == State.HEAD && head.length() == 0;
  }

  /** True when no response is in progress (nothing of a next response has arrived). */
  public boolean idle() {
    return state == State.HEAD && head.length() == 0;
  }

  public boolean sawAnyByte() {
    return sawAnyByte;
  }

  private void checkLooksLikeHttp(int before) {
    int n = Math.min(head.length(), 5);
    for (int i = before; i < n; i++) {
      if (head.byteAt(i) != "HTTP/".charAt(i)) {
        StringBuilder first = new StringBuilder();
        for (int j = 0; j < Math.min(head.length(), 40); j++) {
          byte c = head.byteAt(j);
          first.append(c >= 32 && c < 127 ? (char) c : '.');
        }
        String h2 = http2ControlFrame();
        if (h2 != null) {
          throw HttpParseException.speakingHttp2Only(
              "an HTTP/2 "
                  + h2
                  + " frame where an HTTP/1.x response was due: the peer speaks "
                  + "HTTP/2 by prior knowledge (h2c) only");
        }
        throw new HttpParseException("not an HTTP response (first bytes: \"" + first + "\")", true);
      }
    }
  }

  /**
   * "SETTINGS" or "GOAWAY" when the bytes so far begin with such an HTTP/2 frame on stream 0 (what
   * an h2c-only server answers an HTTP/1.1 request with), else null: a frame header is a 24-bit
   * length, a type, flags and a stream id.
   */
  private String http2ControlFrame() {
    if (head.length() < 9) return null;
    int length =
        (head.byteAt(0) & 0xff) << 16 | (head.byteAt(1) & 0xff) << 8 | head.byteAt(2) & 0xff;
    int type = head.byteAt(3) & 0xff;
    boolean streamZero =
        (head.byteAt(5) & 0x7f) == 0
            && head.byteAt(6) == 0
            && head.byteAt(7) == 0
            && head.byteAt(8) == 0;
    if (!streamZero) return null;
    if (type == 0x4 && length % 6 == 0 && length <= 16384) return "SETTINGS";
    if (type == 0x7 && length >= 8 && length <= 16384) return "GOAWAY";
    return null;
  }

  private void headComplete() {
    String[] lines = head.lines();
    head.reset();
    String status = lines.length > 0 ? lines[0] : "";
    String[] parts = status.split(" ", 3);
    if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
      throw new HttpParseException("malformed status line \"" + status + "\"", true);
    }
    int code;
    try {
      code = Integer.parseInt(parts[1]);
    } catch (NumberFormatException e) {
      throw new HttpParseException("malformed status code in \"" + status + "\"", false);
    }
    Headers headers = new Headers();
    if (!Headers.parseLines(lines, 1, headers)) {
      throw new HttpParseException("malformed header line in response", false);
    }
    if (code >= 100 && code < 200) {
      return; // interim response: the real head follows
    }
    listener.onHead(code, parts.length > 2 ? parts[2] : "", headers);
    String te = headers.get("Transfer-Encoding");
    if (expectNoBody || code == 204 || code == 304) {
      expectNoBody = false;
      complete();
    } else if (te != null && te.toLowerCase().contains("chunked")) {
      state = State.CHUNK_SIZE;
      line.setLength(0);
    } else if (headers.contentLength() >= 0) {
      remaining = headers.contentLength();
      if (remaining == 0) {
        complete();
      } else {
        state = State.LENGTH_BODY;
      }
    } else {
      state = State.CLOSE_BODY;
    }
  }

  /**
   * The chunk-size line just read: hex digits, optional spaces, then ';' and extensions. Read digit
   * by digit: this runs once per chunk, on every read of a chunked stream, and allocates nothing.
   */
  private void startChunk() {
    long size = 0;
    int digits = 0;
    int i = 0;
    int n = line.length();
    while (i < n && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) i++;
    for (; i < n; i++) {
      int d = Character.digit(line.charAt(i), 16);
      if (d < 0) break;
      if (++digits > 15)
        throw new HttpParseException(
            "malformed chunk size \"" + line + "\" (too many digits)", false);
      size = size * 16 + d;
    }
    while (i < n && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) i++;
    if (digits == 0 || i < n && line.charAt(i) != ';') {
      String text = line.toString();
      line.setLength(0);
      throw new HttpParseException("malformed chunk size \"" + text + "\"", false);
    }
    line.setLength(0);
    remaining = size;
    state = remaining == 0 ? State.TRAILERS : State.CHUNK_DATA;
  }

  private void complete() {
    state = State.HEAD;
    line.setLength(0);
    listener.onComplete();
  }
}
