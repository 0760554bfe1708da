/**
 * The paced emitter: SSE and OpenAI streams on absolute deadlines, over HTTP/1.1 and HTTP/2,
 * auditing its own pacing.
 *
 * <p>{@code Emitter} (raw NetServer), {@code Admission}, {@code EmitterConnection} (admits a
 * connection and tells HTTP/1.x from HTTP/2: the preface, ALPN or an h2c Upgrade), {@code
 * EmitterRoutes} (what each request is answered with, on either protocol; {@code /sse} through
 * {@code StreamSpec.fromQuery}), {@code StreamAnswer} (a stream's head and paced body, one model
 * for both protocols), {@code Http11Responder} and {@code H2Responder} (each writes answers in its
 * protocol's framing), {@code H2ServerSession} (up to 128 streams per connection; HEADERS and DATA
 * within each stream's and the connection's windows; h2c by preface or Upgrade), {@code
 * PacedStream} (one stream's frames on their deadlines, with {@code CompressedBody}, {@code
 * H2Body}, {@code KeepAlives} and {@code ChunkFraming} for how its bytes are framed), {@code
 * PacingAudit} + {@code AuditRegistry}, the frame sources (plain, chat, Responses), {@code
 * ChatRequestSpec}, {@code OpenAiError}
 */
package flushlab.emitter;
