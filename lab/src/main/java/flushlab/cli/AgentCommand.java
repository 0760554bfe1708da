package flushlab.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import flushlab.cluster.Agent;
import flushlab.cluster.ClusterSpec;
import flushlab.core.Build;
import flushlab.core.HostPort;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * `flushlab agent`: one member of a lab that spans hosts. It joins the lab's cluster (or starts it)
 * and stays until interrupted; the roles it will run for a coordinator come with the next
 * steps. The secret comes from a file or the environment, never from a flag (a flag shows in ps).
 */
@Parameters(commandNames = "agent", commandDescription = "Join (or start) a lab's cluster of agents on several hosts, until interrupted")
final class AgentCommand implements Command {
  static final String SECRET_ENV = "FLUSHLAB_CLUSTER_SECRET";
  static final int MAX_SECRET_FILE_BYTES = 4096;

  @Parameter(names = "--name", description = "This agent's name, unique in the lab (letters, digits, '.', '-', '_')", required = true)
  String name;

  @Parameter(names = "--cluster-name", description = "The lab's name: agents of labs with other names never meet", required = true)
  String clusterName;

  @Parameter(names = "--cluster-host", description = "Address this agent listens on for the lab (its handshake port, "
      + "Hazelcast on the next port, the event bus on the one after)")
  String clusterHost = "127.0.0.1:5800";

  @Parameter(names = "--join", description = "Members to join, host:port of their --cluster-host, comma-separated; none: start the lab's cluster")
  String join;

  @Parameter(names = "--secret-file", description = "A file holding the lab's shared secret (at least 12 bytes); "
      + "else the environment variable " + SECRET_ENV)
  String secretFile;

  @Override
  public int run(PrintStream out, PrintStream err) throws Exception {
    HostPort at = HostPort.parse("--cluster-host", clusterHost, false);
    Exposure.warnIfNotLoopback(err, "--cluster-host", at, "this agent's handshake, Hazelcast and event-bus ports");
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
    out.println("flushlab agent " + name + " in lab '" + clusterName + "' (" + agent.members() + " member(s)); handshake on "
        + at.host() + ":" + at.port() + ", Hazelcast on " + spec.hazelcastPort() + ", event bus on " + spec.eventBusPort());
    return UntilInterrupted.await(agent.vertx());
  }

  /** The secret, from --secret-file (a regular file of at most 4 KiB, trailing newline dropped) or the environment. */
  private byte[] secret() throws java.io.IOException {
    if (secretFile != null) {
      Path p = Path.of(secretFile);
      if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(p)) {
        throw new IllegalArgumentException("--secret-file " + secretFile + ": not a regular file");
      }
      if (Files.size(p) > MAX_SECRET_FILE_BYTES) {
        throw new IllegalArgumentException("--secret-file " + secretFile + ": over " + MAX_SECRET_FILE_BYTES + " bytes; a secret is a line");
      }
      return Files.readString(p, StandardCharsets.UTF_8).strip().getBytes(StandardCharsets.UTF_8);
    }
    String env = System.getenv(SECRET_ENV);
    if (env == null || env.isEmpty()) {
      throw new IllegalArgumentException("no secret: give --secret-file FILE or set " + SECRET_ENV
          + " (the same on every agent of the lab)");
    }
    return env.strip().getBytes(StandardCharsets.UTF_8);
  }
}
