package flushlab.run;

import flushlab.http.Header;
import flushlab.scenario.Cell;
import flushlab.scenario.Scenario;
import flushlab.targets.Target;
import java.util.List;
import java.util.function.Consumer;

/**
 * What a map needs of the runner that certified the host: the scenario, its stop switch and
 * progress line, the request headers as either kind of client, and a place to run a model's relay
 * beside the target (this host's sites, or the agent that runs the target).
 */
interface MapLab {
  Scenario scenario();

  boolean interrupted();

  void progress(String what);

  /**
   * From now on the client asks as one that accepts no compression (Accept-Encoding: identity), or
   * as the scenario's.
   */
  void identityPass(boolean on);

  /**
   * The scenario's request headers; as a client that accepts no compression, with Accept-Encoding:
   * identity.
   */
  List<Header> headersFor(boolean identity);

  /**
   * Starts {@code model} where {@code like} runs; closing what it answers stops it (on agents, the
   * lab stops it).
   */
  PlacedModel placeModel(Target.Relay model, Target like, Consumer<String> announce)
      throws Exception;

  /**
   * A silent stream through {@code target} as {@code base}'s client asks, measured by {@code on};
   * null where none can run.
   */
  SilentStream silentStream(Measure on, Target target, Cell base, long deadline);

  /** A model's relay, started, and how runs reach it. */
  record PlacedModel(Measure measure, AutoCloseable stop) implements AutoCloseable {
    @Override
    public void close() throws Exception {
      if (stop != null) stop.close();
    }
  }
}
