package flushlab.emitter;

import flushlab.coding.ContentCoding;
import flushlab.coding.StreamCompressor;
import flushlab.http.Header;
import flushlab.stream.Compression;
import flushlab.stream.ResponseHeader;
import flushlab.stream.StreamSpec;
import flushlab.stream.Transfer;
import java.util.ArrayList;
import java.util.List;

/**
 * What the emitter answers a stream request with, whichever protocol carries it: the head's fields
 * and the paced body. The routes build one ({@link EmitterRoutes}); the HTTP/1.1 and HTTP/2
 * responders write it, each adding only its own framing (a status line, chunking and Connection; or
 * HEADERS with a content-length).
 *
 * @param id the stream's number, in X-Flushlab-Stream and the audit
 * @param source the frames, with the preamble sent with the head
 * @param transfer how an HTTP/1.x body is framed (HTTP/2 frames its own)
 * @param contentLength the body's length when it is sent with one, else -1
 * @param extraHeaders headers the request asked for, after the emitter's own
 */
record StreamAnswer(
    long id,
    FrameSource source,
    long thinkNanos,
    long intervalNanos,
    boolean paced,
    Compression compression,
    String contentType,
    Transfer transfer,
    long contentLength,
    List<ResponseHeader> extraHeaders,
    long keepAliveNanos) {

  /** A plain stream (/sse) as its spec asks. */
  static StreamAnswer of(long id, StreamSpec spec, FrameSource source) {
    long length =
        spec.transfer() == Transfer.LENGTH ? (long) spec.frameCount() * spec.frameBytes() : -1;
    return new StreamAnswer(
        id,
        source,
        spec.thinkNanos(),
        spec.intervalNanos(),
        spec.paced(),
        spec.compression(),
        spec.contentType(),
        spec.transfer(),
        length,
        spec.responseHeaders(),
        spec.keepAliveNanos());
  }

  /**
   * An OpenAI stream: chunked on HTTP/1.1 (close-delimited on 1.0), never compressed, paced by the
   * request's token delay.
   */
  static StreamAnswer openAi(long id, ChatRequestSpec spec, FrameSource source) {
    return new StreamAnswer(
        id,
        source,
        spec.thinkNanos(),
        spec.delayNanos(),
        spec.delayNanos() > 0,
        Compression.NONE,
        StreamSpec.DEFAULT_CONTENT_TYPE,
        Transfer.CHUNKED,
        -1,
        List.of(),
        0);
  }

  /**
   * The coding the body goes out in for a request with this Accept-Encoding, or null: as a
   * framework's compression middleware, only a coding the request accepts.
   */
  ContentCoding codingFor(String acceptEncoding) {
    ContentCoding coding = compression.coding();
    return coding != null && ContentCoding.accepted(acceptEncoding).contains(coding)
        ? coding
        : null;
  }

  /** The compressor for a body in {@code coding} (from {@link #codingFor}), or null. */
  StreamCompressor compressor(ContentCoding coding) {
    return coding == null ? null : new StreamCompressor(coding, compression.flush());
  }

  /**
   * The head's fields both protocols carry, in order: the content type, Cache-Control, the stream's
   * number, Vary when the stream may be compressed (either way, as a middleware says it), the
   * Content-Encoding of {@code coding} when it is, then the request's own.
   */
  List<Header> headers(ContentCoding coding) {
    List<Header> h = new ArrayList<>(6 + extraHeaders.size());
    h.add(new Header("Content-Type", contentType));
    h.add(new Header("Cache-Control", compression.cacheControl().header));
    h.add(new Header("X-Flushlab-Stream", Long.toString(id)));
    if (compression.coding() != null) h.add(new Header("Vary", "Accept-Encoding"));
    if (coding != null) h.add(new Header("Content-Encoding", coding.text()));
    for (ResponseHeader e : extraHeaders) h.add(new Header(e.name(), e.value()));
    return h;
  }
}
