package flushlab.coding;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import java.nio.ByteBuffer;

/**
 * zstd (RFC 8878) as the bytes arrive, on zstd-jni's streaming decompression over direct buffers:
 * each read's bytes are copied in and decompressed until the library has nothing more to give, all
 * before {@link #feed} returns. Frames may follow one another. One context and two direct buffers
 * per stream.
 */
final class ZstdDecoder implements BodyDecoder {
  private final ZstdDecompressCtx ctx = new ZstdDecompressCtx();
  private final ByteBuffer in = ByteBuffer.allocateDirect(64 * 1024);
  private final ByteBuffer outBuffer = ByteBuffer.allocateDirect(128 * 1024);
  private final byte[] out = new byte[128 * 1024];
  private long decoded;

  /** No byte of a frame is pending: the stream may end here. */
  private boolean atFrameEnd = true;

  private boolean closed;

  @Override
  public long decodedBytes() {
    return decoded;
  }

  @Override
  public void feed(byte[] b, int off, int len, ByteSink sink) throws Corrupt {
    int i = off;
    int end = off + len;
    try {
      while (i < end) {
        in.clear();
        int n = Math.min(in.remaining(), end - i);
        in.put(b, i, n);
        i += n;
        in.flip();
        atFrameEnd = false;
        boolean outputFull;
        do {
          outBuffer.clear();
          atFrameEnd = ctx.decompressDirectByteBufferStream(outBuffer, in);
          outBuffer.flip();
          outputFull =
              !outBuffer.hasRemaining() ? false : outBuffer.remaining() == outBuffer.capacity();
          int got = outBuffer.remaining();
          if (got > 0) {
            outBuffer.get(out, 0, got);
            decoded += got;
            sink.accept(out, 0, got);
          }
        } while (in.hasRemaining() || outputFull);
      }
    } catch (ZstdException e) {
      throw new Corrupt("the zstd data is corrupt (" + e.getMessage() + ")");
    }
  }

  @Override
  public void finish() throws Corrupt {
    close();
    if (!atFrameEnd)
      throw new Corrupt("the zstd body ended before its compressed stream did (truncated)");
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      ctx.close();
    }
  }
}
