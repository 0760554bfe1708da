package flushlab.client;

import flushlab.coding.BodyDecoder;
import flushlab.coding.ByteSink;
import flushlab.coding.ContentCoding;
import flushlab.core.LabClock;
import flushlab.core.LongSamples;
import flushlab.core.Named;
import flushlab.http.EventParser;
import flushlab.http.Headers;
import flushlab.http.HttpParseException;
import flushlab.http.HttpResponseParser;
import flushlab.http.NdjsonParser;
import flushlab.http.SseEventParser;
import flushlab.stream.MediaTypes;
import flushlab.stream.StreamSpec;
import java.util.BitSet;
import java.util.Set;

/**
 * Counts what each read from the kernel delivers for one response: bytes, frames completed, when.
 * Feed it every read with the time the read returned; it parses HTTP and SSE incrementally and
 * keeps per-frame samples in primitive arrays (the per-read path allocates only when an array
 * doubles). Confined to one event loop.
 */
public final class StreamMeter implements HttpResponseParser.Listener, SseEventParser.Listener {
  /** Sequence numbers above this are taken as corruption rather than tracked. */
  private static final int MAX_TRACKED_SEQ = 16_000_000;

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

  /** Undoes the body's Content-Encoding, when it has one; null for a body as sent. */
  private BodyDecoder bodyDecoder;

  private final ByteSink toSse = this::decoded;
  private long bodyBytes;

  /** Body bytes as they came (after de-chunking, before decoding). */
  private long wireBodyBytes;

  private final BitSet seen = new BitSet();

  private long requestWrittenNanos = -1;

  /** When the stream ended, cleanly or not (System.nanoTime), or -1 while it runs. */
  private long endedAtNanos = -1;

  private long readNanos;
  private int framesThisRead;
  private int reads;
  private int readsWithFrames;
  private long bytes;
  private int frames;
  private int unchecked;
  private int corrupt;
  private int duplicated;
  private int reordered;
  private long maxSeq = -1;
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
  private String badStatus;

  private final StringBuilder badBody = new StringBuilder();
  private int status;
  private long streamId = -1;
  private StreamError error;
  private String errorMessage;

  private final LongSamples gaps;
  private final LongSamples emitToRecv;
  private final LongSamples bytesPerRead;
  private final LongSamples decodedPerRead;
  private ContentCoding coding;
  private final LongSamples bursts;
  private final LongSamples burstBytes;

  /**
   * When each read that completed a frame returned (System.nanoTime), beside its frames in {@code
   * bursts}.
   */
  private final LongSamples framedReadAt;

  /**
   * Start time, bytes, frames and oldest wait of each release. A release is one burst from the
   * sender however many reads it takes: a read continues the burst of the read before it when the
   * client had not been waiting for it, that is, when it returned less than {@link
   * #RELEASE_MERGE_NANOS} after the client finished with the read before (the data was already
   * there), or when that read filled the whole receive buffer (the kernel had more waiting), or
   * when it carries frames that were held back with the read before's and came in parts ({@link
   * #RELEASE_PART_GAP_NANOS}). A 1 MiB burst is 16 reads that can be milliseconds apart while the
   * client parses them; it is still one release.
   */
  private final LongSamples releaseStarts;

  private final LongSamples releaseBytes;
  private final LongSamples releaseDecoded;
  private final LongSamples releaseBody;
  private final LongSamples releaseFrames;

  /**
   * How long the oldest frame of each release waited: its emit-to-receive delay (0 when unknown).
   */
  private final LongSamples releaseWaits;

  private final int fullReadBytes;
  private long lastReadDoneNanos;
  private boolean lastReadFull;
  private int burst;
  private int releaseBurst = -1;
  public static final long RELEASE_MERGE_NANOS = 1_000_000L;

  /**
   * A read that came up to this long after the client finished with the one before continues that
   * one's release when it carries frames the path had held back together with it: frames the
   * emitter wrote over a span more than {@link #HELD_SPAN_FACTOR} times that gap (and over {@link
   * #HELD_SPAN_MIN_NANOS}). On a path that streams, a read carries what was written since the read
   * before, over about the time between them; 80 ms of frames 2 ms after the last piece were
   * waiting together and reached the client in parts (a proxy writing one release in pieces, TCP
   * sending a large one as its window opens). Read as releases of their own, the parts made one
   * release of a hold look like several, 1-4 ms apart.
   */
  public static final long RELEASE_PART_GAP_NANOS = 5_000_000L;

