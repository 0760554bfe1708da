package flushlab.client;

import java.io.IOException;

/**
 * Undoes a response body's Content-Encoding as it arrives: each {@link #feed} hands the sink
 * whatever these wire bytes let the decoder release, within the same call, so the frames a read
 * completes are still that read's. Confined to one event loop; nothing is allocated per call.
 */
interface BodyDecoder {
  /** Where decoded bytes go (the SSE parser). */
  interface Sink {
    void accept(byte[] b, int off, int len);
  }

  /** Thrown when the body cannot be decoded: the stream is corrupt or cut inside a compressed block. */
  final class Corrupt extends IOException {
    private static final long serialVersionUID = 1L;

    Corrupt(String message) {
      super(message);
    }
  }

  void feed(byte[] b, int off, int len, Sink out) throws Corrupt;

  /** The body ended; refuses a compressed stream that had not reached its end. */
  void finish() throws Corrupt;

  /** Bytes handed to the sink so far. */
  long decodedBytes();

  static BodyDecoder of(ContentCoding coding) {
    return switch (coding) {
      case GZIP -> new InflatingDecoder(true);
      case DEFLATE -> new InflatingDecoder(false);
      case BR, ZSTD -> throw new IllegalArgumentException(coding.text() + " is not decoded by this client");
    };
  }
}
