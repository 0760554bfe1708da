package flushlab.cli;

import com.beust.jcommander.Parameter;
import flushlab.cluster.ClusterSecret;
import flushlab.core.HostPort;
import flushlab.scenario.ClusterPlacement;
import flushlab.targets.Target;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * `flushlab map` on a lab's agents: the lab to join and where each role runs, as a scenario's
 * cluster: section and on: keys say it (docs/CLUSTER.md).
 */
final class ClusterFlags {
  @Parameter(
      names = "--cluster",
      description =
          "Map on a lab's agents: the lab's cluster name (with --join, --emitter-on, --client-on)")
  String cluster;

  @Parameter(
      names = "--join",
      description =
          "With --cluster: agents to join, host:port of their --cluster-host, comma-separated")
  String join;

  @Parameter(
      names = "--cluster-host",
      description = "With --cluster: this coordinator's own cluster address (3 ports from it)")
  String clusterHost = "127.0.0.1:5900";

  @Parameter(
      names = "--secret-file",
      description =
          "With --cluster: the lab's secret (else the environment variable FLUSHLAB_CLUSTER_SECRET)")
  String secretFile;

  @Parameter(
      names = "--emitter-on",
      description = "With --cluster: the agent that runs the emitter")
  String emitterOn;

  @Parameter(
      names = "--client-on",
      description = "With --cluster: the agents that run the client, comma-separated")
  String clientOn;

  @Parameter(
      names = "--target-on",
      description =
          "With --cluster: the agent that runs the relay (--shape) or the proxy (--proxy)")
  String targetOn;

  /**
   * The placement these flags name, or null without --cluster; a flag of the group without
   * --cluster, or one missing, is refused.
   */
  ClusterPlacement placement(Target target, PrintStream err) {
    if (cluster == null) {
      for (String[] f :
          new String[][] {
            {"--join", join},
            {"--emitter-on", emitterOn},
            {"--client-on", clientOn},
            {"--target-on", targetOn},
            {"--secret-file", secretFile}
          }) {
        if (f[1] != null)
          throw new IllegalArgumentException(
              f[0] + " applies only with --cluster (the lab's cluster name)");
      }
      return null;
    }
    HostPort at = HostPort.parse("--cluster-host", clusterHost, false);
    Exposure.warnIfNotLoopback(
        err, "--cluster-host", at, "the coordinator's handshake, Hazelcast and event-bus ports");
    if (join == null || join.isBlank())
      throw new IllegalArgumentException(
          "--cluster needs --join: the agents to join, host:port,...");
    List<HostPort> members = new ArrayList<>();
    for (String m : join.split(",")) members.add(HostPort.parse("--join", m.trim(), false));
    if (emitterOn == null)
      throw new IllegalArgumentException(
          "--cluster needs --emitter-on: the agent that runs the emitter");
    if (clientOn == null || clientOn.isBlank())
      throw new IllegalArgumentException(
          "--cluster needs --client-on: the agents that run the client");
    List<String> clients = new ArrayList<>();
    for (String c : clientOn.split(",")) clients.add(name("--client-on", c.trim()));
    if (target instanceof Target.External) {
      throw new IllegalArgumentException(
          "--cluster maps a relay (--shape) or a proxy (--proxy) placed on an agent; --target is not placed on agents yet");
    }
    Map<String, String> on = Map.of();
    if (target instanceof Target.Relay || target instanceof Target.Process) {
      if (targetOn == null)
        throw new IllegalArgumentException(
            "--cluster needs --target-on: the agent that runs the " + target.kind().text());
      on = Map.of(target.name(), name("--target-on", targetOn));
    } else if (targetOn != null) {
      throw new IllegalArgumentException(
          "--target-on applies to a relay (--shape) or a proxy (--proxy)");
    }
    return new ClusterPlacement(
        name("--cluster", cluster),
        at,
        members,
        secretFile == null ? null : Path.of(secretFile),
        10_000_000_000L,
        name("--emitter-on", emitterOn),
        clients,
        on);
  }

  byte[] secret() throws IOException {
    return ClusterSecret.read(secretFile == null ? null : Path.of(secretFile), "--secret-file");
  }

  private static String name(String flag, String v) {
    String problem = ClusterPlacement.nameProblem(v);
    if (problem != null) throw new IllegalArgumentException(flag + ": " + problem);
    return v;
  }
}
