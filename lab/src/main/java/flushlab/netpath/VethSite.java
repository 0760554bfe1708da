package flushlab.netpath;

import com.fasterxml.jackson.databind.JsonNode;
import flushlab.core.HostPort;
import flushlab.core.Json;
import flushlab.emitter.LateFrame;
import flushlab.emitter.PacingAudit;
import io.vertx.core.Context;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * A veth path: a namespace behind a link of one MTU, with the lab's emitter running in it as a
 * child process at {@code SERVER_HOST:8090}. Relays and proxies for targets on this path are
 * started inside the namespace too ({@link #startRelay}, {@link #placed}), so what the client
 * measures crossed the link. The emitter's pacing audits are read over HTTP from its audit route.
 */
public final class VethSite implements ServerSite {
  static final int EMITTER_PORT = 8090;
  private static final long AUDIT_WAIT_NANOS = 2_000_000_000L;

  private final VethLink link;
  private final LabChild emitter;
  private final List<LabChild> relays = new ArrayList<>();
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(2))
          .build();
  private int nextRelayPort = 9001;

  private VethSite(VethLink link, LabChild emitter) {
    this.link = link;
    this.emitter = emitter;
  }

  /** Makes the link and starts the emitter across it; on failure nothing is left behind. */
  public static VethSite open(int mtu) throws VethLink.Unavailable {
    VethLink link = VethLink.open(mtu);
    try {
      HostPort at = new HostPort(link.serverHost(), EMITTER_PORT);
      LabChild emitter =
          LabChild.start(link, "emitter", List.of("emitter", "--listen", at.toString()), at);
      return new VethSite(link, emitter);
    } catch (VethLink.Unavailable | RuntimeException e) {
      link.close();
      throw e;
    }
  }

  public VethLink link() {
    return link;
  }

  /**
   * Starts a built-in relay with these shaper specs inside the namespace, in front of the emitter.
   */
  public synchronized LabChild startRelay(
      String name, List<String> shaperSpecs, boolean poolUpstream) throws VethLink.Unavailable {
    HostPort at = new HostPort(link.serverHost(), nextRelayPort++);
    List<String> args =
        new ArrayList<>(
            List.of("relay", "--listen", at.toString(), "--upstream", emitter().toString()));
    for (String s : shaperSpecs) {
      args.add("--shape");
      args.add(s);
    }
    if (poolUpstream) args.add("--pool-upstream");
    LabChild relay = LabChild.start(link, "relay-" + name, args, at);
    relays.add(relay);
    return relay;
  }

  @Override
  public NetworkPath path() {
    return link.path();
  }

  @Override
  public HostPort emitterTls() {
    throw new UnsupportedOperationException(
        "tls: true on a direct target is for loopback in this version; on a veth path, measure "
            + "TLS through a proxy with a TLS template (scenarios/proxies/*-tls.*)");
  }

  @Override
  public HostPort emitter() {
    return emitter.address();
  }

  /**
   * Reads {@code GET /emitter/streams/{id}}; the emitter answers 409 while a stream is still being
   * written, so a 409 is asked again until the audit is final (at most 2 s).
   */
  @Override
  public PacingAudit.Summary audit(long streamId) {
    URI uri = URI.create("http://" + emitter() + "/emitter/streams/" + streamId);
    long deadline = System.nanoTime() + AUDIT_WAIT_NANOS;
    try {
      while (true) {
        HttpResponse<String> r =
            http.send(
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(2)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) return parse(r.body());
        if (r.statusCode() != 409 || System.nanoTime() > deadline) return null;
        LockSupport.parkNanos(
            1_000_000); // ask again in a millisecond, not in a tight loop of requests
      }
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  static PacingAudit.Summary parse(String json) throws IOException {
    JsonNode n = Json.MAPPER.readTree(json);
    JsonNode late = n.path("lateness_ms");
    return new PacingAudit.Summary(
        n.path("stream_id").asLong(),
        n.path("paced").asBoolean(),
        n.path("complete").asBoolean(),
        n.path("frames_planned").asInt(),
        n.path("frames_written").asInt(),
        n.path("frame_bytes").asLong(),
        n.path("backpressure_waits").asInt(),
        millisToNanos(late.path("p50")),
        millisToNanos(late.path("p99")),
        millisToNanos(late.path("max")),
        n.path("keep_alives").asInt(),
        null,
        held(n.path("latest_held")));
  }

  /**
   * What the emitter's own process judged held its latest frame (null from an emitter that did not
   * say).
   */
  private static LateFrame.Held held(JsonNode h) {
    return h.isObject()
        ? new LateFrame.Held(h.path("why").asText(""), h.path("by_host").asBoolean())
        : null;
  }

  private static long millisToNanos(JsonNode ms) {
    return Math.round(ms.asDouble() * 1e6);
  }

  @Override
  public long emitterPid() {
    return emitter.pid();
  }

  @Override
  public Context emitterLoop() {
    return null;
  }

  @Override
  public String listenHost() {
    return link.serverHost();
  }

  @Override
  public List<String> placed(List<String> command) {
    return link.inside(command);
  }

  @Override
  public void close() {
    for (LabChild r : relays) r.close();
    emitter.close();
    link.close();
  }
}
