package flushlab.client;

import flushlab.coding.ContentCoding;
import flushlab.core.LongSamples;

/**
 * What one stream measured, grouped by meaning. Times are nanoseconds. A stream with an {@link
 * #error()} is reported as an error, not as a measurement: its samples are kept for inspection but
 * never aggregated.
 *
 * @param streamId the emitter's stream id (X-Flushlab-Stream), or -1
 * @param status the HTTP status, or 0 when no head arrived
 * @param coding the body's Content-Encoding, or null for a body sent as it is
 * @param h2 what its HTTP/2 connection recorded, or null over HTTP/1.x
 */
public record StreamResult(
    long streamId,
    int status,
    StreamError error,
    String errorMessage,
    boolean complete,
    boolean sawDone,
    ContentCoding coding,
    Integrity integrity,
    Reads reads,
    Timing timing,
    Releases releases,
    H2Stats h2) {

  /** The same result with what its HTTP/2 connection recorded. */
  public StreamResult withH2(H2Stats stats) {
    return new StreamResult(
        streamId,
        status,
        error,
        errorMessage,
        complete,
        sawDone,
        coding,
        integrity,
        reads,
        timing,
        releases,
        stats);
  }

  /** Frames by sequence number and checksum: what arrived, against what was asked for. */
  public record Integrity(
      int expectedFrames,
      int frames,
      int lost,
      int duplicated,
      int reordered,
      int corrupt,
      int unchecked) {}

  /**
   * The reads from the kernel: how many, how many completed a frame, and what each carried. {@code
   * bytes} are wire bytes (head, chunk framing and compressed body included); {@code bodyBytes} the
   * body as it came, its chunk framing removed (compressed, when it was); {@code decodedBodyBytes}
   * the body as the SSE parser saw it, after its content coding was undone; {@code decodedPerRead}
   * what each read's wire bytes let the decoder release (equal to the body bytes of the read when
   * the body has no coding); {@code framedReadAt} when each read that completed a frame returned
   * (this host's System.nanoTime), in the order of {@code framesPerFramedRead}: what a stall of
   * this host is held against.
   */
  public record Reads(
      int count,
      int withFrames,
      long bytes,
      long bodyBytes,
      long decodedBodyBytes,
      LongSamples bytesPerRead,
      LongSamples decodedPerRead,
      LongSamples framesPerFramedRead,
      LongSamples bytesPerFramedRead,
      LongSamples framedReadAt) {}

  /**
   * Time to first frame (-1 when none arrived), the gaps between frames, and each frame's
   * emit-to-receive delay.
   */
  /**
   * @param headNanos from the request written to the read that completed the response head (-1 when
   *     none came): a proxy that withholds the head until the first body byte makes it the time to
   *     the first frame
   * @param firstBodyNanos from the request to the read that brought the first body byte, whatever
   *     it was (a comment, an announcing event, a frame); -1 when none came: a gateway that holds
   *     everything until the first content makes it the time to the first frame
   */
  /**
   * @param requestNanos when the request was written (this host's System.nanoTime; -1 when it never
   *     was): where the other times start, and what the host's stalls are placed against
   * @param endNanos from the request to when the stream ended, cleanly or not (-1 when it was never
   *     requested): a target's idle timeout is read from when it cut a silent stream
   */
  public record Timing(
      long ttftNanos,
      LongSamples gapNanos,
      LongSamples emitToRecvNanos,
      long headNanos,
      long firstBodyNanos,
      long requestNanos,
      long endNanos) {}

  /**
   * Releases: bursts from the sender, however many reads each took (see {@link StreamMeter}).
   * {@code count} is all of them; the samples leave out the first (it carries the response head)
   * and the last (the end-of-stream flush). {@code bytes} are wire bytes, {@code bodyBytes} the
   * body bytes among them (chunk framing removed, still compressed when the body was), {@code
   * decodedBytes} the body bytes they released once decoded; {@code waitNanos} is how long each
   * release's oldest frame waited (emit to receive).
   */
  public record Releases(
      int count,
      LongSamples bytes,
      LongSamples bodyBytes,
      LongSamples decodedBytes,
      LongSamples frames,
      LongSamples gapNanos,
      LongSamples waitNanos) {}

  public boolean ok() {
    return error == null;
  }

  /**
   * The peer ended the stream before its frames: closed, reset, or answered 502/504, as a proxy
   * does for an upstream it cut (what an idle timeout does to a stream that sat silent).
   */
  public boolean cutByThePeer() {
    return error == StreamError.TRUNCATED
        || error == StreamError.RESET
        || error == StreamError.NO_FRAMES
        || error == StreamError.HTTP_STATUS && (status == 502 || status == 504);
  }

  /** Frames divided by the reads that completed at least one frame; 0 when no frame arrived. */
  public double framesPerRead() {
    return reads.withFrames() == 0 ? 0 : (double) integrity.frames() / reads.withFrames();
  }

  public static StreamResult connectFailed(String message) {
    return new StreamMeter(-1).failAndResult(StreamError.CONNECT_FAILED, message);
  }

  /**
   * These results with their one-way times (emit to receive, each release's wait) {@code delta} ns
   * less: moved by the difference of two agents' clocks.
   */
  public StreamResult withOneWayTimesLess(long delta) {
    if (delta == 0 || !ok()) return this;
    Timing t = timing();
    Releases r = releases();
    return new StreamResult(
        streamId(),
        status(),
        error(),
        errorMessage(),
        complete(),
        sawDone(),
        coding(),
        integrity(),
        reads(),
        new Timing(
            t.ttftNanos(),
            t.gapNanos(),
            less(t.emitToRecvNanos(), delta),
            t.headNanos(),
            t.firstBodyNanos(),
            t.requestNanos(),
            t.endNanos()),
        new Releases(
            r.count(),
            r.bytes(),
            r.bodyBytes(),
            r.decodedBytes(),
            r.frames(),
            r.gapNanos(),
            less(r.waitNanos(), delta)),
        h2());
  }

  private static LongSamples less(LongSamples in, long delta) {
    if (in == null) return null;
    LongSamples out = new LongSamples(in.size());
    for (int i = 0; i < in.size(); i++) out.add(in.get(i) - delta);
    return out;
  }
}
