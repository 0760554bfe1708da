package flushlab.coding;

import java.io.IOException;

/**
 * Undoes a response body's Content-Encoding as it arrives: each {@link #feed} hands the sink
 * whatever these wire bytes let the decoder release, within the same call, so the frames a read
 * completes are still that read's. Confined to one event loop; gzip and deflate allocate nothing
 * per call, br and zstd one small buffer view per call at most (the native libraries hand output
 * through direct buffers).
 */
public interface BodyDecoder {
  /**
   * Thrown when the body cannot be decoded: the stream is corrupt or cut inside a compressed block.
   */
  final class Corrupt extends IOException {
    private static final long serialVersionUID = 1L;

    public Corrupt(String message) {
      super(message);
    }
  }

  void feed(byte[] b, int off, int len, ByteSink out) throws Corrupt;

  /**
   * The body ended; refuses a compressed stream that had not reached its end. Releases the decoder.
   */
  void finish() throws Corrupt;

  /**
   * Releases native memory without judging the stream (it ended in error, or was abandoned).
   * Idempotent.
   */
  void close();

  /** Bytes handed to the sink so far. */
  long decodedBytes();

  static BodyDecoder of(ContentCoding coding) {
    return switch (coding) {
      case GZIP -> new InflatingDecoder(true);
      case DEFLATE -> new InflatingDecoder(false);
      case BR -> new BrotliDecoder();
      case ZSTD -> new ZstdDecoder();
    };
  }
}
