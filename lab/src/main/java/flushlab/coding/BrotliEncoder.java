package flushlab.coding;

import com.aayushatharva.brotli4j.encoder.Encoder;
import com.aayushatharva.brotli4j.encoder.EncoderJNI;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * br on brotli4j's streaming encoder: input is copied into its native buffer and pushed, output
 * pulled until none is left.
 */
final class BrotliEncoder implements BodyEncoder {
  private static final int INPUT_BYTES = 64 * 1024;
  private final EncoderJNI.Wrapper encoder;
  private final byte[] out = new byte[16 * 1024];
  private boolean closed;

  BrotliEncoder(int quality) {
    NativeCodecs.ensureBrotli();
    try {
      encoder = new EncoderJNI.Wrapper(INPUT_BYTES, quality, 22, Encoder.Mode.TEXT);
    } catch (IOException e) {
      throw new UncheckedIOException("brotli encoder: " + e.getMessage(), e);
    }
  }

  @Override
  public void write(byte[] b, int off, int len, ByteSink sink) {
    for (int i = off; i < off + len; ) {
      ByteBuffer in = encoder.getInputBuffer();
      in.clear();
      int n = Math.min(in.remaining(), off + len - i);
      in.put(b, i, n);
      i += n;
      run(EncoderJNI.Operation.PROCESS, n, sink);
    }
  }

  @Override
  public void flush(ByteSink sink) {
    run(EncoderJNI.Operation.FLUSH, 0, sink);
  }

  @Override
  public void finish(ByteSink sink) {
    run(EncoderJNI.Operation.FINISH, 0, sink);
    close();
  }

  /**
   * Pushes n input bytes with this operation, then pulls and pushes until the encoder holds no
   * pending input or output.
   */
  private void run(EncoderJNI.Operation op, int n, ByteSink sink) {
    encoder.push(op, n);
    while (true) {
      if (!encoder.isSuccess()) throw new IllegalStateException("brotli encoding failed");
      if (encoder.hasMoreOutput()) {
        ByteBuffer o = encoder.pull();
        while (o.hasRemaining()) {
          int k = Math.min(out.length, o.remaining());
          o.get(out, 0, k);
          sink.accept(out, 0, k);
        }
      } else if (encoder.hasRemainingInput()) {
        encoder.push(op, 0);
      } else {
        return;
      }
    }
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      encoder.destroy();
    }
  }
}
