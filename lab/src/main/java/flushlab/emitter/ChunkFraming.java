package flushlab.emitter;

import io.netty.buffer.ByteBuf;

/**
 * HTTP/1.1 chunked framing written straight into a buffer, allocating nothing: a chunk's size line,
 * the CRLF that ends its data, and the last chunk.
 */
final class ChunkFraming {
  private ChunkFraming() {}

  static final byte[] CRLF = {'\r', '\n'};
  static final byte[] LAST_CHUNK = {'0', '\r', '\n', '\r', '\n'};

  /** A chunk's size line: its length in hex, then CRLF. */
  static void sizeLine(ByteBuf buf, long size) {
    int shift = 60;
    while (shift > 0 && ((size >>> shift) & 0xf) == 0) shift -= 4;
    for (; shift >= 0; shift -= 4) {
      int d = (int) ((size >>> shift) & 0xf);
      buf.writeByte(d < 10 ? '0' + d : 'a' + d - 10);
    }
    buf.writeBytes(CRLF);
  }

  /** The bytes a chunk of {@code size} adds around its data: its size line and the closing CRLF. */
  static int overhead(long size) {
    int digits = 1;
    while ((size >>>= 4) != 0) digits++;
    return digits + 4;
  }

  /** {@code len} bytes of {@code b}, as a chunk of their own when the body is chunked. */
  static void piece(ByteBuf buf, byte[] b, int len, boolean chunked) {
    if (chunked) sizeLine(buf, len);
    buf.writeBytes(b, 0, len);
    if (chunked) buf.writeBytes(CRLF);
  }

  /**
   * What ends an event whose chunk's size line went with its head: the trailer, the chunk's CRLF,
   * and the last chunk after the stream's last event.
   */
  static void eventEnd(ByteBuf buf, byte[] trailer, boolean chunked, boolean last) {
    buf.writeBytes(trailer);
    if (chunked) {
      buf.writeBytes(CRLF);
      if (last) buf.writeBytes(LAST_CHUNK);
    }
  }
}
