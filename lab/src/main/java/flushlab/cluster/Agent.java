package flushlab.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import flushlab.core.HiccupMeter;
import flushlab.core.HostPort;
import flushlab.core.LabClock;
import flushlab.core.LoopListener;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetServer;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A lab agent: one member of a lab's cluster, on Vert.x's clustered event bus with Hazelcast for
 * membership (a fixed member list over TCP, no multicast). Before it joins, it makes the {@link
 * Hello} handshake with every member it was told to join, so that a member of another lab (another
 * cluster name, version or secret) is refused with the reason instead of never meeting it in
 * silence. Every request over the bus has a timeout.
 */
public final class Agent implements AutoCloseable {
  /** Event loops of an agent: one per core. */
  static final int LOOPS = Math.max(1, Runtime.getRuntime().availableProcessors());

  /** How long a request over the bus may take before it fails. */
  public static final long REQUEST_TIMEOUT_MS = 5_000;

  private final ClusterSpec spec;
  private final Vertx vertx;
  private final HazelcastClusterManager manager;
  private final NetServer hello;
  private final LoopListener gate;

  /**
   * Per agent name, completed when that agent leaves the cluster (a fresh one when it joins again).
   */
  private final Map<String, Promise<Void>> leaving = new ConcurrentHashMap<>();

  /**
   * The Hazelcast member attribute that carries an agent's name, so a member that leaves is known
   * by name.
   */
  static final String AGENT_ATTRIBUTE = "flushlab-agent";

  private Agent(
      ClusterSpec spec,
      Vertx vertx,
      HazelcastClusterManager manager,
      NetServer hello,
      LoopListener gate) {
    this.spec = spec;
    this.vertx = vertx;
    this.manager = manager;
    this.hello = hello;
    this.gate = gate;
  }

  /** Why an agent could not join: refused by a member (with the reason) or no member reachable. */
  public static final class JoinFailure extends Exception {
    JoinFailure(String message) {
      super(message);
    }
  }

