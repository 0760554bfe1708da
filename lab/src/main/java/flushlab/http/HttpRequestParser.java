package flushlab.http;

import java.util.Arrays;

/**
 * Incremental HTTP/1.1 request parser for the emitter: request line, headers and a body read by its
 * Content-Length, however many reads the head and the body arrive in (a proxy may split them).
 */
public final class HttpRequestParser {
  public static final int MAX_BODY_BYTES = 1024 * 1024;
  private static final int INITIAL_BODY_BYTES = 4096;

  /** One complete request. */
  public record Request(
      String method, String target, String version, Headers headers, byte[] body) {
    public boolean keepAlive() {
      if (headers.has("Connection", "close")) return false;
      return !"HTTP/1.0".equals(version) || headers.has("Connection", "keep-alive");
    }

    /**
     * The same request without its body: what a response given later needs to keep (a body may be a
     * MiB).
     */
    public Request withoutBody() {
      return body.length == 0 ? this : new Request(method, target, version, headers, new byte[0]);
    }
  }

  public interface Listener {
    void onRequest(Request request);
  }

  private final Listener listener;
  private final HeadBuffer head = new HeadBuffer();
  private String method;
  private String target;
  private String version;
  private Headers headers;

  /** Grows as body bytes arrive (a declared length is a promise, not an allocation). */
  private byte[] body;

  private int bodyLength;
  private int bodyFill;
  private boolean inBody;

  public HttpRequestParser(Listener listener) {
    this.listener = listener;
  }

  public void feed(byte[] b, int off, int len) {
    int end = off + len;
    int p = off;
    while (p < end) {
      if (!inBody) {
        int r = head.append(b, p, end - p);
        if (r >= 0) {
          p += r;
        } else {
          p += -1 - r;
          headComplete();
        }
      } else {
        int n = Math.min(bodyLength - bodyFill, end - p);
        if (bodyFill + n > body.length)
          body = Arrays.copyOf(body, Math.min(bodyLength, Math.max(bodyFill + n, body.length * 2)));
        System.arraycopy(b, p, body, bodyFill, n);
        bodyFill += n;
        p += n;
        if (bodyFill == bodyLength) dispatch();
      }
    }
  }

  private void headComplete() {
    String[] lines = head.lines();
    head.reset();
    int first = 0;
    while (first < lines.length && lines[first].isEmpty()) first++; // tolerate stray CRLF
    if (first == lines.length) return;
    String[] parts = lines[first].split(" ");
    if (parts.length != 3 || !parts[2].startsWith("HTTP/1.")) {
      throw new HttpParseException("malformed request line \"" + lines[first] + "\"", true);
    }
    method = parts[0];
    target = parts[1];
    version = parts[2];
    headers = new Headers();
    if (!Headers.parseLines(lines, first + 1, headers)) {
      throw new HttpParseException("malformed header line in request", false);
    }
    String te = headers.get("Transfer-Encoding");
    if (te != null && !te.equalsIgnoreCase("identity")) {
      throw new HttpParseException(
          "chunked request bodies are not supported; send Content-Length", false);
    }
    long length = Math.max(0, headers.contentLength());
    if (length > MAX_BODY_BYTES) {
      throw new HttpParseException(
          "request body of " + length + " bytes is over the limit of " + MAX_BODY_BYTES + " bytes",
          false,
          413);
    }
    bodyLength = (int) length;
    body = new byte[Math.min(bodyLength, INITIAL_BODY_BYTES)];
    bodyFill = 0;
    if (length == 0) {
      dispatch();
    } else {
      inBody = true;
    }
  }

  /** Bytes of an unfinished request held right now (its head so far, its body so far). */
  public int bufferedBytes() {
    return head.length() + (inBody ? bodyFill : 0);
  }

  /** True between requests: nothing of a next request has arrived. */
  public boolean idle() {
    return head.length() == 0 && !inBody;
  }

  private void dispatch() {
    inBody = false;
    Request r = new Request(method, target, version, headers, Arrays.copyOf(body, bodyFill));
    listener.onRequest(r);
  }
}
