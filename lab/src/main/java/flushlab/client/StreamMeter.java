package flushlab.client;

import flushlab.coding.BodyDecoder;
import flushlab.coding.ContentCoding;
import flushlab.core.LabClock;
import flushlab.core.LongSamples;
import flushlab.http.EventParser;
import flushlab.http.Headers;
import flushlab.http.HttpParseException;
import flushlab.http.HttpResponseParser;
import flushlab.http.NdjsonParser;
import flushlab.http.SseEventParser;
import flushlab.stream.MediaTypes;
import flushlab.stream.StreamSpec;
import java.util.Set;

/**
 * Counts what each read from the kernel delivers for one response: bytes, frames completed, when.
 * Feed it every read with the time the read returned; it parses HTTP and SSE incrementally and
 * keeps per-frame samples in primitive arrays (the per-read path allocates only when an array
 * doubles). Confined to one event loop.
 */
public final class StreamMeter implements HttpResponseParser.Listener, SseEventParser.Listener {

  private final HttpResponseParser http = new HttpResponseParser(this);
  private final SseEventParser sse = new SseEventParser(this);

  /**
   * What splits the body into events: SSE, or NDJSON lines for a body labelled
   * application/x-ndjson.
   */
  private EventParser events = sse;

  private final FrameDecoder decoder = new FrameDecoder();
  private final int expectedFrames;

  /** What the request's Accept-Encoding accepted: the codings the body may arrive in. */
  private final Set<ContentCoding> accepted;

  /** The body, counted and decoded on its way to {@link #events}. */
  private final BodyIntake body = new BodyIntake((b, off, len) -> events.feed(b, off, len));

  private final FrameIntegrity integrity = new FrameIntegrity();

  private long requestWrittenNanos = -1;

  /** When the stream ended, cleanly or not (System.nanoTime), or -1 while it runs. */
  private long endedAtNanos = -1;

  private long readNanos;
  private int framesThisRead;
  private int frames;
  private long firstFrameNanos = -1;

  /** The read that completed the response head. */
  private long headReadNanos = -1;

  /**
   * The read that brought the first body byte (a comment, an announcement or a frame, whatever came
   * first).
   */
  private long bodyReadNanos = -1;

  private final String askedType;
  private long lastFrameNanos;
  private boolean sawDone;
  private boolean headSeen;
  private boolean complete;
  private boolean serverWillClose;

  /** Set for a non-200 answer: its body (first line) is collected for the error message. */
  private BadStatus badStatus;

  private int status;
  private long streamId = -1;
  private StreamError error;
  private String errorMessage;

  private final LongSamples gaps;
  private final LongSamples emitToRecv;
  private ContentCoding coding;
  private final ReadSeries readSeries;

  /** The stream's releases, read by read. */
  private final ReleaseMeter releases;

  private final int fullReadBytes;

  /**
   * @param expectedFrames frames the request asked for, or -1 when unknown
   */
  public StreamMeter(int expectedFrames) {
    this(expectedFrames, 65536, Set.of(), StreamSpec.DEFAULT_CONTENT_TYPE);
  }

  /**
   * @param fullReadBytes the most one read returns (the receive buffer): a read that size means
   *     more was waiting
   * @param accepted the content codings the request accepted (its Accept-Encoding): the client
   *     decodes those
   * @param askedType the Content-Type the lab's emitter was asked to label its SSE events with
   *     ({@code content_type=}): an answer carrying it is read as SSE, as one carrying
   *     text/event-stream is
   */
  public StreamMeter(
      int expectedFrames, int fullReadBytes, Set<ContentCoding> accepted, String askedType) {
    this.askedType = askedType;
    this.expectedFrames = expectedFrames;
    this.accepted = accepted;
    this.fullReadBytes = fullReadBytes;
    int cap = expectedFrames > 0 ? Math.min(expectedFrames, 1 << 16) : 256;
    gaps = new LongSamples(cap);
    emitToRecv = new LongSamples(cap);
    // A paced stream reads about one frame per read and releases it alone: sized for that up front,
    // the per-read and per-release series do not grow by doubling on the reading loop (that was 5
    // of
    // the 11 MB a client reading 100 streams of 200 frames allocated while it measured).
    int perRead = Math.min(cap, 1024) + 4;
    readSeries = new ReadSeries(perRead);
    releases = new ReleaseMeter(perRead);
  }

