package flushlab.client;

import flushlab.core.LongSamples;

/**
 * What one stream measured. Times are nanoseconds. A stream with an {@link #error()} is reported
 * as an error, not as a measurement: its samples are kept for inspection but never aggregated.
 */
public record StreamResult(
    long streamId,
    int status,
    StreamError error,
    String errorMessage,
    boolean complete,
    boolean sawDone,
    int expectedFrames,
    int frames,
    int reads,
    int readsWithFrames,
    long bytes,
    long ttftNanos,
    LongSamples gapNanos,
    LongSamples emitToRecvNanos,
    LongSamples bytesPerRead,
    LongSamples framesPerReadBursts,
    LongSamples burstBytes,
    int releases,
    LongSamples releaseBytes,
    LongSamples releaseFrames,
    LongSamples releaseGapNanos,
    int lostFrames,
    int duplicatedFrames,
    int reorderedFrames,
    int corruptFrames,
    int uncheckedFrames) {

  public boolean ok() {
    return error == null;
  }

  /** Frames divided by the reads that completed at least one frame; 0 when no frame arrived. */
  public double framesPerRead() {
    return readsWithFrames == 0 ? 0 : (double) frames / readsWithFrames;
  }

  public static StreamResult connectFailed(String message) {
    return new StreamMeter(-1).failAndResult(StreamError.CONNECT_FAILED, message);
  }
}
