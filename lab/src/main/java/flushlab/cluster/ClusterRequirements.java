package flushlab.cluster;

import flushlab.scenario.Cell;
import flushlab.scenario.ClusterPlacement;
import flushlab.scenario.Scenario;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a cluster run needs before anything starts: its agents present, its clients' shares whole.
 */
final class ClusterRequirements {
  private ClusterRequirements() {}

  /** Every agent the scenario names is in the lab, or the run stops here saying which are not. */
  static void agentsPresent(Agent self, ClusterPlacement placement) {
    Set<String> named = new LinkedHashSet<>();
    named.add(placement.emitterOn());
    named.addAll(placement.clientOn());
    named.addAll(placement.targetOn().values());
    List<String> present = self.agents();
    List<String> absent = named.stream().filter(a -> !present.contains(a)).toList();
    if (!absent.isEmpty()) {
      throw new IllegalStateException(
          "agent(s) "
              + String.join(", ", absent)
              + " are not in lab '"
              + placement.name()
              + "' (its members: "
              + String.join(
                  ", ", present.stream().filter(a -> !a.startsWith("coordinator-")).toList())
              + ")");
    }
  }

  /**
   * Each client agent sends back every stream it read, so a share is bounded: a cell whose share
   * would pass {@link ClientShare#MAX_WHOLE_STREAMS} is refused before anything starts, saying how
   * to fit it.
   */
  static void wholeShares(Scenario scenario, ClusterPlacement p) {
    for (Cell c : scenario.cells()) {
      for (ClusterClients.Share sh :
          ClusterClients.split(c.client().requests(), c.client().concurrency(), p.clientOn())) {
        if (sh.requests() > ClientShare.MAX_WHOLE_STREAMS) {
          throw new IllegalArgumentException(
              String.format(
                  "cell %s asks %d streams of agent %s; a client agent reads at most %d streams "
                      + "of a run (each is sent back whole): name more agents in client.on, or ask fewer client.requests",
                  c.label(), sh.requests(), sh.agent(), ClientShare.MAX_WHOLE_STREAMS));
        }
      }
    }
  }
}
