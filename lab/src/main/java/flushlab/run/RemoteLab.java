package flushlab.run;

import flushlab.http.Header;
import flushlab.scenario.Cell;
import flushlab.scenario.Scenario;
import flushlab.targets.Target;
import java.util.List;
import java.util.function.Consumer;

/**
 * A scenario's servers and clients somewhere else than this process: a lab's agents on other hosts
 * (flushlab.cluster provides it). The runner certifies, measures and maps through it exactly as it
 * does on this host; only where the emitter, the targets and the client run changes.
 */
public interface RemoteLab extends AutoCloseable {
  /**
   * One run of {@code cell} against {@code target} with these request headers, judged by the
   * emitter's own pacing audit of exactly the streams read (excluded past {@code
   * pacingToleranceNanos}).
   */
  RunRecord run(
      Target target,
      Cell cell,
      int cellIndex,
      int run,
      List<Header> headers,
      long pacingToleranceNanos)
      throws Exception;

  /**
   * Starts {@code model} (a map's model, to be replayed) where {@code like} runs, in front of the
   * lab's emitter: later runs of {@code model} go to it, until another model of that name is
   * placed. It stops with the lab.
   */
  void placeModel(Target.Relay model, Target like) throws Exception;

  /**
   * The certification cell as this lab runs it: at least one stream for each client agent, so each
   * agent's own path to the emitter is certified.
   */
  Cell certifying(Cell cell);

  /**
   * Why no more runs can be what the scenario asked (an agent left the lab: a split over fewer is
   * another run), or null.
   */
  String lost();

  /**
   * Where the runs ran and how the agents' clocks stood, their clocks measured once more now, after
   * the runs.
   */
  OnAgents onAgents();

  /** Stops what was started for the scenario; never throws. */
  @Override
  void close();

  /**
   * Opens a remote lab for a scenario: joins it, starts its emitter and targets where they are
   * placed.
   */
  interface Opener {
    RemoteLab open(Scenario scenario, Consumer<String> announce) throws Exception;
  }
}
