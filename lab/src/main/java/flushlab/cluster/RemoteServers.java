package flushlab.cluster;

import flushlab.core.HostPort;
import flushlab.core.UserFiles;
import flushlab.emitter.LateFrame;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The coordinator's side of {@link HostedWork}: the servers one run asked of its agents, held under
 * a lease this object renews every third of it until closed. Closing asks each agent to stop the
 * run's servers; an agent that does not hear (the coordinator was killed) stops them when the lease
 * runs out.
 */
public final class RemoteServers implements AutoCloseable {
  private final Agent coordinator;
  private final String run;
  private final long leaseMs;
  private final Consumer<String> log;
  private final Set<String> hosts = new LinkedHashSet<>();
  private final long renewTimer;

  public RemoteServers(Agent coordinator, String run, long leaseMs, Consumer<String> log) {
    this.coordinator = coordinator;
    this.run = run;
    this.leaseMs = leaseMs;
    this.log = log;
    this.renewTimer = coordinator.vertx().setPeriodic(Math.max(300, leaseMs / 3), t -> renewAll());
  }

  /** Starts the run's emitter on {@code agent}; returns where it listens. */
  public HostPort emitter(String agent) throws Exception {
    return start(agent, "emitter", new JsonObject());
  }

  /**
   * Starts a relay with these shapers on {@code agent}, its upstream at {@code upstream}; returns
   * where it listens.
   */
  public HostPort relay(String agent, HostPort upstream, List<String> shapers, boolean poolUpstream)
      throws Exception {
    return start(
        agent,
        "relay",
        new JsonObject()
            .put("upstream", upstream.host() + ":" + upstream.port())
            .put("shapers", new JsonArray(List.copyOf(shapers)))
            .put("pool_upstream", poolUpstream));
  }

  /**
   * Starts a proxy of this kind from {@code template} (its file, read here: the agent has none) on
   * {@code agent}, forwarding to {@code upstream}; returns where it listens. Starting a proxy waits
   * until it listens, so this request has a minute, not the bus's usual timeout.
   */
  public HostPort proxy(String agent, String kind, Path template, HostPort upstream)
      throws Exception {
    String text = UserFiles.readText(template, ProxyRequest.MAX_TEMPLATE_CHARS, "the template");
    synchronized (hosts) {
      hosts.add(agent);
    }
    JsonObject body =
        new JsonObject()
            .put("run", run)
            .put("lease_ms", leaseMs)
            .put("proxy", kind)
            .put("template", text)
            .put("file_name", template.getFileName().toString())
            .put("upstream", upstream.host() + ":" + upstream.port());
    JsonObject answer =
        coordinator
            .untilLeft(
                agent,
                coordinator
                    .vertx()
                    .eventBus()
                    .<JsonObject>request(
                        HostedWork.address(agent, "proxy"),
                        body,
                        new DeliveryOptions().setSendTimeout(PROXY_START_TIMEOUT_MS))
                    .map(Message::body))
            .await(PROXY_START_TIMEOUT_MS + 1_000, TimeUnit.MILLISECONDS);
    return new HostPort(answer.getString("host"), answer.getInteger("port"));
  }

  /**
   * How long a proxy may take to start on an agent (its own start waits up to 30 s for it to
   * listen).
   */
  static final long PROXY_START_TIMEOUT_MS = 60_000;

  private HostPort start(String agent, String what, JsonObject body) throws Exception {
    synchronized (hosts) {
      hosts.add(agent);
    }
    JsonObject answer =
        request(agent, what, body.put("run", run).put("lease_ms", leaseMs))
            .await(Agent.REQUEST_TIMEOUT_MS + 1_000, TimeUnit.MILLISECONDS);
    return new HostPort(answer.getString("host"), answer.getInteger("port"));
  }

  /**
   * What the emitter on {@code agent} audited of these streams: how many were paced, how many it
   * has no audit of, the latest frame, and the frames and their wire bytes it wrote.
   */
  /**
   * The emitter's audit of a run's streams, with its agent's longest host stall over the run and
   * what held the latest frame, judged on that agent against its own loops' ticks.
   */
  public record Audit(
      int paced,
      int missing,
      long latenessMaxNanos,
      long frameBytes,
      long frames,
      long hostStallMaxNanos,
      LateFrame.Held held) {
    /** An audit with nothing known of what held the latest frame. */
    public Audit(
        int paced,
        int missing,
        long latenessMaxNanos,
        long frameBytes,
        long frames,
        long hostStallMaxNanos) {
      this(
          paced,
          missing,
          latenessMaxNanos,
          frameBytes,
          frames,
          hostStallMaxNanos,
          LateFrame.Held.UNKNOWN);
    }

    /**
     * The emitter was late while its host stood still at least half as long (the rule on one host:
     * RunRecord).
     */
    public boolean lateInAHostStall() {
      return latenessMaxNanos > 0 && hostStallMaxNanos >= latenessMaxNanos / 2;
    }
  }

  /**
   * Audits {@code streamIds} on {@code agent}; {@code spanMs}: how long the run took, for the
   * agent's host stalls over it.
   */
  public Audit audit(String agent, List<Long> streamIds, long spanMs) throws Exception {
    JsonObject a =
        request(
                agent,
                "audit",
                new JsonObject()
                    .put("run", run)
                    .put("ids", new JsonArray(List.copyOf(streamIds)))
                    .put("span_ms", spanMs))
            .await(Agent.REQUEST_TIMEOUT_MS + 1_000, TimeUnit.MILLISECONDS);
    return new Audit(
        a.getInteger("paced"),
        a.getInteger("missing"),
        a.getLong("lateness_max_ns"),
        a.getLong("frame_bytes"),
        a.getLong("frames"),
        a.getLong("host_stall_max_ns", 0L),
        new LateFrame.Held(a.getString("late_why", ""), a.getBoolean("late_by_host", false)));
  }

  private Future<JsonObject> request(String agent, String what, JsonObject body) {
    return coordinator.untilLeft(
        agent,
        coordinator
            .vertx()
            .eventBus()
            .<JsonObject>request(
                HostedWork.address(agent, what),
                body,
                new DeliveryOptions().setSendTimeout(Agent.REQUEST_TIMEOUT_MS))
            .map(Message::body));
  }

  private void renewAll() {
    List<String> now;
    synchronized (hosts) {
      now = List.copyOf(hosts);
    }
    for (String agent : now) {
      request(agent, "renew", new JsonObject().put("run", run))
          .onFailure(
              e ->
                  log.accept(
                      "cluster: could not renew run "
                          + run
                          + "'s lease on agent "
                          + agent
                          + ": "
                          + e.getMessage()));
    }
  }

  /**
   * Stops the lease and asks every agent to stop the run's servers (each with the request timeout).
   */
  @Override
  public void close() {
    coordinator.vertx().cancelTimer(renewTimer);
    List<String> now;
    synchronized (hosts) {
      now = List.copyOf(hosts);
    }
    for (String agent : now) {
      try {
        request(agent, "stop", new JsonObject().put("run", run))
            .await(Agent.REQUEST_TIMEOUT_MS + 1_000, TimeUnit.MILLISECONDS);
      } catch (Exception e) {
        log.accept(
            "cluster: agent "
                + agent
                + " did not confirm it stopped run "
                + run
                + " ("
                + e.getMessage()
                + "); it stops the run's servers when their lease of "
                + leaseMs
                + " ms runs out");
      }
    }
  }
}
