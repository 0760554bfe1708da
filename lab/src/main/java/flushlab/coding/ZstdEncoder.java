package flushlab.coding;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.ZstdCompressCtx;
import java.nio.ByteBuffer;

/**
 * zstd on zstd-jni's streaming compression over direct buffers: one frame per body, flushed on
 * demand.
 */
final class ZstdEncoder implements BodyEncoder {
  private final ZstdCompressCtx ctx = new ZstdCompressCtx();
  private final ByteBuffer in = ByteBuffer.allocateDirect(64 * 1024);
  private final ByteBuffer outBuffer = ByteBuffer.allocateDirect(64 * 1024);
  private final byte[] out = new byte[64 * 1024];
  private boolean closed;

  ZstdEncoder(int level) {
    ctx.setLevel(level);
  }

  @Override
  public void write(byte[] b, int off, int len, ByteSink sink) {
    for (int i = off; i < off + len; ) {
      in.clear();
      int n = Math.min(in.remaining(), off + len - i);
      in.put(b, i, n);
      i += n;
      in.flip();
      while (in.hasRemaining()) step(EndDirective.CONTINUE, sink);
    }
  }

  @Override
  public void flush(ByteSink sink) {
    in.clear().flip();
    while (!step(EndDirective.FLUSH, sink)) {
      // more to flush than one output buffer holds
    }
  }

  @Override
  public void finish(ByteSink sink) {
    in.clear().flip();
    while (!step(EndDirective.END, sink)) {
      // more to write than one output buffer holds
    }
    close();
  }

  /** One call into zstd; returns true when a flush or end has completed. */
  private boolean step(EndDirective directive, ByteSink sink) {
    outBuffer.clear();
    boolean done = ctx.compressDirectByteBufferStream(outBuffer, in, directive);
    outBuffer.flip();
    int n = outBuffer.remaining();
    if (n > 0) {
      outBuffer.get(out, 0, n);
      sink.accept(out, 0, n);
    }
    return done;
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      ctx.close();
    }
  }
}
