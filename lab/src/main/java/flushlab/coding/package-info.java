/**
 * Content codings both ways, as the bytes move: decoded within each read, encoded under a flush
 * policy.
 *
 * <p>Content codings both ways, as the bytes move: {@code ContentCoding} (what Content-Encoding
 * names and Accept-Encoding accepts), {@code BodyDecoder} ({@code InflatingDecoder} for gzip and
 * deflate on the JDK, {@code BrotliDecoder}, {@code ZstdDecoder}: each read's bytes decoded within
 * the read), {@code BodyEncoder} ({@code DeflatingEncoder}, {@code BrotliEncoder}, {@code
 * ZstdEncoder}), {@code FlushPolicy} (each, none, bytes:N, ms:T, input:N, next) and {@code
 * StreamCompressor} (an encoder under a policy, shared by the emitter and the {@code compress}
 * shaper), {@code NativeCodecs} (brotli's and zstd's libraries loaded before any event loop needs
 * them)
 */
package flushlab.coding;
