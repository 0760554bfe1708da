package flushlab.coding;

/**
 * Compresses a response body in one content coding as it is written, the way an origin framework's
 * or a proxy's compression filter does: {@link #write} feeds bytes and passes on whatever the
 * encoder already lets go (often nothing: encoders hold input to find matches), {@link #flush}
 * makes everything written so far decodable now (zlib's sync flush, brotli's and zstd's flush),
 * {@link #finish} ends the stream. Output goes to the sink within each call. Confined to one
 * thread; {@link #close} releases native memory.
 */
public interface BodyEncoder {
  void write(byte[] b, int off, int len, ByteSink out);

  void flush(ByteSink out);

  /** Ends the stream (trailer included) and releases the encoder. */
  void finish(ByteSink out);

  /** Releases native memory without ending the stream. Idempotent. */
  void close();

  /** Levels the usual servers default to: zlib 6 (Express, Starlette), brotli 5, zstd 3. */
  static BodyEncoder of(ContentCoding coding) {
    return switch (coding) {
      case GZIP -> new DeflatingEncoder(true, 6);
      case DEFLATE -> new DeflatingEncoder(false, 6);
      case BR -> new BrotliEncoder(5);
      case ZSTD -> new ZstdEncoder(3);
    };
  }
}
