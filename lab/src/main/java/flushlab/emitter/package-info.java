/**
 * The paced emitter: SSE and OpenAI streams on absolute deadlines, over HTTP/1.1 and HTTP/2,
 * auditing its own pacing.
 *
 * <p>{@code Emitter} (raw NetServer), {@code Admission}, {@code EmitterConnection} (routing; {@code
 * /sse} through {@code StreamSpec.fromQuery}; HTTP/2 from the preface or ALPN), {@code
 * H2ServerSession} (up to 128 streams per connection; HEADERS and DATA within each stream's and the
 * connection's windows; h2c by preface or Upgrade), {@code PacedStream}, {@code PacingAudit} +
 * {@code AuditRegistry}, the frame sources (plain, chat, Responses), {@code ChatRequestSpec},
 * {@code OpenAiError}
 */
package flushlab.emitter;
