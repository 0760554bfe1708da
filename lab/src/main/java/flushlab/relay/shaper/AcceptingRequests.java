package flushlab.relay.shaper;

import flushlab.coding.ContentCoding;
import flushlab.http.HttpParseException;
import flushlab.http.HttpRequestParser;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayDeque;

/**
 * The requests a compressing proxy saw go upstream, in order, each remembered as whether it accepts
 * the coding (an HTTP/1.0 request never does, as nginx's gzip_http_version has it), until its
 * response's head comes.
 */
final class AcceptingRequests {
  /**
   * Pipelined requests remembered; more than this and the oldest answers are treated as not
   * accepting.
   */
  private static final int MAX_PENDING = 64;

  /** For each request sent upstream and not yet answered: whether it accepted the coding. */
  private final ArrayDeque<Boolean> accepts = new ArrayDeque<>();

  private final HttpRequestParser parser;

  AcceptingRequests(ContentCoding coding) {
    this.parser =
        new HttpRequestParser(
            r -> {
              if (accepts.size() == MAX_PENDING) accepts.poll();
              accepts.add(
                  !"HTTP/1.0".equals(r.version())
                      && ContentCoding.accepted(r.headers().get("Accept-Encoding"))
                          .contains(coding));
            });
  }

  /** Request bytes as they went upstream; what cannot be parsed throws. */
  void feed(Buffer bytes) throws HttpParseException {
    byte[] b = bytes.getBytes();
    parser.feed(b, 0, b.length);
  }

  /** Whether the oldest request not yet answered accepted the coding (false: none is pending). */
  boolean nextAccepted() {
    return Boolean.TRUE.equals(accepts.poll());
  }
}