  static final int HELD_SPAN_FACTOR = 4;
  static final long HELD_SPAN_MIN_NANOS = 2_000_000L;

  /**
   * @param expectedFrames frames the request asked for, or -1 when unknown
   */
  public StreamMeter(int expectedFrames) {
    this(expectedFrames, 65536);
  }

  /**
   * @param expectedFrames frames the request asked for, or -1 when unknown
   * @param fullReadBytes the most one read returns (the receive buffer): a read that size means
   *     more was waiting
   */
  public StreamMeter(int expectedFrames, int fullReadBytes) {
    this(expectedFrames, fullReadBytes, Set.of());
  }

  /**
   * @param accepted the content codings the request accepted (its Accept-Encoding): the client
   *     decodes those
   */
  public StreamMeter(int expectedFrames, int fullReadBytes, Set<ContentCoding> accepted) {
    this(expectedFrames, fullReadBytes, accepted, StreamSpec.DEFAULT_CONTENT_TYPE);
  }

  /**
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
    bytesPerRead = new LongSamples(perRead);
    decodedPerRead = new LongSamples(perRead);
    bursts = new LongSamples(perRead);
    burstBytes = new LongSamples(perRead);
    framedReadAt = new LongSamples(perRead);
    releaseStarts = new LongSamples(perRead);
    releaseBytes = new LongSamples(perRead);
    releaseDecoded = new LongSamples(perRead);
    releaseBody = new LongSamples(perRead);
    releaseFrames = new LongSamples(perRead);
    releaseWaits = new LongSamples(perRead);
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
    long sinceLastRead = nowNanos - lastReadDoneNanos;
    boolean apart = reads > 0 && sinceLastRead >= RELEASE_MERGE_NANOS && !lastReadFull;
    if (apart) burst++;
    lastReadDoneNanos = nowNanos; // until readDone() says when the client finished with this read
    lastReadFull = socketReadFull;
    reads++;
    bytes += wireBytes;
    bytesPerRead.add(wireBytes);
    int timedBefore = emitToRecv.size();
    long decodedBefore = bodyBytes();
    long bodyBefore = wireBodyBytes;
    try {
      http.feed(b, off, len);
    } catch (HttpParseException e) {
      fail(
          e.speaksHttp2Only()
              ? StreamError.HTTP2_ONLY
              : e.notHttp() ? StreamError.NOT_HTTP : StreamError.PROTOCOL,
          e.getMessage());
    }
    long decodedNow = bodyBytes() - decodedBefore;
    long bodyNow = wireBodyBytes - bodyBefore;
    decodedPerRead.add(decodedNow);
    if (framesThisRead > 0) {
      if (apart && releaseBurst == burst - 1 && partOfTheReleaseBefore(sinceLastRead, timedBefore))
        burst = releaseBurst;
      if (releaseBurst != burst) {
        releaseBurst = burst;
        releaseStarts.add(nowNanos);
        releaseBytes.add(wireBytes);
        releaseDecoded.add(decodedNow);
        releaseBody.add(bodyNow);
        releaseFrames.add(framesThisRead);
        releaseWaits.add(emitToRecv.size() > timedBefore ? emitToRecv.get(timedBefore) : 0);
      } else {
        int last = releaseStarts.size() - 1;
        releaseBytes.set(last, releaseBytes.get(last) + wireBytes);
        releaseDecoded.set(last, releaseDecoded.get(last) + decodedNow);
        releaseBody.set(last, releaseBody.get(last) + bodyNow);
        releaseFrames.set(last, releaseFrames.get(last) + framesThisRead);
      }
      readsWithFrames++;
      bursts.add(framesThisRead);
      burstBytes.add(wireBytes);
      framedReadAt.add(nowNanos);
    } else if (releaseBurst == burst && releaseStarts.size() > 0) {
      // a read in the middle of a burst that completed no frame (a large frame's middle): its bytes
      // belong to the release
      int last = releaseStarts.size() - 1;
      releaseBytes.set(last, releaseBytes.get(last) + wireBytes);
      releaseDecoded.set(last, releaseDecoded.get(last) + decodedNow);
      releaseBody.set(last, releaseBody.get(last) + bodyNow);
    }
  }

  /**
   * Whether this read, {@code sinceLastRead} after the client finished with the read before, is a
   * part of that read's release (see {@link #RELEASE_PART_GAP_NANOS}): the frames it timed (from
   * index {@code timedFrom} of the emit-to-receive series) were written over a span much longer
   * than the gap. Frames without the emitter's stamp cannot say, and leave the read a release.
   */
  private boolean partOfTheReleaseBefore(long sinceLastRead, int timedFrom) {
    int timed = emitToRecv.size() - timedFrom;
    if (sinceLastRead >= RELEASE_PART_GAP_NANOS || timed < 2) return false;
    long least = Long.MAX_VALUE;
    long most = Long.MIN_VALUE;
    for (int i = timedFrom; i < emitToRecv.size(); i++) {
      long waited = emitToRecv.get(i);
      least = Math.min(least, waited);
      most = Math.max(most, waited);
    }
    return most - least > Math.max(HELD_SPAN_FACTOR * sinceLastRead, HELD_SPAN_MIN_NANOS);
  }

