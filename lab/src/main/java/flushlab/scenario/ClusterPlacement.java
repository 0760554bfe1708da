package flushlab.scenario;

import flushlab.core.HostPort;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Where a scenario's roles run when it spans a lab's agents: the scenario's {@code cluster:}
 * section and its {@code on:} keys. The process that runs the scenario joins the lab's cluster as
 * its coordinator; the agents run the emitter, the relays and the client load.
 *
 * @param name the lab's cluster name
 * @param at the coordinator's own cluster address (its handshake port)
 * @param join the agents it joins (their handshake ports)
 * @param secretFile the file with the lab's secret, or null for the environment variable
 * @param leaseNanos how long an agent serves the run without hearing from the coordinator
 * @param emitterOn the agent that runs the emitter
 * @param clientOn the agents that run the client load, in order (the first take one more when a
 *     count does not divide)
 * @param targetOn per relay target's name, the agent that runs it
 */
public record ClusterPlacement(
    String name,
    HostPort at,
    List<HostPort> join,
    Path secretFile,
    long leaseNanos,
    String emitterOn,
    List<String> clientOn,
    Map<String, String> targetOn) {
  /** The longest lab or agent name. */
  public static final int MAX_NAME = 64;

  /**
   * Why {@code name} cannot name a lab or an agent (1..64 letters, digits, '.', '-', '_'), or null
   * when it can.
   */
  public static String nameProblem(String name) {
    if (name != null
        && !name.isEmpty()
        && name.length() <= MAX_NAME
        && name.matches("[A-Za-z0-9._-]+")) return null;
    String shown =
        name == null ? "" : name.length() > MAX_NAME ? name.substring(0, MAX_NAME) + "..." : name;
    return "'" + shown + "' is not 1.." + MAX_NAME + " letters, digits, '.', '-' or '_'";
  }

  public ClusterPlacement {
    join = List.copyOf(join);
    clientOn = List.copyOf(clientOn);
    targetOn = Map.copyOf(targetOn);
  }
}
