package flushlab.control;

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
  private ControlApi api;
  private HttpServer server;

  public ControlServer(String host, int port, RelayLog log) {
    this.host = host;
    this.port = port;
    this.log = log;
  }

  @Override
  public Future<?> start() {
    api = new ControlApi(vertx, log);
    Router router = Router.router(vertx);
    api.mount(router);
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
