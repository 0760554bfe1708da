package flushlab.coding;

import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * gzip (RFC 1952: a ten-byte header, raw deflate, CRC-32 and length) or deflate (RFC 9110's zlib
 * stream) on the JDK's {@link Deflater}. Input is consumed before each call returns, so the
 * caller's array may be reused.
 */
final class DeflatingEncoder implements BodyEncoder {
  /** No name, no time, no extra fields, OS unknown: what gzip writers send for a stream. */
  private static final byte[] GZIP_HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};

  private final boolean gzip;
  private final Deflater deflater;
  private final CRC32 crc = new CRC32();
  private final byte[] out = new byte[16 * 1024];
  private boolean headerSent;
  private boolean closed;

  DeflatingEncoder(boolean gzip, int level) {
    this.gzip = gzip;
    this.deflater = new Deflater(level, gzip);
  }

  @Override
  public void write(byte[] b, int off, int len, ByteSink sink) {
    header(sink);
    if (gzip) crc.update(b, off, len);
    deflater.setInput(b, off, len);
    while (!deflater.needsInput()) drain(Deflater.NO_FLUSH, sink);
  }

  @Override
  public void flush(ByteSink sink) {
    header(sink);
    int n;
    do {
      n = drain(Deflater.SYNC_FLUSH, sink);
    } while (n == out.length);
  }

  @Override
  public void finish(ByteSink sink) {
    header(sink);
    deflater.finish();
    while (!deflater.finished()) drain(Deflater.NO_FLUSH, sink);
    if (gzip) {
      long c = crc.getValue();
      long size = deflater.getBytesRead();
      byte[] trailer = new byte[8];
      for (int i = 0; i < 4; i++) {
        trailer[i] = (byte) (c >>> (8 * i));
        trailer[4 + i] = (byte) (size >>> (8 * i));
      }
      sink.accept(trailer, 0, 8);
    }
    close();
  }

  private int drain(int mode, ByteSink sink) {
    int n = deflater.deflate(out, 0, out.length, mode);
    if (n > 0) sink.accept(out, 0, n);
    return n;
  }

  private void header(ByteSink sink) {
    if (gzip && !headerSent) {
      headerSent = true;
      sink.accept(GZIP_HEADER, 0, GZIP_HEADER.length);
    }
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      deflater.end();
    }
  }
}
