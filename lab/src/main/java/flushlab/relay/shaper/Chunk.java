package flushlab.relay.shaper;

import flushlab.http.Headers;
import io.vertx.core.buffer.Buffer;

/**
 * One item on the response path of a relay: bytes, or an event that must keep its place among the
 * bytes (a response starting or ending, the upstream closing, a socket action). Each carries the
 * time it arrived from upstream, so a delaying shaper waits only what remains (chained delays are
 * not counted twice).
 */
public final class Chunk {
  public enum Kind {
    /** Response bytes, forwarded as they are (head, chunk framing and all). */
    DATA,
    /** A response head was parsed; {@link #headers} holds it. Carries no bytes. */
    RESPONSE_START,
    /** The response ended (last chunk, Content-Length reached or close). Carries no bytes. */
    RESPONSE_END,
    /** Upstream closed: close the client connection once everything before is written. */
    CLOSE,
    /** Set (true) or clear (false) TCP_CORK on the client socket at this point of the stream. */
    CORK,
    /** Abort the client connection with a TCP RST. */
    RESET
  }

  public final Kind kind;
  public final Buffer bytes;
  public final Headers headers;
  public final long arrivalNanos;
  public final boolean flag;

  private Chunk(Kind kind, Buffer bytes, Headers headers, long arrivalNanos, boolean flag) {
    this.kind = kind;
    this.bytes = bytes;
    this.headers = headers;
    this.arrivalNanos = arrivalNanos;
    this.flag = flag;
  }

  public static Chunk data(Buffer bytes, long arrivalNanos) {
    return new Chunk(Kind.DATA, bytes, null, arrivalNanos, false);
  }

  public static Chunk event(Kind kind, long arrivalNanos) {
    return new Chunk(kind, null, null, arrivalNanos, false);
  }

  public static Chunk responseStart(Headers headers, long arrivalNanos) {
    return new Chunk(Kind.RESPONSE_START, null, headers, arrivalNanos, false);
  }

  public static Chunk cork(boolean on, long arrivalNanos) {
    return new Chunk(Kind.CORK, null, null, arrivalNanos, on);
  }

  public int length() {
    return bytes == null ? 0 : bytes.length();
  }

  /** The same kind of item with other bytes (a slice or a merge), keeping the arrival time. */
  public Chunk withBytes(Buffer other) {
    return new Chunk(Kind.DATA, other, null, arrivalNanos, false);
  }
}
