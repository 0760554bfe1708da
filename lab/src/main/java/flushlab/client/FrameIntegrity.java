package flushlab.client;

import java.util.BitSet;

/**
 * A stream's frames by the sequence numbers the emitter stamps: which arrived, and how many came
 * twice, out of order, corrupt, or without a stamp to check (a gateway that dropped the pi_*
 * fields); what is lost follows from them at the end.
 */
final class FrameIntegrity {
  /** Sequence numbers above this are taken as corruption rather than tracked. */
  private static final int MAX_TRACKED_SEQ = 16_000_000;

  private final BitSet seen = new BitSet();
  private long maxSeq = -1;
  private int duplicated;
  private int reordered;
  private int corrupt;
  private int unchecked;

  void corrupt() {
    corrupt++;
  }

  void unchecked() {
    unchecked++;
  }

  /** A frame stamped {@code seq} arrived. */
  void arrived(long seq) {
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

  /**
   * The count at the end: of {@code expectedFrames} asked for (or, unknown, up to the highest
   * seen), those that never came, none when a failed stream did not say how many were planned.
   */
  StreamResult.Integrity result(int expectedFrames, int frames, boolean failed) {
    int distinct = seen.cardinality();
    int lost;
    if (expectedFrames > 0) {
      lost = Math.max(0, expectedFrames - distinct - (unchecked > 0 ? unchecked : 0));
    } else {
      lost = (int) Math.max(0, maxSeq + 1 - distinct);
    }
    if (failed && expectedFrames <= 0) lost = 0; // unknown how many were planned
    return new StreamResult.Integrity(
        expectedFrames, frames, lost, duplicated, reordered, corrupt, unchecked);
  }
}
