package flushlab.cluster;

import flushlab.core.HostPort;
import flushlab.relay.shaper.ShaperRegistry;
import flushlab.scenario.ClusterPlacement;
import flushlab.targets.Target;
import java.util.function.Consumer;

/** A scenario's target started on the agent its placement names, in front of the emitter. */
final class TargetOnAgent {
  private TargetOnAgent() {}

  /**
   * Starts what a target needs on its agent (a relay, a proxy from its template) in front of the
   * emitter and says where clients reach it; a direct target is the emitter itself, and one the lab
   * did not start cannot be placed on an agent.
   */
  static HostPort place(
      RemoteServers servers,
      ClusterPlacement placement,
      Target t,
      HostPort emitter,
      Consumer<String> announce)
      throws Exception {
    String agent = placement.targetOn().get(t.name());
    switch (t.kind()) {
      case DIRECT:
        return emitter;
      case RELAY:
        {
          Target.Relay r = (Target.Relay) t;
          HostPort relay = relay(servers, agent, emitter, r);
          announce.accept(
              "cluster: target " + r.name() + " (" + r.describe() + ") runs on agent " + agent);
          return relay;
        }
      case PROCESS:
        {
          Target.Process p = (Target.Process) t;
          HostPort proxy = servers.proxy(agent, p.proxy().text(), p.config(), emitter);
          announce.accept(
              "cluster: target "
                  + p.name()
                  + " ("
                  + p.proxy().text()
                  + " from "
                  + p.config().getFileName()
                  + ") runs on agent "
                  + agent);
          return proxy;
        }
      case EXTERNAL:
        throw new IllegalArgumentException(
            "target " + t.name() + " is external: the lab did not start it, so no agent runs it");
      default:
        throw new AssertionError(t.kind());
    }
  }

  /** A built-in relay of {@code r}'s chain started on {@code agent} in front of the emitter. */
  static HostPort relay(RemoteServers servers, String agent, HostPort emitter, Target.Relay r)
      throws Exception {
    return servers.relay(
        agent,
        emitter,
        r.shapers().stream().map(ShaperRegistry.Spec::text).toList(),
        r.poolUpstream());
  }
}