  /** The client has finished with the last read (parsed it): from now on it waits for the next. */
  public void readDone(long nowNanos) {
    lastReadDoneNanos = nowNanos;
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
      badStatus = "HTTP " + status + " " + reason;
      return;
    }
    String type = headers.get("Content-Type");
    boolean ndjson = type != null && MediaTypes.isNdjson(type);
    if (ndjson) events = new NdjsonParser(this);
    boolean asked = ndjson || type != null && type.trim().equalsIgnoreCase(askedType);
    if (!asked && (type == null || !type.toLowerCase().startsWith("text/event-stream"))) {
      fail(
          StreamError.NOT_SSE,
          "Content-Type is "
              + (type == null ? "missing" : "'" + type + "'")
              + ", not text/event-stream"
              + (askedType.equals(StreamSpec.DEFAULT_CONTENT_TYPE)
                  ? ""
                  : " nor the '" + askedType + "' asked for")
              + " (NDJSON is read too)");
    }
    String encoding = headers.get("Content-Encoding");
    if (encoding != null && !encoding.isBlank() && !encoding.trim().equalsIgnoreCase("identity"))
      decodeAs(encoding.trim());
  }

  /**
   * The body arrives in a content coding: decode it if the request asked for it and the client can,
   * else fail the stream.
   */
  private void decodeAs(String encoding) {
    ContentCoding coding = encoding.contains(",") ? null : ContentCoding.named(encoding);
    if (coding == null) {
      fail(
          StreamError.ENCODING_UNKNOWN,
          "Content-Encoding is '"
              + encoding
              + "', which this client does not decode (it decodes "
              + String.join(", ", Named.texts(ContentCoding.class))
              + ")");
    } else if (!accepted.contains(coding)) {
      fail(
          StreamError.ENCODING_NOT_ASKED,
          "the body is "
              + coding.text()
              + ", which the request did not accept ("
              + (accepted.isEmpty() ? "it sent no Accept-Encoding" : "it accepted " + accepted)
              + ")");
    } else {
      bodyDecoder = BodyDecoder.of(coding);
      this.coding = coding;
    }
  }

  /** Decoded body bytes: the SSE parser sees the body as it was before the content coding. */
  private void decoded(byte[] b, int off, int len) {
    events.feed(b, off, len);
  }

  @Override
  public void onBody(byte[] b, int off, int len) {
    if (error != null) return;
    if (badStatus != null) {
      for (int i = off; i < off + len && badBody.length() < 300; i++)
        badBody.append((char) (b[i] & 0xff));
      return;
    }
    if (bodyReadNanos < 0 && len > 0) bodyReadNanos = readNanos;
    wireBodyBytes += len;
    if (bodyDecoder == null) {
      bodyBytes += len;
      events.feed(b, off, len);
      return;
    }
    try {
      bodyDecoder.feed(b, off, len, toSse);
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
    if (bodyDecoder != null) {
      try {
        bodyDecoder.finish();
      } catch (BodyDecoder.Corrupt e) {
        fail(StreamError.ENCODING_CORRUPT, e.getMessage());
        return;
      }
    }
    if (frames == 0) {
      fail(
          StreamError.NO_FRAMES,
          "the response ended after "
              + bodyBytes()
              + " body bytes without a single frame"
              + (expectedFrames > 0 ? " of the " + expectedFrames + " asked for" : ""));
      return;
    }
    complete = true;
    endedAtNanos = System.nanoTime();
  }

  /** Body bytes as the SSE parser saw them (decoded, when the body had a content coding). */
  private long bodyBytes() {
    return bodyDecoder == null ? bodyBytes : bodyDecoder.decodedBytes();
  }

  private void failBadStatus() {
    String body = badBody.toString().trim();
    int nl = body.indexOf('\n');
    if (nl >= 0) body = body.substring(0, nl).trim();
    fail(StreamError.HTTP_STATUS, badStatus + (body.isEmpty() ? "" : ": " + body));
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
        corrupt++;
        countArrival();
        return;
      case UNCHECKED_FRAME:
        unchecked++;
        countArrival();
        return;
      case FRAME:
      default:
        countArrival();
        emitToRecv.add(LabClock.toEpochNanos(readNanos) - decoder.emitEpochNanos);
        track(decoder.seq);
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

  private void track(long seq) {
    if (seq > MAX_TRACKED_SEQ) {
      corrupt++;
      return;
    }
    int s = (int) seq;
    if (seen.get(s)) {
      duplicated++;
    } else {
      if (s < maxSeq) reordered++;
      seen.set(s);
    }
    if (s > maxSeq) maxSeq = s;
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
          "the connection closed after " + bytes + " bytes, before the response ended");
    }
  }

  public void fail(StreamError kind, String message) {
    if (error == null && !complete) {
      error = kind;
      errorMessage = message;
      endedAtNanos = System.nanoTime();
      if (bodyDecoder != null) bodyDecoder.close(); // its native memory, at once
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
    int distinct = seen.cardinality();
    int lost;
    if (expectedFrames > 0) {
      lost = Math.max(0, expectedFrames - distinct - (unchecked > 0 ? unchecked : 0));
    } else {
      lost = (int) Math.max(0, maxSeq + 1 - distinct);
    }
    if (error != null && expectedFrames <= 0) lost = 0; // unknown how many were planned
    long ttft =
        firstFrameNanos >= 0 && requestWrittenNanos >= 0
            ? firstFrameNanos - requestWrittenNanos
            : -1;
    // The last release is the end-of-stream flush, not the trigger, and the first carries the
    // response head (a byte threshold counts it): both are left out of the release stats. The
    // gaps run from the first release's start to the last's.
    int last = releaseStarts.size() - 1;
    int kept = Math.max(0, last - 1);
    LongSamples relBytes = new LongSamples(Math.max(1, kept));
    LongSamples relDecoded = new LongSamples(Math.max(1, kept));
    LongSamples relBody = new LongSamples(Math.max(1, kept));
    LongSamples relFrames = new LongSamples(Math.max(1, kept));
    LongSamples relGaps = new LongSamples(Math.max(1, kept));
    LongSamples relWaits = new LongSamples(Math.max(1, kept));
    for (int i = 1; i < last; i++) {
      relBytes.add(releaseBytes.get(i));
      relDecoded.add(releaseDecoded.get(i));
      relBody.add(releaseBody.get(i));
      relFrames.add(releaseFrames.get(i));
      relWaits.add(releaseWaits.get(i));
      relGaps.add(releaseStarts.get(i) - releaseStarts.get(i - 1));
    }
    return new StreamResult(
        streamId,
        status,
        error,
        errorMessage,
        complete,
        sawDone,
        coding,
        new StreamResult.Integrity(
            expectedFrames, frames, lost, duplicated, reordered, corrupt, unchecked),
        new StreamResult.Reads(
            reads,
            readsWithFrames,
            bytes,
            wireBodyBytes,
            bodyBytes(),
            bytesPerRead,
            decodedPerRead,
            bursts,
            burstBytes,
            framedReadAt),
        new StreamResult.Timing(
            ttft,
            gaps,
            emitToRecv,
            headReadNanos >= 0 && requestWrittenNanos >= 0
                ? headReadNanos - requestWrittenNanos
                : -1,
            bodyReadNanos >= 0 && requestWrittenNanos >= 0
                ? bodyReadNanos - requestWrittenNanos
                : -1,
            requestWrittenNanos,
            endedAtNanos >= 0 && requestWrittenNanos >= 0
                ? endedAtNanos - requestWrittenNanos
                : -1),
        new StreamResult.Releases(
            releaseStarts.size(), relBytes, relBody, relDecoded, relFrames, relGaps, relWaits),
        null);
  }
}
