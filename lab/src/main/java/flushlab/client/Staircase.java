package flushlab.client;

import java.util.ArrayList;
import java.util.List;

/**
 * One stream of a batch as it arrived: each frame's receive time and, where every frame carried its
 * emit time, its emit time, both in ms from the request on the lab's one clock, in arrival order.
 * Frame number against these times is the arrival staircase: a clean path draws a line on its
 * emitted twin, a buffering one a staircase to its right. The first complete stream of the batch,
 * at most {@code maxFrames} of its frames.
 */
public record Staircase(List<Double> recvMs, List<Double> emitMs) {

  /**
   * The stream a staircase is drawn from: the batch's first complete one that read a frame, or
   * null.
   */
  public static StreamResult firstComplete(BatchResult batch) {
    for (StreamResult s : batch.streamResults())
      if (s.ok() && s.timing().ttftNanos() >= 0) return s;
    return null;
  }

  /** The first complete stream of {@code batch}, or null when none read a frame. */
  public static Staircase of(BatchResult batch, int maxFrames) {
    StreamResult s = firstComplete(batch);
    if (s == null) return null;
    var gaps = s.timing().gapNanos();
    var e2r = s.timing().emitToRecvNanos();
    int n = Math.min(maxFrames, gaps.size() + 1);
    List<Double> recv = new ArrayList<>(n);
    List<Double> emit = new ArrayList<>(n);
    long t = s.timing().ttftNanos();
    boolean timed = e2r.size() == gaps.size() + 1; // every arrival carried its emit time
    for (int i = 0; i < n; i++) {
      if (i > 0) t += gaps.get(i - 1);
      recv.add(ms3(t));
      if (timed) emit.add(ms3(t - e2r.get(i)));
    }
    return new Staircase(List.copyOf(recv), List.copyOf(emit));
  }

  /** Nanoseconds as milliseconds to three places (a microsecond: what the page can show). */
  public static double ms3(long nanos) {
    return Math.round(nanos / 1000.0) / 1000.0;
  }
}
