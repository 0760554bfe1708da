/**
 * Incremental parsers for HTTP/1.x and HTTP/2 frames, split anywhere, with HTTP/2's protections.
 *
 * <p>Incremental parsers: {@code HttpResponseParser} (chunked, length, close-delimited), {@code
 * HttpRequestParser}, {@code SseEventParser}; HTTP/2's frames: {@code H2} (constants and the frames
 * written by hand), {@code H2FrameParser} (split anywhere; DATA handed on as it arrives, header
 * blocks put together from CONTINUATIONs; HPACK is Netty's), {@code H2Guard} (the protections
 * Netty's HTTP/2 codec carries, for the lab's hand-written servers: control answers a client does
 * not read, rapid reset, empty DATA and CONTINUATION floods; each ends the connection with GOAWAY
 * ENHANCE_YOUR_CALM). What a request sends is typed here too: {@code Header}, one field to send
 * (its value never printed), and {@code Headers}, fields as they arrived.
 */
package flushlab.http;
