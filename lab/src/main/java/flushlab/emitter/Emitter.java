package flushlab.emitter;

import flushlab.coding.NativeCodecs;
import flushlab.core.LoopListener;
import flushlab.core.LoopPlacement;
import flushlab.stream.StreamSpec;
import flushlab.tls.ServerTls;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The paced SSE emitter, as a verticle. Routes: {@code GET /sse} (plain frames), {@code POST
 * /v1/chat/completions} (OpenAI chunks), {@code GET /v1/models}, {@code GET /emitter/streams/{id}}
 * (a stream's pacing audit), {@code GET /healthz}. It speaks HTTP/1.1 over a raw NetServer so that
 * each frame is exactly one send() and the body can be chunked or close-delimited.
 */
public final class Emitter extends VerticleBase {
  private final EmitterOptions options;
  private final AuditRegistry audits = new AuditRegistry();
  private final Admission admission;
  private final EmitterRoutes routes;
  private LoopListener server;

  /**
   * The loop the first listener accepts and serves on: one no relay of this process writes on,
   * where there is one.
   */
  private LoopPlacement.Placed loop;

  private final List<AtomicLong> accepted = new CopyOnWriteArrayList<>();

  public Emitter(EmitterOptions options) {
    NativeCodecs.preload(); // not on an event loop, at the first br or zstd stream
    this.options = options;
    this.admission = new Admission(options.maxConnections());
    this.routes = new EmitterRoutes(audits, new AtomicLong(), options.apiKey());
  }

  @Override
  public Future<?> start() {
    // Load JSON and the request classes now, not inside the first measured request.
    ChatRequestSpec.parse("{\"stream\":true}".getBytes(StandardCharsets.US_ASCII));
    StreamSpec.fromQuery("");
    boolean sharePort = options.listeners() > 1;
    if (sharePort) {
      try {
        LoopListener.refuseIfTaken(options.host(), options.port());
      } catch (IOException e) {
        return Future.failedFuture(e);
      }
    }
    // one listener: on a loop of its own (LoopPlacement); one per loop: on every loop, so no
    // placing
    loop =
        sharePort
            ? LoopPlacement.unplaced(context)
            : LoopPlacement.place(context, LoopPlacement.Role.EMITTER);
    return listenOnLoop(loop.context(), options.port(), sharePort)
        .onFailure(e -> loop.release())
        .compose(
            first -> {
              server = first;
              if (!sharePort) return Future.succeededFuture();
              // One more listener per event loop, on the same port (SO_REUSEPORT): each accepts and
              // serves
              // its own connections, so stream set-ups and pacing spread over the loops with no
              // hand-off.
              int shared = first.port();
              return vertx.deployVerticle(
                  () ->
                      new VerticleBase() {
                        private LoopListener extra;

                        @Override
                        public Future<?> start() {
                          return listenOnLoop(context, shared, true).onSuccess(l -> extra = l);
                        }

                        @Override
                        public Future<?> stop() {
                          return extra == null ? Future.succeededFuture() : extra.close();
                        }
                      },
                  new DeploymentOptions().setInstances(options.listeners() - 1));
            });
  }

  /** A plain listener accepting on {@code loop}'s own event loop. */
  private Future<LoopListener> listenOnLoop(Context loop, int port, boolean sharePort) {
    return LoopListener.bind(
        loop, netOptions(options.host(), port, null), sharePort, connectionHandler());
  }

  /**
   * Also listens with TLS at host:port (0: any free port), serving the same routes, audits and
   * limits as the plain listener: so one run can compare a stream with and without TLS. Each frame
   * is still one write; TLS makes it one record. Completes with the port bound.
   */
  public Future<Integer> listenTls(String host, int port, ServerTls tls) {
    NetServer s = listen(vertx, host, port, tls);
    return s.listen()
        .map(
            bound -> {
              tlsServers.add(bound);
              return bound.actualPort();
            });
  }

  private final List<NetServer> tlsServers = new CopyOnWriteArrayList<>();

  private NetServer listen(Vertx v, String host, int port, ServerTls tls) {
    NetServer s = v.createNetServer(netOptions(host, port, tls));
    s.connectHandler(connectionHandler());
    return s;
  }

  private NetServerOptions netOptions(String host, int port, ServerTls tls) {
    NetServerOptions netOptions =
        new NetServerOptions().setHost(host).setPort(port).setTcpNoDelay(options.tcpNoDelay());
    if (tls != null)
      tls.applyToWithH2(netOptions); // h2 for a client that offers it by ALPN, else HTTP/1.1
    // No Vert.x idle timeout: its IdleStateHandler wraps every write in a promise and a listener
    // (about 100 B per frame); EmitterConnection watches for idleness with one timer instead.
    if (options.sendBufferBytes() > 0) netOptions.setSendBufferSize(options.sendBufferBytes());
    return netOptions;
  }

  /** What each listener does with a connection: counts it, then serves it. */
  private Handler<NetSocket> connectionHandler() {
    AtomicLong count = new AtomicLong();
    accepted.add(count);
    return socket -> {
      count.incrementAndGet(); // once per connection
      new EmitterConnection(
          socket, routes, admission, options.requestTimeoutNanos(), options.idleTimeoutNanos());
    };
  }

  @Override
  public Future<?> stop() {
    // the extra listeners were deployed from this verticle's start: Vert.x undeploys them with it
    for (NetServer s : tlsServers) s.close();
    if (loop != null) loop.release();
    return server == null ? Future.succeededFuture() : server.close();
  }

  /**
   * Connections each listener accepted, in the order the listeners started (one unless {@code
   * listeners} says more).
   */
  public List<Long> acceptedPerListener() {
    return accepted.stream().map(AtomicLong::get).toList();
  }

  /** The port actually bound (useful with port 0). */
  public int port() {
    return server.port();
  }

  /** The event-loop context the emitter's connections run on. */
  public Context loop() {
    return loop.context();
  }

  /** Connections open right now (those refused over the cap included, until they close). */
  public int openConnections() {
    return admission.openConnections();
  }

  public AuditRegistry audits() {
    return audits;
  }
}
