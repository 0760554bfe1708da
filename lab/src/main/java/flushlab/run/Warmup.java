package flushlab.run;

import flushlab.client.ClientOptions;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import flushlab.emitter.Emitter;
import flushlab.emitter.EmitterOptions;
import flushlab.relay.Relay;
import flushlab.relay.RelayLog;
import flushlab.relay.RelayOptions;
import flushlab.tls.ServerTls;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs the emitter, relay and client code paths against a private loopback emitter before anything
 * is measured, so the first measured stream does not pay for class loading and JIT compilation. It
 * never touches the target under test. Every command that measures says it ran.
 *
 * <p>Two parts: long streams (the per-frame and per-read paths, thousands of times), and many short
 * ones on fresh connections, direct and through the relay (the per-connection and per-request
 * paths: accept, connect, request parsing, the relay's upstream connection and chain, the audit and
 * the meter). With only the first, the request path stayed interpreted long after warm-up: 100 chat
 * streams opened at once waited 70-170 ms for their first token, set up one after the other in slow
 * code on the emitter's loop.
 */
public final class Warmup {
  /**
   * Short streams per kind (plain, chat, Responses API, chat through the relay), each on a fresh
   * connection.
   */
  static final int SHORT_STREAMS = 200;

  /**
   * Which paths a process will serve, so its warm-up compiles those and not others: a short stream
   * costs about a millisecond here, and a path the process never runs only delays its ready line.
   * The emitter serves its own routes and never relays; a relay's per-connection path (accept,
   * upstream connect, the chain) needs more than the 400 connections a shared warm-up gives it (its
   * event loop still ran C1 code, with the C2 compiler busy, for thousands of connections after
   * that). Commands that measure run everything.
   */
  public enum Focus {
    /**
     * The emitter's routes, the relay's and the client's: what run, map, probe and client measure.
     */
    EVERYTHING,
    /**
     * The emitter's routes (plain, twice as many chat, Responses API) on fresh connections; no
     * relay.
     */
    EMITTER,
    /**
     * Chat and plain streams through the relay on fresh connections, twice as many as EVERYTHING
     * puts through it.
     */
    RELAY
  }

  /** What the warm-up ran, for the line every measuring command prints. */
  public static String description(boolean tls) {
    return "24 long and "
        + 4 * SHORT_STREAMS
        + " short streams against a private loopback emitter and relay"
        + (tls ? ", and " + SHORT_TLS_STREAMS + " short and 6 long over TLS" : "")
        + " (not reported)";
  }

  private Warmup() {}

  public static void run(Vertx vertx) throws Exception {
    run(vertx, false);
  }

  /**
   * Short streams over TLS, when what is measured speaks TLS: the handshake and record paths
   * compile here.
   */
  static final int SHORT_TLS_STREAMS = 200;

  /**
   * With {@code tls}, also long and short streams over TLS to the private emitter's TLS listener
   * (JSSE's handshake and record code is cold otherwise: the first TLS streams' TTFT was several
   * milliseconds above the later ones').
   */
  public static void run(Vertx vertx, boolean tls) throws Exception {
    run(vertx, Focus.EVERYTHING, tls);
  }

  /** Whether this process has run the whole warm-up, and its TLS part. */
  private static final AtomicBoolean everythingWarm = new AtomicBoolean();

  private static final AtomicBoolean tlsWarm = new AtomicBoolean();

  /**
   * The whole warm-up, unless this process has run it already: the JVM runs C1 only, which compiled
   * what the first one ran, and nothing compiles later, so a second one only costs time (~0.75 s
   * here; a test JVM runs a hundred scenarios and maps). The garbage is collected either way, so a
   * measured run starts with a clean heap. Returns what to print after "warm-up: ".
   */
  public static String runOnce(Vertx vertx, boolean tls) throws Exception {
    if (everythingWarm.get() && (!tls || tlsWarm.get())) {
      System.gc();
      return "this process ran it already: " + description(tls);
    }
    run(vertx, tls);
    return description(tls);
  }

