/**
 * The one typed model of a stream the emitter sends and the client asks for.
 *
 * <p>{@code StreamSpec}, the one typed model of a stream (endpoint, frames or bulk bytes, frame
 * size, interval, think, transfer, X-Accel-Buffering, extra headers) and {@code Compression}
 * (coding, flush policy, Cache-Control) with its defaults and limits, written as its own {@code
 * /sse} query and read back by the emitter; {@code Endpoint}, {@code Transfer}, {@code
 * XAccelBuffering}, {@code CacheControl} enums; {@code ResponseShape} (the Content-Type and framing
 * {@code map --response} sends; the stream-detection matrix {@code map --shapes} probes)
 */
package flushlab.stream;
