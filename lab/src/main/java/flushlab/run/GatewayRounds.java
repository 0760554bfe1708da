package flushlab.run;

import flushlab.client.BatchResult;
import flushlab.client.GatewayOverhead;
import flushlab.client.RequestPlan;
import java.io.PrintStream;

/**
 * The gateway probe's rounds: each round sends the same requests to the loopback emitter and
 * through the gateway (alternating which side goes first, so a trend over the run favours neither),
 * at least the planned rounds and up to the most while the overhead is still within the rounds'
 * noise. A failed batch ends the rounds and is returned as it was.
 */
public final class GatewayRounds {
  private GatewayRounds() {}

  /** Runs one batch of n requests of a plan (the caller's client settings and progress line). */
  public interface Batches {
    BatchResult run(String label, RequestPlan plan, int n) throws Exception;
  }

  /**
   * What the rounds came to: the overhead over the rounds completed, or the batch that failed
   * (loopback: the calibration itself broke; gateway: the gateway refused or broke requests).
   */
  public record Result(
      GatewayOverhead overhead, BatchResult failedLoopback, BatchResult failedGateway) {}

  public static Result run(
      RequestPlan loopback,
      RequestPlan gateway,
      int perRound,
      int planned,
      int most,
      Batches batches,
      PrintStream out)
      throws Exception {
    GatewayOverhead overhead = new GatewayOverhead();
    while (overhead.rounds() < planned || (overhead.rounds() < most && !overhead.resolved())) {
      if (overhead.rounds() == planned)
        out.printf(
            "not out of the noise after %d rounds: up to %d more%n", planned, most - planned);
      int round = overhead.rounds() + 1;
      BatchResult loop;
      BatchResult gw;
      if (round % 2 == 1) {
        loop = batches.run("round " + round + " loopback", loopback, perRound);
        gw = batches.run("round " + round + " gateway", gateway, perRound);
      } else {
        gw = batches.run("round " + round + " gateway", gateway, perRound);
        loop = batches.run("round " + round + " loopback", loopback, perRound);
      }
      if (loop.errorCount() > 0) return new Result(overhead, loop, null);
      if (gw.errorCount() > 0) return new Result(overhead, null, gw);
      overhead.addRound(loop, gw);
      out.printf(
          "round %d: TTFT p50 loopback %.3fms gateway %.3fms; emit->recv p50 loopback %.3fms gateway %.3fms%n",
          round,
          loop.ttftMs().p50(),
          gw.ttftMs().p50(),
          loop.emitToRecvMs().p50(),
          gw.emitToRecvMs().p50());
    }
    return new Result(overhead, null, null);
  }
}