  public static void run(Vertx vertx, Focus focus, boolean tls) throws Exception {
    Emitter emitter = new Emitter(EmitterOptions.loopback(0));
    String id = vertx.deployVerticle(emitter).await(10, TimeUnit.SECONDS);
    Relay relay =
        new Relay(RelayOptions.loopback(emitter.port(), List.of("passthrough")), RelayLog.SILENT);
    String relayId = vertx.deployVerticle(relay).await(10, TimeUnit.SECONDS);
    MeteredClient client = new MeteredClient(vertx, ClientOptions.single().withRequests(6, 3));
    try {
      for (int port : new int[] {emitter.port(), relay.port()}) {
        client
            .run(
                RequestPlan.get(
                    "http://127.0.0.1:" + port + "/sse?frames=200&size=60&interval=0.1ms"))
            .await(30, TimeUnit.SECONDS);
        client.run(RequestPlan.chat("127.0.0.1", port, 200, 0, 0.1)).await(30, TimeUnit.SECONDS);
      }
      MeteredClient shortStreams =
          new MeteredClient(vertx, ClientOptions.single().withRequests(SHORT_STREAMS, 8));
      try {
        if (focus != Focus.RELAY) {
          shortStreams
              .run(
                  RequestPlan.get(
                      "http://127.0.0.1:" + emitter.port() + "/sse?frames=2&size=60&interval=0ms"))
              .await(30, TimeUnit.SECONDS);
          shortStreams
              .run(RequestPlan.chat("127.0.0.1", emitter.port(), 2, 0, 0))
              .await(30, TimeUnit.SECONDS);
          shortStreams
              .run(
                  RequestPlan.responses(
                      "127.0.0.1", emitter.port(), 2, 0, 0, RequestPlan.DEFAULT_MODEL))
              .await(30, TimeUnit.SECONDS);
        }
        // through the relay: its per-connection path (accept, connect upstream, the chain); an
        // emitter alone takes those chat requests directly instead, keeping the request path's
        // count (with 400 fewer, 100 chat streams opened at once waited ~20 ms for their first
        // token instead of ~13, medians of six rounds each)
        int chatPort = focus == Focus.EMITTER ? emitter.port() : relay.port();
        shortStreams
            .run(RequestPlan.chat("127.0.0.1", chatPort, 2, 0, 0))
            .await(30, TimeUnit.SECONDS);
        if (focus == Focus.RELAY) {
          shortStreams
              .run(
                  RequestPlan.get(
                      "http://127.0.0.1:" + relay.port() + "/sse?frames=2&size=60&interval=0ms"))
              .await(30, TimeUnit.SECONDS);
        }
        if (tls) {
          ServerTls serverTls = ServerTls.selfSigned();
          int tlsPort = emitter.listenTls("127.0.0.1", 0, serverTls).await(10, TimeUnit.SECONDS);
          RequestPlan longTls =
              RequestPlan.get(
                      "https://127.0.0.1:" + tlsPort + "/sse?frames=200&size=60&interval=0.2ms")
                  .withTls(serverTls.pinnedByClients());
          client.run(longTls).await(30, TimeUnit.SECONDS);
          MeteredClient tlsStreams =
              new MeteredClient(vertx, ClientOptions.single().withRequests(SHORT_TLS_STREAMS, 8));
          try {
            tlsStreams
                .run(
                    RequestPlan.chat("127.0.0.1", tlsPort, 2, 0, 0)
                        .withTls(serverTls.pinnedByClients()))
                .await(60, TimeUnit.SECONDS);
          } finally {
            tlsStreams.close();
          }
        }
      } finally {
        shortStreams.close();
      }
    } finally {
      client.close();
      vertx.undeploy(relayId).await(10, TimeUnit.SECONDS);
      vertx.undeploy(id).await(10, TimeUnit.SECONDS);
    }
    // The warm-up leaves tens of MB of garbage (class loading, its own streams): collect it now, in
    // one pause nobody measures, rather than in the first young collection of the measured run (a
    // 10-15 ms pause in a one-second run of 25 streams set their emit->recv p99 to 3-4 ms).
    System.gc();
    if (focus == Focus.EVERYTHING) everythingWarm.set(true);
    if (tls) tlsWarm.set(true);
  }
}