  public void requestWritten(long nanos) {
    requestWrittenNanos = nanos;
  }

  /** Frames counted so far. */
  public int framesSoFar() {
    return frames;
  }

  /** A time since the request was written (0 before it was). */
  public long sinceRequest(long nanos) {
    return requestWrittenNanos < 0 ? 0 : nanos - requestWrittenNanos;
  }

  /**
   * One read from the kernel, taken at {@code nowNanos} (System.nanoTime when the read returned).
   */
  public void onRead(long nowNanos, byte[] b, int off, int len) {
    onRead(nowNanos, b, off, len, len >= fullReadBytes);
  }

  /**
   * The same, saying whether the socket read filled the receive buffer (more was waiting): under
   * TLS that is the ciphertext read, which the plaintext length cannot tell (a record finished from
   * the read before can make a read's plaintext longer than the buffer).
   */
  public void onRead(long nowNanos, byte[] b, int off, int len, boolean socketReadFull) {
    onRead(nowNanos, b, off, len, socketReadFull, len);
  }

  /**
   * The same, for a read whose {@code wireBytes} came over HTTP/2: {@code b} holds what they meant
   * for this stream as HTTP/1.1 bytes (see H2ClientSession); the counts of bytes are the wire's.
   */
  public void onRead(
      long nowNanos, byte[] b, int off, int len, boolean socketReadFull, int wireBytes) {
    if (error != null || complete) {
      return; // bytes after an error or after the end do not count as measurements
    }
    readNanos = nowNanos;
    framesThisRead = 0;
    releases.readBegins(nowNanos, socketReadFull);
    readSeries.read(wireBytes);
    int timedBefore = emitToRecv.size();
    long decodedBefore = body.decodedBytes();
    long bodyBefore = body.wireBytes();
    try {
      http.feed(b, off, len);
    } catch (HttpParseException e) {
      fail(
          e.speaksHttp2Only()
              ? StreamError.HTTP2_ONLY
              : e.notHttp() ? StreamError.NOT_HTTP : StreamError.PROTOCOL,
          e.getMessage());
    }
    long decodedNow = body.decodedBytes() - decodedBefore;
    long bodyNow = body.wireBytes() - bodyBefore;
    readSeries.parsed(nowNanos, wireBytes, decodedNow, framesThisRead);
    releases.readEnds(
        nowNanos, wireBytes, decodedNow, bodyNow, framesThisRead, emitToRecv, timedBefore);
  }

  /** The client has finished with the last read (parsed it): from now on it waits for the next. */
  public void readDone(long nowNanos) {
    releases.readDone(nowNanos);
  }

  @Override
  public void onHead(int status, String reason, Headers headers) {
    this.status = status;
    headSeen = true;
    if (headReadNanos < 0) headReadNanos = readNanos;
    serverWillClose =
        headers.has("Connection", "close")
            || (headers.get("Content-Length") == null && headers.get("Transfer-Encoding") == null);
    String id = headers.get("X-Flushlab-Stream");
    if (id != null) {
      try {
        streamId = Long.parseLong(id.trim());
      } catch (NumberFormatException ignored) {
        // a proxy mangled it; the stream is still measurable
      }
    }
    if (status != 200) {
      badStatus = new BadStatus(status, reason);
      return;
    }
    String type = headers.get("Content-Type");
    boolean ndjson = type != null && MediaTypes.isNdjson(type);
    if (ndjson) events = new NdjsonParser(this);
    String notAStream = AnswerChecks.notAStream(type, ndjson, askedType);
    if (notAStream != null) fail(StreamError.NOT_SSE, notAStream);
    String encoding = headers.get("Content-Encoding");
    if (encoding != null && !encoding.isBlank() && !encoding.trim().equalsIgnoreCase("identity"))
      decodeAs(encoding.trim());
  }

  /** The body arrives in a content coding: decoded, or the stream fails ({@link AnswerChecks}). */
  private void decodeAs(String encoding) {
    AnswerChecks.Decoding d = AnswerChecks.decoding(encoding, accepted);
    if (d.coding() == null) {
      fail(d.refused(), d.why());
    } else {
      body.decodeAs(d.coding());
      this.coding = d.coding();
    }
  }