  /**
   * Checks the members to join, joins (or, with none to join, starts) the lab's cluster, and
   * answers other agents' handshakes and pings from then on.
   */
  public static Agent start(ClusterSpec spec, Consumer<String> log) throws Exception {
    refuseTakenPorts(spec);
    List<String> unreachable = new ArrayList<>();
    int welcomed = 0;
    for (HostPort member : spec.join()) {
      try {
        String name = Hello.ask(spec, member);
        log.accept(
            "the member at "
                + member.host()
                + ":"
                + member.port()
                + " (agent "
                + name
                + ") let this agent in");
        welcomed++;
      } catch (Hello.Refused e) {
        throw new JoinFailure("refused: " + e.getMessage());
      } catch (IOException e) {
        unreachable.add(member.host() + ":" + member.port() + " (" + e.getMessage() + ")");
      }
    }
    if (!spec.join().isEmpty() && welcomed == 0) {
      throw new JoinFailure(
          "no member to join answered: "
              + String.join("; ", unreachable)
              + ". Start the first agent without --join, then join it");
    }
    System.setProperty(
        "hazelcast.logging.type", "none"); // its own warnings would interleave with ours
    HazelcastClusterManager manager = new HazelcastClusterManager(hazelcastConfig(spec));
    // as the lab's own servers run: native transport, a loop per core (the emitter takes a listener
    // on each)
    VertxOptions options =
        new VertxOptions()
            .setPreferNativeTransport(true)
            .setEventLoopPoolSize(LOOPS)
            .setBlockedThreadCheckInterval(10_000);
    // a connection to the event bus that carries nothing for a minute is closed (members ping every
    // 20 s)
    // the bus itself listens on loopback, with the lab's TLS on both sides; the network meets the
    // gate at the bus port, which other members are told to connect to
    BusCertificate busCert = BusCertificate.of(spec);
    options
        .getEventBusOptions()
        .setHost("127.0.0.1")
        .setPort(0)
        .setClusterPublicHost(spec.at().host())
        .setClusterPublicPort(spec.eventBusPort())
        .setIdleTimeout(60)
        .setIdleTimeoutUnit(TimeUnit.SECONDS);
    busCert.applyTo(options.getEventBusOptions());
    Vertx vertx =
        Vertx.builder()
            .with(options)
            .withClusterManager(manager)
            .buildClustered()
            .await(60, TimeUnit.SECONDS);
    HiccupMeter.get().watchLoops(vertx);
    NetServer hello;
    LoopListener gate;
    try {
      gate =
          BusGate.listen(vertx, spec.at().host(), spec.eventBusPort(), busCert, busPort(vertx), log)
              .await(10, TimeUnit.SECONDS);
      hello = Hello.listen(vertx, spec, log).await(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      vertx.close();
      throw e;
    }
    String boot = bootId();
    vertx
        .eventBus()
        .<JsonObject>consumer(
            pingAddress(spec.agent()),
            m ->
                m.reply(
                    new JsonObject()
                        .put("agent", spec.agent())
                        .put("version", spec.version())
                        .put("clock", LabClock.epochNanos())
                        .put("boot", boot)
                        .put("anchor", LabClock.anchorDifference())));
    Agent agent = new Agent(spec, vertx, manager, hello, gate);
    manager.getHazelcastInstance().getCluster().addMembershipListener(agent.new Membership());
    ClientShare.serve(agent);
    HostedWork.serve(agent, log);
    return agent;
  }

  /**
   * The loopback port Vert.x's bus server took (it was asked for any free one, and publishes the
   * gate's port to the other members instead). Vert.x keeps the server to itself, so it is read
   * from the bus's field; this fails loudly at start should a Vert.x upgrade rename it.
   */
  private static int busPort(Vertx vertx) {
    try {
      Field f = vertx.eventBus().getClass().getDeclaredField("server");
      f.setAccessible(true);
      return ((NetServer) f.get(vertx.eventBus())).actualPort();
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new IllegalStateException(
          "cannot find the port of Vert.x's event-bus server (" + e + ")", e);
    }
  }

  /**
   * Each of the agent's three ports is free, or the start ends here in one sentence naming the port
   * (Hazelcast and Vert.x would otherwise fail further in, in many lines, without it).
   */
  private static void refuseTakenPorts(ClusterSpec spec) throws JoinFailure {
    String host = spec.at().host();
    int[] ports = {spec.at().port(), spec.hazelcastPort(), spec.eventBusPort()};
    String[] roles = {"the handshake", "Hazelcast's member protocol", "the event bus"};
    for (int i = 0; i < ports.length; i++) {
      try {
        LoopListener.refuseIfTaken(host, ports[i]);
      } catch (IOException e) {
        throw new JoinFailure(
            "port "
                + ports[i]
                + " on "
                + host
                + " ("
                + roles[i]
                + ") is not free ("
                + e.getMessage()
                + "); an agent takes "
                + "three ports from its own, P, P+1 and P+2, so agents on one host need ports at least three apart");
      }
    }
  }

  /**
   * This kernel's boot id (processes that share it share the monotonic clock), or "" where it
   * cannot be read.
   */
  static String bootId() {
    try {
      return Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip();
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  /**
   * Hazelcast partitions of a lab's cluster (why so few: {@link #hazelcastConfig}); a member with
   * another count is refused at its join.
   */
  static final int HAZELCAST_PARTITIONS = 17;

  private static Config hazelcastConfig(ClusterSpec spec) {
    Config c = new Config();
    c.setClusterName(spec.hazelcastClusterName());
    c.getMemberAttributeConfig().setAttribute(AGENT_ATTRIBUTE, spec.agent());
    c.setProperty("hazelcast.phone.home.enabled", "false");
    c.setProperty("hazelcast.logging.type", "none");
    c.setProperty("hazelcast.wait.seconds.before.join", "0");
    // A lab is a handful of agents sharing a few small maps (Vert.x's subscriptions and node
    // infos): Hazelcast's default of 271 partitions made every join and leave migrate 271 of them.
    // Every member of a lab runs this same code, so all agree on the count, as Hazelcast requires.
    c.setProperty("hazelcast.partition.count", Integer.toString(HAZELCAST_PARTITIONS));
    // The port as given, or the agent does not start; reused while connections of a member that
    // left it are in TIME_WAIT, as the event bus's and the handshake's are (Vert.x's default), so
    // an agent started again at once binds. A fresh clone's suite (s160) failed an agent on
    // "Port [28010] is already in use" after a probe with Java's ServerSocket, which binds with
    // SO_REUSEADDR, had found it free
    c.getNetworkConfig()
        .setPort(spec.hazelcastPort())
        .setPortAutoIncrement(false)
        .setReuseAddress(true);
    c.getNetworkConfig().getInterfaces().setEnabled(true).addInterface(spec.at().host());
    JoinConfig join = c.getNetworkConfig().getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).addMember(spec.at().host() + ":" + spec.hazelcastPort());
    for (HostPort m : spec.join()) join.getTcpIpConfig().addMember(m.host() + ":" + (m.port() + 1));
    return c;
  }

  static String pingAddress(String agent) {
    return "flushlab.agent." + agent + ".ping";
  }

  /** Completes, per agent name, the futures of {@link #untilLeft} when that member leaves. */
  private final class Membership implements MembershipListener {
    @Override
    public void memberAdded(MembershipEvent e) {
      String name = e.getMember().getAttribute(AGENT_ATTRIBUTE);
      if (name != null)
        leaving.computeIfPresent(name, (k, p) -> p.future().isComplete() ? null : p);
    }

    @Override
    public void memberRemoved(MembershipEvent e) {
      String name = e.getMember().getAttribute(AGENT_ATTRIBUTE);
      if (name != null) leaving.computeIfAbsent(name, k -> Promise.promise()).tryComplete();
    }
  }

  /** The names of the agents in the cluster now, this one included. */
  public List<String> agents() {
    List<String> names = new ArrayList<>();
    for (Member m : manager.getHazelcastInstance().getCluster().getMembers()) {
      String n = m.getAttribute(AGENT_ATTRIBUTE);
      if (n != null) names.add(n);
    }
    return names;
  }

  /**
   * {@code work}, asked of {@code agent}, failed as soon as that agent leaves the cluster (or at
   * once when it is not a member) instead of waiting for the request's timeout.
   */
  public <T> Future<T> untilLeft(String agent, Future<T> work) {
    if (!agents().contains(agent))
      return Future.failedFuture("agent " + agent + " is not in the lab's cluster");
    Promise<T> p = Promise.promise();
    work.onComplete(
        ar -> {
          if (ar.succeeded()) p.tryComplete(ar.result());
          else p.tryFail(ar.cause());
        });
    leaving
        .computeIfAbsent(agent, k -> Promise.promise())
        .future()
        .onSuccess(v -> p.tryFail("agent " + agent + " left the lab's cluster mid-request"));
    return p.future();
  }

  /** The members of the cluster now (this agent included). */
  public int members() {
    return manager.getNodes().size();
  }

  /** Asks another agent of the lab for its name and version, with {@link #REQUEST_TIMEOUT_MS}. */
  public Future<JsonObject> ping(String agent) {
    return vertx
        .eventBus()
        .<JsonObject>request(
            pingAddress(agent),
            new JsonObject(),
            new DeliveryOptions().setSendTimeout(REQUEST_TIMEOUT_MS))
        .map(Message::body);
  }

  /**
   * Estimates another agent's clock offset from {@code rounds} pings (sequential, each with its
   * timeout), the narrowest round trips deciding; see {@link ClockOffset}. An agent on this kernel
   * gives its offset exactly, when the round trips agree. Runs off the event loop.
   */
  public ClockOffset clockOffset(String agent, int rounds) throws Exception {
    List<ClockOffset.Sample> samples = new ArrayList<>();
    JsonObject answer = null;
    for (int i = 0; i < rounds; i++) {
      long t0 = LabClock.epochNanos();
      answer = ping(agent).await(REQUEST_TIMEOUT_MS + 1_000, TimeUnit.MILLISECONDS);
      long t3 = LabClock.epochNanos();
      samples.add(new ClockOffset.Sample(t0, answer.getLong("clock"), t3));
    }
    ClockOffset estimate = ClockOffset.estimate(samples);
    String boot = bootId();
    if (answer != null
        && !boot.isEmpty()
        && boot.equals(answer.getString("boot"))
        && answer.getLong("anchor") != null) {
      return estimate.onOneKernel(answer.getLong("anchor") - LabClock.anchorDifference());
    }
    return estimate;
  }

  public ClusterSpec spec() {
    return spec;
  }

  public Vertx vertx() {
    return vertx;
  }

  @Override
  public void close() throws Exception {
    hello.close();
    gate.close();
    vertx.close().await(30, TimeUnit.SECONDS);
  }
}
