package flushlab.run;

import flushlab.client.BatchResult;
import java.util.List;

/**
 * One run of one target in one cell: its measurement, and whether a declared guard excluded it
 * (why, or null when kept). An excluded run is counted, never silently dropped.
 *
 * @param upstreamFrameBytes what the emitter's frames weighed on the wire, over the audited streams
 *     (chunk framing included: the bytes a proxy's buffer counts)
 * @param upstreamFrames the frames the emitter wrote for those streams
 * @param startedEpochMillis when the run's first request was sent (wall clock)
 * @param endedEpochMillis when its last stream ended
 * @param stalls this process's stalls over the run and what they explain of its reads; null when
 *     its reads were made elsewhere (on agents)
 * @param agents on a lab's agents, each client agent's share of the run (empty on this host)
 */
public record RunRecord(
    String target,
    int cell,
    int run,
    BatchResult result,
    Exclusion exclusion,
    long maxPacingLatenessNanos,
    int unauditedStreams,
    long upstreamFrameBytes,
    long upstreamFrames,
    long startedEpochMillis,
    long endedEpochMillis,
    RunStalls stalls,
    List<AgentShare> agents) {

  public boolean excluded() {
    return exclusion != null;
  }

  /** The same run, excluded after the fact (a host stall found where a replay differed). */
  public RunRecord withExclusion(Exclusion why) {
    return new RunRecord(
        target,
        cell,
        run,
        result,
        why,
        maxPacingLatenessNanos,
        unauditedStreams,
        upstreamFrameBytes,
        upstreamFrames,
        startedEpochMillis,
        endedEpochMillis,
        stalls,
        agents);
  }

  /** The sentence naming why the run was excluded, or null when it was kept. */
  public String exclusionReason() {
    return exclusion == null ? null : exclusion.reason();
  }

  /** Excluded because every frame it read together was read in a stall of the reading host. */
  public boolean excludedForHostStall() {
    return exclusion != null && exclusion.cause() == Exclusion.Cause.HOST_STALL;
  }

  /**
   * Excluded, and this host's stalls account for it: its merged reads all fell in host stalls, the
   * loop stall that held the emitter's latest frame was the host's, or the emitter (in this
   * process) was late while the host stalled at least half as long. An emitter late with no such
   * stall was held by the lab's own code on its loop.
   */
  public boolean spoiledByHostStall() {
    return excludedForHostStall()
        || excluded() && exclusion.cause() == Exclusion.Cause.EMITTER_HELD_BY_HOST
        || excluded()
            && stalls != null
            && maxPacingLatenessNanos > 0
            && stalls.host().maxMs() * 1e6 >= maxPacingLatenessNanos / 2.0;
  }
}
