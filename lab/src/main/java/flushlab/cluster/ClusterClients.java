package flushlab.cluster;

import flushlab.core.HostPort;
import flushlab.http.Header;
import flushlab.scenario.Cell;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A cell's client load (its requests and concurrency) split over named agents: each runs its share
 * at once and sends back every stream it read; the answer is each share that came back and the
 * agents whose share did not (one that died or left, or answered an error), by name, with why. None
 * waits longer than a ping's timeout, the shares' deadline and a second.
 */
public final class ClusterClients {
  private ClusterClients() {}

  /** What came back: each agent's streams, and the agents missing with the reason. */
  public record Outcome(Map<String, ClientShare.Streams> perAgent, Map<String, String> missing) {}

  /** One agent's part of a cell's load. */
  public record Share(String agent, int requests, int concurrency) {}

  /**
   * Splits {@code requests} (and {@code concurrency}) over {@code agents} as evenly as they go, the
   * first agents taking one more when it does not divide; an agent whose share would be empty gets
   * none.
   */
  public static List<Share> split(int requests, int concurrency, List<String> agents) {
    if (agents.isEmpty()) throw new IllegalArgumentException("no agents to run the clients on");
    List<Share> out = new ArrayList<>();
    for (int i = 0; i < agents.size(); i++) {
      int n = requests / agents.size() + (i < requests % agents.size() ? 1 : 0);
      int c = Math.max(1, concurrency / agents.size() + (i < concurrency % agents.size() ? 1 : 0));
      if (n > 0) out.add(new Share(agents.get(i), n, Math.min(c, n)));
    }
    return out;
  }

  /**
   * Runs {@code cell}'s load split over {@code agents} (see {@link #split}) at {@code at}, with
   * these request headers. Every agent is pinged first, and the shares are asked for once all have
   * answered: an answer then travels on the connection its pong opened. Without it, an agent's
   * first message to the coordinator looks the coordinator up in the cluster's map, and a member
   * that died mid-run (killed, not yet removed) can hold the partition that entry is on for
   * seconds, so a live agent's share timed out beside a dead one.
   */
  public static Future<Outcome> run(
      Agent coordinator,
      List<String> agents,
      HostPort at,
      Cell cell,
      List<Header> headers,
      long deadlineMs) {
    List<Share> shares = split(cell.client().requests(), cell.client().concurrency(), agents);
    Map<String, Future<?>> pinged = new LinkedHashMap<>();
    for (Share sh :
        shares) // an agent already gone fails at once, one that leaves as soon as the lab sees it
      // go, not at the ping's timeout
      pinged.put(sh.agent(), coordinator.untilLeft(sh.agent(), coordinator.ping(sh.agent())));
    return Future.join(new ArrayList<>(pinged.values()))
        .transform(
            ignoredPings -> {
              Map<String, Future<ClientShare.Streams>> asked = new LinkedHashMap<>();
              for (Share sh : shares) {
                Future<?> pong = pinged.get(sh.agent());
                Cell share =
                    cell.withClient(cell.client().withRequests(sh.requests(), sh.concurrency()));
                asked.put(
                    sh.agent(),
                    pong.succeeded()
                        ? ClientShare.askStreams(
                            coordinator, sh.agent(), at, share, headers, deadlineMs)
                        : Future.failedFuture(
                            "agent "
                                + sh.agent()
                                + " did not answer its ping: "
                                + pong.cause().getMessage()));
              }
              return Future.join(new ArrayList<>(asked.values()))
                  .transform(
                      ignored -> {
                        Map<String, ClientShare.Streams> got = new LinkedHashMap<>();
                        Map<String, String> missing = new LinkedHashMap<>();
                        asked.forEach(
                            (agent, f) -> {
                              if (f.succeeded()) got.put(agent, f.result());
                              else missing.put(agent, f.cause().getMessage());
                            });
                        return Future.succeededFuture(new Outcome(got, missing));
                      });
            });
  }
}
