package flushlab.run;

import flushlab.client.BatchResult;
import java.util.Locale;

/**
 * One client agent's share of a run on a lab's agents: its streams' figures, beside the run's
 * merged ones (which are exactly these summed: the streams themselves are merged, not averages).
 * Its emit-to-receive times are already moved by its clock's offset to the emitter's agent, and
 * carry that offset's bound.
 *
 * @param clockBoundMs how far those one-way times may be wrong (0 on one kernel)
 * @param emitToRecvP50Ms null when the bound is not smaller than the p50 it would show ({@code
 *     withheld} says so)
 */
public record AgentShare(
    String agent,
    int streams,
    int streamsOk,
    long frames,
    long reads,
    long readsWithFrames,
    double framesPerRead,
    double clockBoundMs,
    Double emitToRecvP50Ms,
    Double emitToRecvP99Ms,
    String withheld) {

  /**
   * The share's figures from its streams, their one-way times known to within {@code clockBoundMs}.
   */
  public static AgentShare of(String agent, BatchResult streams, double clockBoundMs) {
    var e2r = streams.emitToRecvMs();
    Double p50 = null;
    Double p99 = null;
    String withheld = null;
    if (e2r.count() == 0) {
      withheld = "no frames were read";
    } else if (clockBoundMs > 0 && clockBoundMs >= e2r.p50()) {
      withheld =
          String.format(
              Locale.ROOT,
              "the clocks' uncertainty (+-%.3f ms) is not smaller than the p50 it would show "
                  + "(%.3f ms)",
              clockBoundMs,
              e2r.p50());
    } else {
      p50 = e2r.p50();
      p99 = e2r.p99();
    }
    return new AgentShare(
        agent,
        streams.streams(),
        streams.streamsOk(),
        streams.frames(),
        streams.reads(),
        streams.readsWithFrames(),
        streams.framesPerRead(),
        clockBoundMs,
        p50,
        p99,
        withheld);
  }
}
