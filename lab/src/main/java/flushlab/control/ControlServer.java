package flushlab.control;

import flushlab.core.HostPort;
import flushlab.core.Resources;
import flushlab.relay.RelayLog;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import java.util.HashMap;
import java.util.Map;

/**
 * The console's one port: the control API (Toxiproxy's paths) and, at {@code /}, the console page.
 * A verticle, so the API's handlers and the proxies they own share one event loop. Its listener has
 * the emitter's limits: a head timeout, a connection cap and a body cap.
 */
public final class ControlServer extends VerticleBase {
  private final String host;
  private final int port;
  private final RelayLog log;
  private final HostPort emitter;

  /**
   * Connections the API holds open at once; one more is answered 503 and closed (the emitter's
   * default).
   */
  public static final int MAX_CONNECTIONS = 1024;

  /**
   * How long a request head may take to arrive whole (the emitter's default); then 408 and close.
   */
  public static final long HEAD_TIMEOUT_MS = 10_000;

  private ControlApi api;
  private HttpServer server;
  private ApiConnections connections;

  private final int maxConnections;
  private final long headTimeoutMs;

  /**
   * @param emitter the emitter the console page streams from directly (null: the page cannot start
   *     streams)
   */
  public ControlServer(String host, int port, RelayLog log, HostPort emitter) {
    this(host, port, log, emitter, MAX_CONNECTIONS, HEAD_TIMEOUT_MS);
  }

  /**
   * @param maxConnections connections the API holds at once (one more: 503, closed)
   * @param headTimeoutMs how long a request head may take (then 408, closed)
   */
  public ControlServer(
      String host,
      int port,
      RelayLog log,
      HostPort emitter,
      int maxConnections,
      long headTimeoutMs) {
    this.host = host;
    this.port = port;
    this.log = log;
    this.emitter = emitter;
    this.maxConnections = maxConnections;
    this.headTimeoutMs = headTimeoutMs;
  }

  public ControlServer(String host, int port, RelayLog log) {
    this(host, port, log, null);
  }

  @Override
  public Future<?> start() {
    api =
        new ControlApi(
            vertx,
            log,
            () -> {
              Map<Integer, String> own = new HashMap<>();
              if (server != null && server.actualPort() > 0)
                own.put(server.actualPort(), "control API");
              if (emitter != null) own.put(emitter.port(), "emitter");
              return own;
            });
    Router router = Router.router(vertx);
    api.mount(router, req -> connections.bodyRead(req));
    ConsoleStreams streams = new ConsoleStreams(vertx, context, emitter, api);
    router.get("/console/events").handler(streams::subscribe);
    router.post("/console/streams").handler(streams::start);
    // read from the jar once, not per request (ECharts is a megabyte)
    Buffer page = Buffer.buffer(Resources.text("flushlab/control/console.html"));
    Buffer script = Buffer.buffer(Resources.text("flushlab/control/console.js"));
    Buffer echarts = Buffer.buffer(Resources.text(Resources.ECHARTS));
    router
        .get("/")
        .handler(
            rc -> rc.response().putHeader("Content-Type", "text/html; charset=utf-8").end(page));
    router
        .get("/assets/console.js")
        .handler(rc -> rc.response().putHeader("Content-Type", "text/javascript").end(script));
    router
        .get("/assets/echarts.min.js")
        .handler(
            rc ->
                rc.response()
                    .putHeader("Content-Type", "text/javascript")
                    .putHeader("Cache-Control", "max-age=3600")
                    .end(echarts));
    connections = new ApiConnections(vertx, maxConnections, headTimeoutMs);
    server = vertx.createHttpServer(new HttpServerOptions().setHost(host).setPort(port));
    return server
        .requestHandler(
            req -> {
              connections.requested(req);
              router.handle(req);
            })
        .listen()
        .compose(connections::watch);
  }

  @Override
  public Future<?> stop() {
    return api.close().compose(v -> server == null ? Future.succeededFuture() : server.close());
  }

  public int port() {
    return server.actualPort();
  }

  public ControlApi api() {
    return api;
  }

  /** Connections open on the API now. */
  public int openConnections() {
    return connections.open();
  }
}
