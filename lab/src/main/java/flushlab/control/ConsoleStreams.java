package flushlab.control;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import flushlab.core.HiccupMeter;
import flushlab.core.HostPort;
import flushlab.core.Json;
import flushlab.core.StallFigures;
import flushlab.emitter.ChatFrameSource;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;

/**
 * The console page's live side: on request, one OpenAI chat stream from the emitter directly and
 * one through each enabled proxy, all at once, measured by the lab's metered client; every read
 * that completes tokens, and each stream's figures at its end, pushed to the open pages as
 * server-sent events. One run at a time, bounded in tokens and pace, and at most {@link #MAX_PAGES}
 * pages listening.
 */
final class ConsoleStreams {
  static final int MAX_PAGES = 16;
  static final int MAX_TOKENS = 2000;

  private final Vertx vertx;
  private final Context context;
  private final HostPort emitter;
  private final ControlApi api;
  private final List<HttpServerResponse> pages = new ArrayList<>();
  private int runs;
  private int running;

  /** The span the live "host stalls" figure covers. */
  static final long STALL_WINDOW_NANOS = 10_000_000_000L;

  ConsoleStreams(Vertx vertx, Context context, HostPort emitter, ControlApi api) {
    this.vertx = vertx;
    this.context = context;
    this.emitter = emitter;
    this.api = api;
    // once a second, to the open pages: this process's host stalls over the last 10 s (its hiccup
    // meter)
    context.runOnContext(
        v ->
            vertx.setPeriodic(
                1000,
                id -> {
                  if (!pages.isEmpty()) broadcast(hostStalls());
                }));
  }

  /**
   * The console process's host stalls over the last {@link #STALL_WINDOW_NANOS}, as the page shows
   * them.
   */
  static ObjectNode hostStalls() {
    long now = System.nanoTime();
    StallFigures f =
        StallFigures.of(
            HiccupMeter.get().host().between(now - STALL_WINDOW_NANOS, now),
            now - STALL_WINDOW_NANOS);
    return Json.MAPPER
        .createObjectNode()
        .put("type", "hiccups")
        .put("window_s", STALL_WINDOW_NANOS / 1_000_000_000L)
        .put("over_5_ms", f.over5Ms())
        .put("over_20_ms", f.over20Ms())
        .put("over_50_ms", f.over50Ms())
        .put("max_ms", f.maxMs());
  }

  /** GET /console/events: this page gets every event from now on. */
  void subscribe(RoutingContext rc) {
    if (pages.size() >= MAX_PAGES) {
      JsonReplies.error(rc, 503, "at most " + MAX_PAGES + " console pages at once");
      return;
    }
    HttpServerResponse r =
        rc.response()
            .setChunked(true)
            .putHeader("Content-Type", "text/event-stream")
            .putHeader("Cache-Control", "no-cache");
    r.write(": flushlab console\n\n");
    pages.add(r);
    r.closeHandler(v -> pages.remove(r));
  }

  /** POST /console/streams {tokens, delay_ms}: starts a run. */
  void start(RoutingContext rc) {
    if (emitter == null) {
      JsonReplies.error(rc, 409, "this console has no emitter to stream from");
      return;
    }
    if (running > 0) {
      JsonReplies.error(rc, 409, "a run is still streaming; wait for it to end");
      return;
    }
    int tokens;
    double delayMs;
    try {
      var body =
          rc.body() == null || rc.body().length() == 0
              ? Json.MAPPER.createObjectNode()
              : Json.MAPPER.readTree(rc.body().asString());
      tokens = body.path("tokens").asInt(60);
      delayMs = body.path("delay_ms").asDouble(20);
    } catch (Exception e) {
      JsonReplies.error(rc, 400, "bad request body: " + e.getMessage());
      return;
    }
    if (tokens < 1 || tokens > MAX_TOKENS) {
      JsonReplies.error(rc, 400, "tokens: " + tokens + " is out of range (1.." + MAX_TOKENS + ")");
      return;
    }
    if (!(delayMs >= 0 && delayMs <= 1000)) {
      JsonReplies.error(rc, 400, "delay_ms: must be 0..1000");
      return;
    }
    int run = ++runs;
    List<Streamed> targets = new ArrayList<>();
    targets.add(new Streamed("direct", emitter));
    for (var p : api.snapshot()) {
      if (!p.path("enabled").asBoolean()) continue;
      HostPort at = HostPort.parse("listen", p.path("listen").asText(), true);
      targets.add(new Streamed(p.path("name").asText(), at));
    }
    ObjectNode begin =
        Json.MAPPER
            .createObjectNode()
            .put("type", "start")
            .put("run", run)
            .put("tokens", tokens)
            .put("delay_ms", delayMs);
    ArrayNode names = begin.putArray("targets");
    targets.forEach(t -> names.add(t.name()));
    ArrayNode words = begin.putArray("words");
    for (int i = 0; i < tokens; i++) words.add(ChatFrameSource.word(i));
    broadcast(begin);
    running = targets.size();
    for (Streamed t : targets) stream(run, t.name(), t.at().host(), t.at().port(), tokens, delayMs);
    ObjectNode ok = Json.MAPPER.createObjectNode().put("run", run);
    rc.response()
        .setStatusCode(202)
        .putHeader("Content-Type", "application/json")
        .end(Json.write(ok));
  }

  /** One path a console run streams through: the emitter directly, or a proxy's listener. */
  private record Streamed(String name, HostPort at) {}

  private void stream(int run, String target, String host, int port, int tokens, double delayMs) {
    MeteredClient client =
        new MeteredClient(vertx, ClientOptions.single().withTimeoutNanos(120_000_000_000L));
    client.observeReads(
        (since, frames, thisRead) -> {
          ObjectNode e =
              Json.MAPPER
                  .createObjectNode()
                  .put("type", "read")
                  .put("run", run)
                  .put("target", target)
                  .put("t_ms", Math.round(since / 1e3) / 1e3)
                  .put("frames", frames)
                  .put("read", thisRead);
          context.runOnContext(v -> broadcast(e));
        });
    Future<BatchResult> f = client.run(RequestPlan.chat(host, port, tokens, 0, delayMs));
    f.onComplete(
        ar -> {
          client.close();
          ObjectNode e =
              Json.MAPPER
                  .createObjectNode()
                  .put("type", "done")
                  .put("run", run)
                  .put("target", target);
          if (ar.failed() || ar.result().errorCount() > 0) {
            e.put("error", ar.failed() ? ar.cause().getMessage() : ar.result().firstError());
          } else {
            BatchResult r = ar.result();
            e.put("frames", r.frames())
                .put("frames_per_read", r.framesPerRead())
                .put("head_ms", r.timeToHeadMs().p50())
                .put("ttft_ms", r.ttftMs().p50())
                .put("gap_p50_ms", r.gapMs().p50())
                .put("gap_p99_ms", r.gapMs().p99())
                .put("emit_to_recv_p50_ms", r.emitToRecvMs().p50())
                .put("emit_to_recv_p99_ms", r.emitToRecvMs().p99());
          }
          context.runOnContext(
              v -> {
                running--;
                broadcast(e);
              });
        });
  }

  private void broadcast(ObjectNode event) {
    String frame = "data: " + Json.write(event) + "\n\n";
    for (HttpServerResponse r : List.copyOf(pages)) {
      if (r.writeQueueFull())
        continue; // a page that cannot keep up misses events rather than growing a queue
      r.write(frame);
    }
  }
}
