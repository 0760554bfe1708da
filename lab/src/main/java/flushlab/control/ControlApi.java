package flushlab.control;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import flushlab.core.Build;
import flushlab.core.HostPort;
import flushlab.core.Json;
import flushlab.relay.Relay;
import flushlab.relay.RelayLog;
import flushlab.relay.RelayOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The lab's relays behind an HTTP API that speaks Toxiproxy's: the same paths, bodies, status codes
 * and JSON error objects, so Toxiproxy's clients and test harnesses drive flushlab relays
 * unchanged. Every handler runs on the API's event loop, which owns the proxies; relays run as
 * verticles of their own and read their toxics from an immutable snapshot.
 */
public final class ControlApi {
  /** The largest request body the API reads; a larger one is answered 413. */
  static final long MAX_BODY_BYTES = 1 << 20;

  /**
   * Proxies the API holds at once (each is a relay with a listening socket); one more is refused,
   * 409.
   */
  public static final int MAX_PROXIES = 100;

  /** Toxics one proxy holds at once; one more is refused, 409. */
  public static final int MAX_TOXICS = 32;

  private final Vertx vertx;
  private final RelayLog log;
  private final Map<String, LabProxy> proxies = new LinkedHashMap<>();

  /**
   * The lab's own listeners, by port (the API itself, the console's emitter): no proxy may listen
   * there.
   */
  private final Supplier<Map<Integer, String>> ownListeners;

  public ControlApi(Vertx vertx, RelayLog log) {
    this(vertx, log, Map::of);
  }

  public ControlApi(Vertx vertx, RelayLog log, Supplier<Map<Integer, String>> ownListeners) {
    this.vertx = vertx;
    this.log = log;
    this.ownListeners = ownListeners;
  }

  /**
   * Why a proxy may not listen on {@code listen}, or null: the lab's own listeners and the other
   * proxies' are taken (on one JVM a second listener on a port would share it silently).
   */
  private String listenTaken(String listen, LabProxy self) {
    HostPort at;
    try {
      at = HostPort.parse("listen", listen, true);
    } catch (IllegalArgumentException e) {
      return null; // start() reports the address itself
    }
    if (at.port() == 0) return null;
    String own = ownListeners.get().get(at.port());
    if (own != null)
      return "listen "
          + listen
          + ": port "
          + at.port()
          + " is the lab's own "
          + own
          + "; choose another port";
    for (LabProxy p : proxies.values()) {
      if (p == self || p.relay == null) continue;
      try {
        if (HostPort.parse("listen", p.listen, true).port() == at.port()) {
          return "listen "
              + listen
              + ": port "
              + at.port()
              + " is proxy "
              + p.name
              + "'s; choose another port";
        }
      } catch (IllegalArgumentException e) {
        // a disabled proxy's address is whatever it was given
      }
    }
    return null;
  }

  /**
   * Mounts the API's routes on {@code router}; {@code bodyRead} hears of each request once its body
   * is whole.
   */
  public void mount(Router router, Consumer<HttpServerRequest> bodyRead) {
    router.route().handler(BodyHandler.create(false).setBodyLimit(MAX_BODY_BYTES));
    router
        .route()
        .handler(
            rc -> {
              bodyRead.accept(rc.request());
              rc.next();
            });
    router
        .get("/version")
        .handler(
            rc ->
                rc.response()
                    .putHeader("Content-Type", "text/plain")
                    .end("flushlab " + Build.version() + " (Toxiproxy-compatible API)\n"));
    router.post("/reset").handler(this::reset);
    router.get("/proxies").handler(this::list);
    router.post("/proxies").handler(this::create);
    router
        .get("/proxies/:proxy")
        .handler(rc -> withProxy(rc, p -> JsonReplies.json(rc, 200, p.json())));
    router.post("/proxies/:proxy").handler(this::update);
    router.delete("/proxies/:proxy").handler(this::delete);
    router
        .get("/proxies/:proxy/toxics")
        .handler(
            rc ->
                withProxy(
                    rc,
                    p -> {
                      var arr = Json.MAPPER.createArrayNode();
                      p.toxics().forEach(t -> arr.add(t.json()));
                      JsonReplies.json(rc, 200, arr);
                    }));
    router.post("/proxies/:proxy/toxics").handler(this::addToxic);
    router
        .get("/proxies/:proxy/toxics/:toxic")
        .handler(rc -> withToxic(rc, (p, t) -> JsonReplies.json(rc, 200, t.json())));
    router.post("/proxies/:proxy/toxics/:toxic").handler(this::updateToxic);
    router
        .delete("/proxies/:proxy/toxics/:toxic")
        .handler(
            rc ->
                withToxic(
                    rc,
                    (p, t) -> {
                      p.removeToxic(t.name());
                      rc.response().setStatusCode(204).end();
                    }));
  }