  @Override
  public void onBody(byte[] b, int off, int len) {
    if (error != null) return;
    if (badStatus != null) {
      badStatus.body(b, off, len);
      return;
    }
    if (bodyReadNanos < 0 && len > 0) bodyReadNanos = readNanos;
    try {
      body.feed(b, off, len);
    } catch (BodyDecoder.Corrupt e) {
      fail(StreamError.ENCODING_CORRUPT, e.getMessage());
    }
  }

  @Override
  public void onComplete() {
    if (badStatus != null) {
      failBadStatus();
    } else if (error == null) {
      ended();
    }
  }

  /**
   * The response ended cleanly as HTTP: it is complete unless its compressed body was cut short, or
   * not one frame arrived (a stream that could not be read is an error, never a measurement).
   */
  private void ended() {
    try {
      body.finish();
    } catch (BodyDecoder.Corrupt e) {
      fail(StreamError.ENCODING_CORRUPT, e.getMessage());
      return;
    }
    if (frames == 0) {
      fail(
          StreamError.NO_FRAMES,
          "the response ended after "
              + body.decodedBytes()
              + " body bytes without a single frame"
              + (expectedFrames > 0 ? " of the " + expectedFrames + " asked for" : ""));
      return;
    }
    complete = true;
    endedAtNanos = System.nanoTime();
  }

  private void failBadStatus() {
    fail(StreamError.HTTP_STATUS, badStatus.message());
  }

  @Override
  public void onEvent(byte[] data, int len) {
    if (error != null) return;
    FrameKind kind = decoder.decode(data, len);
    switch (kind) {
      case CONTROL:
        return;
      case DONE:
        sawDone = true;
        return;
      case CORRUPT:
        integrity.corrupt();
        countArrival();
        return;
      case UNCHECKED_FRAME:
        integrity.unchecked();
        countArrival();
        return;
      case FRAME:
      default:
        countArrival();
        emitToRecv.add(LabClock.toEpochNanos(readNanos) - decoder.emitEpochNanos);
        integrity.arrived(decoder.seq);
    }
  }

  private void countArrival() {
    frames++;
    framesThisRead++;
    if (firstFrameNanos < 0) {
      firstFrameNanos = readNanos;
    } else {
      gaps.add(readNanos - lastFrameNanos);
    }
    lastFrameNanos = readNanos;
  }

  /** The connection closed; decides between a clean end and a truncation. */
  public void connectionClosed() {
    if (error != null || complete) return;
    if (badStatus != null) {
      failBadStatus();
      return;
    }
    if (http.connectionClosed() && headSeen) {
      ended();
    } else if (!headSeen && !http.sawAnyByte()) {
      fail(StreamError.TRUNCATED, "the connection closed before any response byte arrived");
    } else {
      fail(
          StreamError.TRUNCATED,
          "the connection closed after "
              + readSeries.bytes()
              + " bytes, before the response ended");
    }
  }

  public void fail(StreamError kind, String message) {
    if (error == null && !complete) {
      error = kind;
      errorMessage = message;
      endedAtNanos = System.nanoTime();
      body.close(); // its native memory, at once
    }
  }

  StreamResult failAndResult(StreamError kind, String message) {
    fail(kind, message);
    return result();
  }

  public boolean finished() {
    return complete || error != null;
  }

  /** The response said the server closes the connection after it. */
  public boolean serverWillClose() {
    return serverWillClose;
  }

  public boolean complete() {
    return complete;
  }

  /** The immutable result; call once the stream has finished. */
  public StreamResult result() {
    return new StreamResult(
        streamId,
        status,
        error,
        errorMessage,
        complete,
        sawDone,
        coding,
        integrity.result(expectedFrames, frames, error != null),
        readSeries.result(body.wireBytes(), body.decodedBytes()),
        new StreamResult.Timing(
            fromRequest(firstFrameNanos),
            gaps,
            emitToRecv,
            fromRequest(headReadNanos),
            fromRequest(bodyReadNanos),
            requestWrittenNanos,
            fromRequest(endedAtNanos)),
        releases.result(),
        null);
  }

  /** From the request written to {@code nanos}; -1 when either is not known (-1). */
  private long fromRequest(long nanos) {
    return nanos >= 0 && requestWrittenNanos >= 0 ? nanos - requestWrittenNanos : -1;
  }
}
