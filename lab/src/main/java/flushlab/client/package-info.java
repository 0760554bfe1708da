/**
 * The metered client: one data callback is one recv(), counted frame by frame, over every HTTP
 * version alike.
 *
 * <p>{@code MeteredClient} (runs a batch), {@code ClientBatch} (its requests shared out among its
 * connections), {@code ClientConnection} (one connection: connects, sends, meters each read; its
 * HTTP/1.1 responses one after another), {@code H2Streams} (the HTTP/2 side of a connection: the
 * streams open on it, one at a time or multiplexed), {@code RequestPlan} ({@code
 * RequestPlan.of(StreamSpec, host, port, model)}; {@code withProfile}), {@code ClientProfile} (the
 * headers a real client sends, captured from it; {@code RequestPlan.headLines} is what results
 * record), {@code ClientOptions} (the client settings and their defaults), {@code HeaderSpec},
 * {@code Staircase} (one stream as it arrived: each frame's receive and emit time, for the pages),
 * {@code H2ClientSession} (h2, h2c by prior knowledge or Upgrade: turns each socket read into what
 * it meant for each stream, an {@code H2StreamOut} of HTTP/1.1 bytes, so one meter per stream reads
 * every version alike; WINDOW_UPDATEs once half a window is read, as Chromium and nghttp2 do) with
 * {@code H2RequestFrames} (the preface, SETTINGS, HEADERS and DATA it writes), {@code H2Stats},
 * {@code HttpVersion} (auto: what the profile's client would speak), {@code StreamMeter} (one read
 * at a time: parses it, checks the head with {@code AnswerChecks} and {@code BadStatus}, and hands
 * the body to {@code BodyIntake}, which undoes its Content-Encoding within the read; the read to
 * {@code ReadSeries} and {@code ReleaseMeter}; each frame to {@code FrameIntegrity}), {@code
 * FrameDecoder}, {@code BatchResult} (a batch's totals and JSON envelope, with {@code
 * BatchDistributions}, {@code BatchErrors}, {@code H2Summary}), {@code GatewayOverhead}
 */
package flushlab.client;