  /** The proxies, for the console page's view of the same model. */
  public List<JsonNode> snapshot() {
    return proxies.values().stream().map(p -> (JsonNode) p.json()).toList();
  }

  private void list(RoutingContext rc) {
    ObjectNode all = Json.MAPPER.createObjectNode();
    proxies.values().forEach(p -> all.set(p.name, p.json()));
    JsonReplies.json(rc, 200, all);
  }

  private void create(RoutingContext rc) {
    JsonNode body = JsonReplies.body(rc);
    if (body == null) return;
    String name = body.path("name").asText("");
    String bad = ProxyNames.bad(name);
    if (bad != null) {
      JsonReplies.error(rc, 400, bad);
      return;
    }
    if (body.path("upstream").asText("").isEmpty()) {
      JsonReplies.error(rc, 400, "missing required field: upstream");
      return;
    }
    if (proxies.containsKey(name)) {
      JsonReplies.error(rc, 409, "proxy already exists");
      return;
    }
    if (proxies.size() >= MAX_PROXIES) {
      JsonReplies.error(
          rc, 409, "the lab holds at most " + MAX_PROXIES + " proxies; delete one first");
      return;
    }
    String taken = listenTaken(body.path("listen").asText("127.0.0.1:0"), null);
    if (taken != null) {
      JsonReplies.error(rc, 409, taken);
      return;
    }
    LabProxy p =
        new LabProxy(
            name,
            body.path("listen").asText("127.0.0.1:0"),
            body.path("upstream").asText(""),
            !body.has("enabled") || body.path("enabled").asBoolean(true));
    proxies.put(name, p);
    start(p)
        .onComplete(
            ar -> {
              if (ar.failed()) {
                proxies.remove(name);
                JsonReplies.error(rc, status(ar.cause()), ar.cause().getMessage());
              } else {
                JsonReplies.json(rc, 201, p.json());
              }
            });
  }

  private void update(RoutingContext rc) {
    withProxy(
        rc,
        p -> {
          JsonNode body = JsonReplies.body(rc);
          if (body == null) return;
          String taken = body.has("listen") ? listenTaken(body.path("listen").asText(), p) : null;
          if (taken != null) {
            JsonReplies.error(rc, 409, taken);
            return;
          }
          boolean moved =
              (body.has("listen") && !body.path("listen").asText().equals(p.listen))
                  || (body.has("upstream") && !body.path("upstream").asText().equals(p.upstream));
          if (body.has("listen")) p.listen = body.path("listen").asText();
          if (body.has("upstream")) p.upstream = body.path("upstream").asText();
          boolean enable = body.has("enabled") ? body.path("enabled").asBoolean() : p.enabled;
          Future<Void> done = Future.succeededFuture();
          if (p.relay != null && (moved || !enable)) done = stop(p);
          p.enabled = enable;
          done.compose(v -> p.enabled && p.relay == null ? start(p) : Future.succeededFuture())
              .onComplete(
                  ar -> {
                    if (ar.failed()) {
                      JsonReplies.error(rc, status(ar.cause()), ar.cause().getMessage());
                    } else {
                      JsonReplies.json(rc, 200, p.json());
                    }
                  });
        });
  }

  private void delete(RoutingContext rc) {
    withProxy(
        rc,
        p ->
            stop(p)
                .onComplete(
                    ar -> {
                      proxies.remove(p.name);
                      rc.response().setStatusCode(204).end();
                    }));
  }

