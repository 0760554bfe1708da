package flushlab.run;

import flushlab.core.StallFigures;

/**
 * This process's own stalls over one run, and what they explain of its reads. A read that
 * completed {@code f} frames has {@code f - 1} extra ones: the figure frames per read counts.
 *
 * @param host the stalls of the host's watcher thread (the scheduler or the JVM stopped every thread)
 * @param loops the stalls of the event loops' ticks (the host's, or the lab's own code on a loop)
 * @param extraFrames the extra frames of all the run's reads
 * @param extraInHostStalls those read in or right after a host stall
 * @param extraInLoopStallsOnly those read in or right after a stall of a loop alone (the lab's fault)
 * @param hostStall how the host stalls explain the merged reads ("the client's host stalled ..."), or null
 * @param loopStall how a loop's stalls alone merged reads, or null
 */
public record RunStalls(StallFigures host, StallFigures loops, int extraFrames, int extraInHostStalls, int extraInLoopStallsOnly,
    String hostStall, String loopStall) {

  /** Every extra frame of the run was read in a host stall: the run says nothing of the target. */
  public boolean excusedByHost() {
    return extraFrames > 0 && extraInHostStalls == extraFrames;
  }
}
