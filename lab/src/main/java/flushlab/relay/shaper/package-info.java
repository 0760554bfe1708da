/**
 * The shaper contract and one file per shaper: each mechanism a proxy buffers or faults by,
 * composable in a chain.
 *
 * <p>The contract: {@code Shaper}, {@code Stage}, {@code Chunk}, {@code ShaperContext} (an
 * interface); a shaper that {@code readsRequests()} (only {@code compress}, for each request's
 * Accept-Encoding) is handed the request bytes too; {@code ShaperRegistry} (parses specs; {@code
 * build(type).set(Param, value)} for typed callers); each shaper in its own file with its {@code
 * Param} constants (typed keys) and its {@code TYPE}; {@code HoldingShaper} and {@code
 * TimedQueueShaper} the two shared shapes; {@code FlowWindow} ({@code window}: HTTP/2's flow
 * control, a credit the receiver's updates refill) and {@code H2OutputBuffer} ({@code h2-buffer}:
 * mod_http2's per-stream output buffer) model HTTP/2's own holds on the relay's byte stream; {@code
 * HeadBoundary} finds where a response's head ends for the shapers that treat head and body apart
 * ({@code OneLate}, {@code HeadOnFirstByte}); {@code StreamIf} decides per response from its
 * headers and delegates what it holds to a held shaper; {@code Compress} re-encodes one response at
 * a time, with {@code CompressPolicy} (its flush policy from its parameters), {@code
 * CompressedHeads} (which responses, and the heads it sends) and {@code AcceptingRequests} (which
 * requests accepted the coding)
 */
package flushlab.relay.shaper;
