package flushlab.cluster;

import flushlab.core.StallFigures;
import flushlab.run.RunStalls;
import flushlab.run.StallJudge;
import java.util.ArrayList;
import java.util.List;

/**
 * A client agent's own host stalls over its share of a run (its hiccup meter), and what they
 * explain of the frames it read together: the same rule as on one host ({@link RunStalls}), each
 * agent judging its own reads against its own stalls, since no other process can.
 *
 * @param hostStall the sentence ("client agent b's host stalled ..."), or null; agents' joined in a
 *     merge
 */
public record AgentStalls(
    StallFigures host, int frames, int extraFrames, int extraInHostStalls, String hostStall) {
  static AgentStalls of(RunStalls s) {
    return new AgentStalls(
        s.host(), s.frames(), s.extraFrames(), s.extraInHostStalls(), s.hostStall());
  }

  /**
   * Every extra frame the agents read was read in a stall of their hosts, and enough to move frames
   * per read.
   */
  public boolean excusedByHost() {
    return RunStalls.excuses(frames, extraFrames, extraInHostStalls);
  }

  /**
   * As a run's stalls: the client agents' host figures and what they explained, so that what asks
   * of a run's stalls (a replay that differed where the host stalled, the certification's line)
   * sees the agents' as it sees one host's. No loop figures and no spans: those are the agents' own
   * clocks' and stay in their shares.
   */
  public RunStalls asRunStalls() {
    return new RunStalls(
        host,
        StallFigures.NONE,
        frames,
        extraFrames,
        extraInHostStalls,
        0,
        hostStall,
        null,
        List.of(),
        StallJudge.PathWait.NONE,
        0);
  }

  /** The agents together: frames summed, the longest stall's figures, the sentences joined. */
  static AgentStalls merge(List<AgentStalls> all) {
    int frames = 0;
    int extra = 0;
    int inHost = 0;
    StallFigures worst = StallFigures.NONE;
    List<String> said = new ArrayList<>();
    for (AgentStalls a : all) {
      frames += a.frames;
      extra += a.extraFrames;
      inHost += a.extraInHostStalls;
      if (a.host.maxMs() > worst.maxMs()) worst = a.host;
      if (a.hostStall != null) said.add(a.hostStall);
    }
    return new AgentStalls(
        worst, frames, extra, inHost, said.isEmpty() ? null : String.join("; ", said));
  }
}
