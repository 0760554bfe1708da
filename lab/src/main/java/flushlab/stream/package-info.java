/**
 * The one typed model of a stream the emitter sends and the client asks for.
 *
 * <p>{@code StreamSpec}, the one typed model of a stream (endpoint, frames or bulk bytes, frame
 * size, interval, think, transfer, X-Accel-Buffering, extra headers) and {@code Compression}
 * (coding, flush policy, Cache-Control) with its defaults and limits; {@code SseQuery}, which
 * writes a spec as its {@code /sse} query and reads it back for the emitter; {@code MediaTypes}
 * (what a Content-Type may carry; NDJSON); {@code Endpoint}, {@code Transfer}, {@code
 * XAccelBuffering}, {@code CacheControl} enums; {@code ResponseShape} (the Content-Type and framing
 * {@code map --response} sends; the stream-detection matrix {@code map --shapes} probes)
 */
package flushlab.stream;
