package flushlab.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import flushlab.cluster.Agent;
import flushlab.cluster.ClusterSecret;
import flushlab.cluster.ClusterSpec;
import flushlab.core.Build;
import flushlab.core.HostPort;
import flushlab.run.Warmup;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * `flushlab agent`: one member of a lab that spans hosts. It joins the lab's cluster (or starts it)
 * and stays until interrupted, running for a coordinator (`flushlab run` of a scenario with a
 * cluster: section) an emitter, relays and shares of the client load. The secret comes from a file
 * or the environment, never from a flag (a flag shows in ps).
 */
@Parameters(
    commandNames = "agent",
    commandDescription =
        "Join (or start) a lab's cluster of agents on several hosts, until interrupted")
final class AgentCommand implements Command {
  static final String SECRET_ENV = ClusterSecret.ENV;

  @Parameter(
      names = "--name",
      description = "This agent's name, unique in the lab (letters, digits, '.', '-', '_')",
      required = true)
  String name;

  @Parameter(
      names = "--cluster-name",
      description = "The lab's name: agents of labs with other names never meet",
      required = true)
  String clusterName;

  @Parameter(
      names = "--cluster-host",
      description =
          "Address this agent listens on for the lab (its handshake port, "
              + "Hazelcast on the next port, the event bus on the one after)")
  String clusterHost = "127.0.0.1:5800";

  @Parameter(
      names = "--join",
      description =
          "Members to join, host:port of their --cluster-host, comma-separated; none: start the lab's cluster")
  String join;

  @Parameter(
      names = "--secret-file",
      description =
          "A file holding the lab's shared secret (at least 12 bytes); "
              + "else the environment variable "
              + SECRET_ENV)
  String secretFile;

  @Override
  public int run(PrintStream out, PrintStream err) throws Exception {
    HostPort at = HostPort.parse("--cluster-host", clusterHost, false);
    Exposure.warnIfNotLoopback(
        err, "--cluster-host", at, "this agent's handshake, Hazelcast and event-bus ports");
    List<HostPort> members = new ArrayList<>();
    if (join != null && !join.isBlank()) {
      for (String m : join.split(",")) members.add(HostPort.parse("--join", m.trim(), false));
    }
    byte[] secret = secret();
    ClusterSpec spec;
    try {
      spec = new ClusterSpec(clusterName, secret, Build.version(), name, at, members);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage());
    } finally {
      Arrays.fill(secret, (byte) 0);
    }
    Agent agent;
    try {
      agent = Agent.start(spec, line -> out.println("  " + line));
    } catch (Agent.JoinFailure e) {
      err.println("flushlab agent: " + e.getMessage());
      return EXIT_FAILED;
    }
    // the work a coordinator asks for (an emitter, relays, clients) runs compiled from its first
    // request
    out.println("  warming up: " + Warmup.description(false));
    Warmup.run(agent.vertx());
    out.println(
        "flushlab agent "
            + name
            + " in lab '"
            + clusterName
            + "' ("
            + agent.members()
            + " member(s)); handshake on "
            + at.host()
            + ":"
            + at.port()
            + ", Hazelcast on "
            + spec.hazelcastPort()
            + ", event bus on "
            + spec.eventBusPort());
    return UntilInterrupted.await(agent.vertx());
  }

  private byte[] secret() throws IOException {
    return ClusterSecret.read(secretFile == null ? null : Path.of(secretFile), "--secret-file");
  }
}
