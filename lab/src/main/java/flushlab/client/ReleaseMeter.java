package flushlab.client;

import flushlab.core.LongSamples;

/**
 * A stream's releases as its reads show them: start time, bytes, frames and oldest wait of each. A
 * release is one burst from the sender however many reads it takes: a read continues the burst of
 * the read before it when the client had not been waiting for it, that is, when it returned less
 * than {@link #RELEASE_MERGE_NANOS} after the client finished with the read before (the data was
 * already there), or when that read filled the whole receive buffer (the kernel had more waiting),
 * or when it carries frames that were held back with the read before's and came in parts ({@link
 * #RELEASE_PART_GAP_NANOS}). A 1 MiB burst is 16 reads that can be milliseconds apart while the
 * client parses them; it is still one release. On the reading loop: nothing here allocates once the
 * series are sized.
 */
final class ReleaseMeter {
  static final long RELEASE_MERGE_NANOS = 1_000_000L;

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
  static final long RELEASE_PART_GAP_NANOS = 5_000_000L;

  static final int HELD_SPAN_FACTOR = 4;
  static final long HELD_SPAN_MIN_NANOS = 2_000_000L;

  private final LongSamples starts;
  private final LongSamples bytes;
  private final LongSamples decoded;
  private final LongSamples body;
  private final LongSamples frames;

  /**
   * How long the oldest frame of each release waited: its emit-to-receive delay (0 when unknown).
   */
  private final LongSamples waits;

  private int reads;
  private long lastReadDoneNanos;
  private boolean lastReadFull;
  private int burst;
  private int releaseBurst = -1;

  /** This read's: whether it came apart from the one before, and how long after it. */
  private boolean apart;

  private long sinceLastRead;

  /**
   * Each series sized for {@code perRead} entries up front: a paced stream's reads, one a frame.
   */
  ReleaseMeter(int perRead) {
    starts = new LongSamples(perRead);
    bytes = new LongSamples(perRead);
    decoded = new LongSamples(perRead);
    body = new LongSamples(perRead);
    frames = new LongSamples(perRead);
    waits = new LongSamples(perRead);
  }

  /**
   * A read returned at {@code nowNanos}, before it is parsed: whether it starts a burst of its own
   * ({@code socketReadFull}: it filled the receive buffer, so more was waiting).
   */
  void readBegins(long nowNanos, boolean socketReadFull) {
    sinceLastRead = nowNanos - lastReadDoneNanos;
    apart = reads > 0 && sinceLastRead >= RELEASE_MERGE_NANOS && !lastReadFull;
    if (apart) burst++;
    lastReadDoneNanos = nowNanos; // until readDone() says when the client finished with this read
    lastReadFull = socketReadFull;
    reads++;
  }

  /**
   * The read, parsed: its wire bytes, the body bytes it decoded and carried, the frames it
   * completed, and the emit-to-receive series, whose entries from {@code timedFrom} are its
   * frames'.
   */
  void readEnds(
      long nowNanos,
      int wireBytes,
      long decodedNow,
      long bodyNow,
      int framesNow,
      LongSamples emitToRecv,
      int timedFrom) {
    if (framesNow > 0) {
      if (apart && releaseBurst == burst - 1 && partOfTheReleaseBefore(emitToRecv, timedFrom))
        burst = releaseBurst;
      if (releaseBurst != burst) {
        releaseBurst = burst;
        starts.add(nowNanos);
        bytes.add(wireBytes);
        decoded.add(decodedNow);
        body.add(bodyNow);
        frames.add(framesNow);
        waits.add(emitToRecv.size() > timedFrom ? emitToRecv.get(timedFrom) : 0);
        return;
      }
    } else if (releaseBurst != burst || starts.size() == 0) {
      return;
    }
    // a read that continues the release (a large frame's middle, if it completed none)
    int last = starts.size() - 1;
    bytes.set(last, bytes.get(last) + wireBytes);
    decoded.set(last, decoded.get(last) + decodedNow);
    body.set(last, body.get(last) + bodyNow);
    if (framesNow > 0) frames.set(last, frames.get(last) + framesNow);
  }

  /** The client has finished with the last read (parsed it): from now on it waits for the next. */
  void readDone(long nowNanos) {
    lastReadDoneNanos = nowNanos;
  }

  /**
   * Whether this read is a part of the read before's release (see {@link #RELEASE_PART_GAP_NANOS}):
   * the frames it timed were written over a span much longer than the gap. Frames without the
   * emitter's stamp cannot say, and leave the read a release.
   */
  private boolean partOfTheReleaseBefore(LongSamples emitToRecv, int timedFrom) {
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

  /**
   * The releases as a result keeps them: all counted, and the distributions without the first (it
   * carries the response head: a byte threshold counts it) and the last (the end-of-stream flush,
   * not the trigger); the gaps run from the first release's start to the last's.
   */
  StreamResult.Releases result() {
    int last = starts.size() - 1;
    int kept = Math.max(1, last - 1);
    LongSamples relBytes = new LongSamples(kept);
    LongSamples relDecoded = new LongSamples(kept);
    LongSamples relBody = new LongSamples(kept);
    LongSamples relFrames = new LongSamples(kept);
    LongSamples relGaps = new LongSamples(kept);
    LongSamples relWaits = new LongSamples(kept);
    for (int i = 1; i < last; i++) {
      relBytes.add(bytes.get(i));
      relDecoded.add(decoded.get(i));
      relBody.add(body.get(i));
      relFrames.add(frames.get(i));
      relWaits.add(waits.get(i));
      relGaps.add(starts.get(i) - starts.get(i - 1));
    }
    return new StreamResult.Releases(
        starts.size(), relBytes, relBody, relDecoded, relFrames, relGaps, relWaits);
  }
}
