package flushlab.client;

import java.util.Arrays;

/**
 * One request stream of the metered client's HTTP/2 connection: what a read meant for it, as the
 * HTTP/1.1 bytes (a head, chunked DATA) its stream meter reads, and what it saw. Confined to the
 * connection's event loop; its buffer grows with the largest read and is reused.
 */
final class H2StreamOut {
  private static final byte[] LAST_CHUNK = {'0', '\r', '\n', '\r', '\n'};

  final int id;
  byte[] h1 = new byte[1024];
  int h1Len;
  boolean headSeen;
  boolean ended;
  String failure;
  boolean reset;

  /** DATA bytes this read (to give back, and the stream's share of the read's wire bytes). */
  int consumed;

  /** DATA bytes read and not yet given back with a WINDOW_UPDATE. */
  long unacked;

  long windowUpdatesSent;
  long dataBytes;

  H2StreamOut(int id) {
    this.id = id;
  }

  void append(byte[] b, int off, int len) {
    if (h1Len + len > h1.length) h1 = Arrays.copyOf(h1, Math.max(h1.length * 2, h1Len + len));
    System.arraycopy(b, off, h1, h1Len, len);
    h1Len += len;
  }

  /** A chunk-size line without allocating: hex digits and CRLF. */
  void chunkSize(int n) {
    if (h1Len + 10 > h1.length) h1 = Arrays.copyOf(h1, h1.length * 2);
    int shift = 28;
    while (shift > 0 && ((n >>> shift) & 0xf) == 0) shift -= 4;
    for (; shift >= 0; shift -= 4) {
      int d = (n >>> shift) & 0xf;
      h1[h1Len++] = (byte) (d < 10 ? '0' + d : 'a' + d - 10);
    }
    crlf();
  }

  /** The CRLF that ends a chunk's data or its size line. */
  void crlf() {
    if (h1Len + 2 > h1.length) h1 = Arrays.copyOf(h1, h1.length * 2);
    h1[h1Len++] = '\r';
    h1[h1Len++] = '\n';
  }

  /** The stream ended: the last chunk. */
  void end() {
    ended = true;
    append(LAST_CHUNK, 0, LAST_CHUNK.length);
  }
}
