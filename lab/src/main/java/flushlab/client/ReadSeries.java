package flushlab.client;

import flushlab.core.LongSamples;

/**
 * What each read of a stream delivered: its wire bytes, the body bytes it let the decoder release,
 * and, for the reads that completed frames, how many, how many bytes, and when each returned. Sized
 * up front for a paced stream's one read a frame, so the reading loop does not grow them.
 */
final class ReadSeries {
  private int count;
  private int withFrames;
  private long bytes;
  private final LongSamples bytesPerRead;
  private final LongSamples decodedPerRead;
  private final LongSamples framesPerFramedRead;
  private final LongSamples bytesPerFramedRead;

  /**
   * When each read that completed a frame returned (System.nanoTime), beside its frames in {@code
   * framesPerFramedRead}.
   */
  private final LongSamples framedReadAt;

  ReadSeries(int perRead) {
    bytesPerRead = new LongSamples(perRead);
    decodedPerRead = new LongSamples(perRead);
    framesPerFramedRead = new LongSamples(perRead);
    bytesPerFramedRead = new LongSamples(perRead);
    framedReadAt = new LongSamples(perRead);
  }

  /** A read of {@code wireBytes} returned. */
  void read(int wireBytes) {
    count++;
    bytes += wireBytes;
    bytesPerRead.add(wireBytes);
  }

  /** The read, parsed: the body bytes it decoded, and the frames it completed at {@code nanos}. */
  void parsed(long nanos, int wireBytes, long decoded, int frames) {
    decodedPerRead.add(decoded);
    if (frames == 0) return;
    withFrames++;
    framesPerFramedRead.add(frames);
    bytesPerFramedRead.add(wireBytes);
    framedReadAt.add(nanos);
  }

  /** Wire bytes read so far. */
  long bytes() {
    return bytes;
  }

  StreamResult.Reads result(long bodyBytes, long decodedBodyBytes) {
    return new StreamResult.Reads(
        count,
        withFrames,
        bytes,
        bodyBytes,
        decodedBodyBytes,
        bytesPerRead,
        decodedPerRead,
        framesPerFramedRead,
        bytesPerFramedRead,
        framedReadAt);
  }
}
