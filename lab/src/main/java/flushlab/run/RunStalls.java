package flushlab.run;

import flushlab.client.SentTogether;
import flushlab.core.StallFigures;
import flushlab.core.StallLog;
import java.util.List;

/**
 * This process's own stalls over one run, and what they explain of its reads. A read that completed
 * {@code f} frames has {@code f - 1} extra ones: the figure frames per read counts.
 *
 * @param host the stalls of the host's watcher thread (the scheduler or the JVM stopped every
 *     thread)
 * @param loops the stalls of the event loops' ticks (the host's, or the lab's own code on a loop)
 * @param frames the frames the run read
 * @param extraFrames the extra frames of all the run's reads
 * @param extraInHostStalls those read in or right after a host stall
 * @param extraInLoopStallsOnly those read in or right after a stall of a loop alone (the lab's
 *     fault)
 * @param hostStall how the host stalls explain the merged reads ("the client's host stalled ..."),
 *     or null
 * @param loopStall how a loop's stalls alone merged reads, or null
 * @param hostSpans the host stalls themselves (System.nanoTime spans), for drawing them beside the
 *     reads
 * @param path the longest wait for a core of a thread of the path's other processes over the run
 *     (the proxy the lab started, a namespace's emitter): what the host took from them, which no
 *     stall of this process shows
 * @param extraSentTogether extra frames the lab's emitter wrote together, late on its host, and the
 *     client read together ({@link SentTogether}): the path held none of them
 */
public record RunStalls(
    StallFigures host,
    StallFigures loops,
    int frames,
    int extraFrames,
    int extraInHostStalls,
    int extraInLoopStallsOnly,
    String hostStall,
    String loopStall,
    List<StallLog.Stall> hostSpans,
    StallJudge.PathWait path,
    int extraSentTogether) {

  /**
   * Below this share of the frames read, frames read together in host stalls change no figure the
   * lab reports (frames per read moves by less than 0.02): the run is kept, its stalls recorded.
   * Measured: on this 2-core host with a proxy running, a 1.2 s stream of 600 frames every 2 ms met
   * three stalls of 5-8 ms in each of two runs in a row (7 extra frames, frames per read 1.012).
   */
  public static final double MATERIAL_SHARE = 0.02;

  /**
   * Every extra frame of the run was read in a host stall, and enough of them to move frames per
   * read: the run says nothing of the target.
   */
  public boolean excusedByHost() {
    return excuses(frames, extraFrames, extraInHostStalls);
  }

  /** The rule, for whoever counts a run's frames: one host's reads, or several agents' summed. */
  public static boolean excuses(int frames, int extraFrames, int extraInHostStalls) {
    return extraFrames > 0
        && extraInHostStalls == extraFrames
        && extraFrames > MATERIAL_SHARE * frames;
  }
}