  private void reset(RoutingContext rc) {
    Future<Void> all = Future.succeededFuture();
    for (LabProxy p : proxies.values()) {
      p.clearToxics();
      if (!p.enabled || p.relay == null) {
        p.enabled = true;
        all = all.compose(v -> start(p)).recover(t -> Future.succeededFuture());
      }
    }
    all.onComplete(ar -> rc.response().setStatusCode(204).end());
  }

  private void addToxic(RoutingContext rc) {
    withProxy(
        rc,
        p -> {
          JsonNode body = JsonReplies.body(rc);
          if (body == null) return;
          try {
            Toxic t = Toxic.from(body, null);
            String bad = ProxyNames.bad(t.name());
            if (bad != null) {
              JsonReplies.error(rc, 400, bad);
              return;
            }
            if (p.toxic(t.name()) != null) {
              JsonReplies.error(rc, 409, "toxic already exists");
              return;
            }
            if (p.toxics().size() >= MAX_TOXICS) {
              JsonReplies.error(
                  rc, 409, "a proxy holds at most " + MAX_TOXICS + " toxics; delete one first");
              return;
            }
            p.putToxic(t);
            JsonReplies.json(rc, 200, t.json());
          } catch (Toxic.BadToxic e) {
            JsonReplies.error(rc, 400, e.getMessage());
          }
        });
  }

  private void updateToxic(RoutingContext rc) {
    withToxic(
        rc,
        (p, current) -> {
          JsonNode body = JsonReplies.body(rc);
          if (body == null) return;
          try {
            ObjectNode merged = ((ObjectNode) body).deepCopy();
            merged.put("name", current.name());
            Toxic t = Toxic.from(merged, current);
            p.putToxic(t);
            JsonReplies.json(rc, 200, t.json());
          } catch (Toxic.BadToxic e) {
            JsonReplies.error(rc, 400, e.getMessage());
          }
        });
  }

  /** Starts a proxy's relay on its listen address; the listen field then says the port it got. */
  private Future<Void> start(LabProxy p) {
    if (!p.enabled) return Future.succeededFuture();
    HostPort listen;
    HostPort up;
    try {
      listen = HostPort.parse("listen", p.listen, true);
      up = HostPort.parse("upstream", p.upstream, false);
    } catch (IllegalArgumentException e) {
      return Future.failedFuture(e);
    }
    Relay relay =
        new Relay(
            new RelayOptions(listen.host(), listen.port(), up.host(), up.port(), List.of(), false),
            log);
    relay.chain(p::planForNewConnection);
    return vertx
        .deployVerticle(relay)
        .map(
            id -> {
              p.relay = relay;
              p.deployment = id;
              p.listen = listen.host() + ":" + relay.port();
              return (Void) null;
            })
        .recover(
            t ->
                Future.failedFuture(
                    new ListenFailed("cannot listen on " + p.listen + ": " + t.getMessage())));
  }

  private static int status(Throwable t) {
    return t instanceof IllegalArgumentException ? 400 : t instanceof ListenFailed ? 409 : 500;
  }

  private Future<Void> stop(LabProxy p) {
    if (p.deployment == null) return Future.succeededFuture();
    String id = p.deployment;
    p.relay = null;
    p.deployment = null;
    return vertx.undeploy(id).recover(t -> Future.succeededFuture());
  }

  /** Stops every relay (the console is closing). */
  public Future<Void> close() {
    Future<Void> all = Future.succeededFuture();
    for (LabProxy p : proxies.values()) all = all.compose(v -> stop(p));
    return all;
  }

  private interface ProxyAction {
    void run(LabProxy p);
  }

  private interface ToxicAction {
    void run(LabProxy p, Toxic t);
  }

  private void withProxy(RoutingContext rc, ProxyAction action) {
    LabProxy p = proxies.get(rc.pathParam("proxy"));
    if (p == null) {
      JsonReplies.error(rc, 404, "proxy not found");
      return;
    }
    action.run(p);
  }

  private void withToxic(RoutingContext rc, ToxicAction action) {
    withProxy(
        rc,
        p -> {
          Toxic t = p.toxic(rc.pathParam("toxic"));
          if (t == null) {
            JsonReplies.error(rc, 404, "toxic not found");
            return;
          }
          action.run(p, t);
        });
  }
}
