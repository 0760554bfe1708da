package flushlab.run;

import java.util.List;
import java.util.Map;

/**
 * Where a run on a lab's agents ran, and how their clocks stood: part of the one {@link Outcome}
 * every run has, so a run on agents is written, rendered and compared like one on this host.
 *
 * @param lab the lab's name (its cluster)
 * @param placement each role and the agent it ran on ("emitter", "client", a target's name), with
 *     its address
 * @param clocks each agent's clock against the coordinator's, before the runs and after them
 */
public record OnAgents(String lab, Map<String, String> placement, List<AgentClock> clocks) {

  /**
   * An agent's clock minus the coordinator's, in ms, estimated before and after the runs, each plus
   * or minus its bound (half the narrowest round trips; 0 when both read one kernel's monotonic
   * clock).
   *
   * @param afterMs null when the agent was gone by the end, and its clock after was not measured
   * @param oneKernel the agent and the coordinator share one kernel's monotonic clock: the offset
   *     is exact
   */
  public record AgentClock(
      String agent,
      double beforeMs,
      double boundBeforeMs,
      Double afterMs,
      Double boundAfterMs,
      int samples,
      boolean oneKernel) {}
}
