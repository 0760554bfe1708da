package flushlab.control;

import flushlab.core.HostPort;
import flushlab.core.Resources;
import flushlab.relay.RelayLog;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;

/**
 * The console's one port: the control API (Toxiproxy's paths) and, at {@code /}, the console
 * page. A verticle, so the API's handlers and the proxies they own share one event loop.
 */
public final class ControlServer extends VerticleBase {
  private final String host;
  private final int port;
  private final RelayLog log;
  private final HostPort emitter;
  private ControlApi api;
  private HttpServer server;

  /** @param emitter the emitter the console page streams from directly (null: the page cannot start streams) */
  public ControlServer(String host, int port, RelayLog log, HostPort emitter) {
    this.host = host;
    this.port = port;
    this.log = log;
    this.emitter = emitter;
  }

  public ControlServer(String host, int port, RelayLog log) {
    this(host, port, log, null);
  }

  @Override
  public Future<?> start() {
    api = new ControlApi(vertx, log);
    Router router = Router.router(vertx);
    api.mount(router);
    ConsoleStreams streams = new ConsoleStreams(vertx, context, emitter, api);
    router.get("/console/events").handler(streams::subscribe);
    router.post("/console/streams").handler(streams::start);
    // read from the jar once, not per request (ECharts is a megabyte)
    io.vertx.core.buffer.Buffer page = io.vertx.core.buffer.Buffer.buffer(Resources.text("flushlab/control/console.html"));
    io.vertx.core.buffer.Buffer script = io.vertx.core.buffer.Buffer.buffer(Resources.text("flushlab/control/console.js"));
    io.vertx.core.buffer.Buffer echarts = io.vertx.core.buffer.Buffer.buffer(Resources.text(Resources.ECHARTS));
    router.get("/").handler(rc -> rc.response().putHeader("Content-Type", "text/html; charset=utf-8").end(page));
    router.get("/assets/console.js").handler(rc -> rc.response().putHeader("Content-Type", "text/javascript").end(script));
    router.get("/assets/echarts.min.js").handler(rc -> rc.response().putHeader("Content-Type", "text/javascript")
        .putHeader("Cache-Control", "max-age=3600").end(echarts));
    server = vertx.createHttpServer(new HttpServerOptions().setHost(host).setPort(port));
    return server.requestHandler(router).listen();
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
}
