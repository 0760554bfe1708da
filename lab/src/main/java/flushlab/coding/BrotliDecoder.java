package flushlab.coding;

import com.aayushatharva.brotli4j.decoder.DecoderJNI;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * br (RFC 7932) as the bytes arrive, on brotli4j's streaming decoder: each read's bytes are pushed
 * in and everything the decoder can release is handed on before {@link #feed} returns. One native
 * decoder and one output array per stream.
 */
final class BrotliDecoder implements BodyDecoder {
  private static final int INPUT_BYTES = 64 * 1024;
  private final DecoderJNI.Wrapper decoder;
  private final byte[] out = new byte[64 * 1024];
  private long decoded;
  private boolean done;
  private boolean closed;

  BrotliDecoder() {
    NativeCodecs.ensureBrotli();
    try {
      decoder = new DecoderJNI.Wrapper(INPUT_BYTES);
    } catch (IOException e) {
      throw new UncheckedIOException("brotli decoder: " + e.getMessage(), e);
    }
  }

  @Override
  public long decodedBytes() {
    return decoded;
  }

  @Override
  public void feed(byte[] b, int off, int len, ByteSink sink) throws Corrupt {
    int i = off;
    int end = off + len;
    while (true) {
      switch (decoder.getStatus()) {
        case NEEDS_MORE_INPUT -> {
          drain(sink); // what the last push released
          if (i == end) return;
          ByteBuffer in = decoder.getInputBuffer();
          in.clear();
          int n = Math.min(in.remaining(), end - i);
          in.put(b, i, n);
          i += n;
          decoder.push(n);
        }
        case NEEDS_MORE_OUTPUT -> drain(sink);
        case OK -> decoder.push(0);
        case DONE -> {
          drain(sink);
          done = true;
          if (i < end) throw new Corrupt("bytes after the end of the br stream");
          return;
        }
        case ERROR -> throw new Corrupt("the br data is corrupt");
        default -> throw new IllegalStateException(decoder.getStatus().name());
      }
    }
  }

  private void drain(ByteSink sink) {
    while (decoder.hasOutput()) {
      ByteBuffer o = decoder.pull();
      while (o.hasRemaining()) {
        int n = Math.min(out.length, o.remaining());
        o.get(out, 0, n);
        decoded += n;
        sink.accept(out, 0, n);
      }
    }
  }

  @Override
  public void finish() throws Corrupt {
    close();
    if (!done) throw new Corrupt("the br body ended before its compressed stream did (truncated)");
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      decoder.destroy();
    }
  }
}
