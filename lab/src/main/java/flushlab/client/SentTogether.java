package flushlab.client;

import flushlab.core.LongSamples;
import java.util.List;

/**
 * Frames this lab's own emitter wrote together, told from frames a path held together. The emitter
 * paces frames on a timer; when its loop runs late (a core busy elsewhere, under the map's pacing
 * tolerance), it writes every frame that came due at once, each stamped when written. Those frames
 * reach the client together and share a read although nothing on the path held them: a fresh-clone
 * suite (s168) read a relay that streams every frame at 1.26 frames per read, its merged reads'
 * oldest frames waiting 0.2 ms (p90 1.9 ms, under the 2 ms interval), so the frames in them had
 * been written within an interval of each other, and the map called the relay inconclusive instead
 * of streaming.
 *
 * <p>Within one read every frame has the same receive time, so two neighbours' emit-to-receive
 * delays differ by exactly the time between their writes: a frame written less than half an
 * interval after the frame before it in the same read was sent with it. Frames sent back to back
 * (no interval) are never counted: sending them together is what was asked. Counted after the run,
 * off the reading loop.
 */
public final class SentTogether {
  private SentTogether() {}

  /**
   * The frames of {@code s}'s reads that its emitter wrote less than half of {@code intervalNanos}
   * after the frame before them in the same read; 0 when the stream failed, when its frames were
   * not all stamped (a corrupt or foreign frame carries no emit time to line up), or when the
   * frames are paced by no interval.
   */
  public static int extraFrames(StreamResult s, long intervalNanos) {
    if (!s.ok() || intervalNanos <= 0) return 0;
    LongSamples perRead = s.reads().framesPerFramedRead();
    LongSamples delays = s.timing().emitToRecvNanos();
    long framed = 0;
    for (int i = 0; i < perRead.size(); i++) framed += perRead.get(i);
    if (framed != delays.size()) return 0;
    long half = intervalNanos / 2;
    int together = 0;
    int at = 0;
    for (int i = 0; i < perRead.size(); i++) {
      int f = (int) perRead.get(i);
      // frame k written (delay[k-1] - delay[k]) after frame k-1: both were read at the same time
      for (int k = at + 1; k < at + f; k++) {
        if (delays.get(k - 1) - delays.get(k) < half) together++;
      }
      at += f;
    }
    return together;
  }

  /** The same over every stream of a batch. */
  public static long extraFrames(List<StreamResult> streams, long intervalNanos) {
    long n = 0;
    for (StreamResult s : streams) n += extraFrames(s, intervalNanos);
    return n;
  }

  /**
   * Frames per read with what the emitter sent together counted once: the frames per read the path
   * made. Equal to {@link BatchResult#framesPerRead} when the emitter kept its pace; 0 without
   * frames.
   */
  public static double framesPerRead(BatchResult b, long intervalNanos) {
    return framesPerReadLess(b, extraFrames(b.streamResults(), intervalNanos));
  }

  /** {@code b}'s frames per read with {@code together} extra frames counted once. */
  public static double framesPerReadLess(BatchResult b, long together) {
    if (together == 0 || b.readsWithFrames() == 0) return b.framesPerRead();
    return (double) (b.frames() - together) / b.readsWithFrames();
  }
}
