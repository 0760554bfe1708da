package flushlab.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import flushlab.client.StreamResult;
import flushlab.core.HostPort;
import flushlab.core.Json;
import flushlab.core.ThreadWaits;
import flushlab.http.Header;
import flushlab.proxy.ProxyProcess;
import flushlab.run.CellRequest;
import flushlab.run.StallJudge;
import flushlab.scenario.Cell;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A share of a run's client load, run by one agent for another over the event bus: the asker names
 * the target's address and the cell (its settings by name, checked again by the agent's keys) and a
 * deadline; the agent runs the share with its metered client and answers with every stream's
 * results as JSON (no Java serialization) and what its own host's stalls explain of its reads. Work
 * past its deadline is stopped by the agent itself, so a coordinator that dies leaves no agent
 * running its work for longer than that.
 */
public final class ClientShare {
  /** The longest deadline a share may carry. */
  public static final long MAX_DEADLINE_MS = 3_600_000;

  private ClientShare() {}

  /** An agent's stalls as its answer carries them. */
  static AgentStalls stallsOf(JsonObject j) {
    try {
      return Json.MAPPER.readValue(j.encode(), AgentStalls.class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "an agent's stalls did not read back: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * The proxies this JVM hosts (an agent that runs a target beside its clients, or beside the agent
   * that does), read before a run: what the host took from them over the run is the host's, as a
   * one-host run counts its target's. A proxy on another host is out of reach and counts nothing. A
   * scan of /proc before the run and after it, off the event loop, none while it runs, and none
   * with no proxy here.
   */
  record HostedPath(List<Long> pids, ThreadWaits before) {
    static final HostedPath NONE = new HostedPath(List.of(), null);

    /**
     * Takes the first reading off the event loop, then runs {@code run} with it on the caller's
     * context.
     */
    static void read(Vertx vertx, Consumer<HostedPath> run) {
      if (ProxyProcess.livePids().isEmpty()) {
        run.accept(NONE);
        return;
      }
      vertx
          .executeBlocking(HostedPath::now, false)
          .onComplete(ar -> run.accept(ar.succeeded() ? ar.result() : NONE));
    }

    static HostedPath now() {
      List<Long> pids = ProxyProcess.livePids();
      return new HostedPath(pids, ThreadWaits.of(pids));
    }

    StallJudge.PathWait since() {
      if (pids.isEmpty()) return StallJudge.PathWait.NONE;
      return new StallJudge.PathWait(
          "the proxy this host runs", ThreadWaits.of(pids).longestSince(before));
    }
  }

  /** The most streams a whole-results share may ask (a map's cell is a few). */
  public static final int MAX_WHOLE_STREAMS = 1000;

  static String streamsAddress(String agent) {
    return "flushlab.agent." + agent + ".streams";
  }

  /** Serves shares asked of {@code agent}: whole stream results ({@link #askStreams}). */
  static void serve(Agent agent) {
    serveStreams(agent);
  }

  /**
   * A cell run whole on this agent, answered with every stream's results (what a map's inference
   * reads: each read, each release), as JSON. The request's headers are sent as the client sends
   * them.
   */
  private static void serveStreams(Agent agent) {
    Vertx vertx = agent.vertx();
    vertx
        .eventBus()
        .<JsonObject>consumer(
            streamsAddress(agent.spec().agent()),
            m -> {
              JsonObject ask = m.body();
              long deadlineMs = ask.getLong("deadline_ms", 0L);
              Asked a = asked(agent, m);
              if (a == null) return;
              Cell cell = a.cell();
              RequestPlan plan = a.plan();
              if (cell.client().requests() > MAX_WHOLE_STREAMS
                  || deadlineMs < 1
                  || deadlineMs > MAX_DEADLINE_MS) {
                m.fail(
                    400,
                    "a cell run whole asks at most "
                        + MAX_WHOLE_STREAMS
                        + " streams and a deadline of 1.."
                        + MAX_DEADLINE_MS
                        + " ms");
                return;
              }
              HostedPath.read(
                  vertx,
                  path -> {
                    long started = System.nanoTime();
                    // the agent judges its own reads against its own host's stalls, as a one-host
                    // run judges this host's
                    runUntilDeadline(
                        agent,
                        m,
                        "share",
                        cell.client(),
                        plan,
                        deadlineMs,
                        r ->
                            new JsonObject()
                                .put("agent", agent.spec().agent())
                                .put("streams", Json.write(r.streamResults()))
                                .put(
                                    "stalls",
                                    new JsonObject(
                                        Json.write(
                                            AgentStalls.of(
                                                StallJudge.judge(
                                                    r,
                                                    started,
                                                    System.nanoTime(),
                                                    "client agent " + agent.spec().agent(),
                                                    cell.stream().intervalNanos(),
                                                    path.since()))))));
                  });
            });
  }

  /**
   * Asks {@code agent} to run {@code cell} whole (its requests and concurrency) against {@code at}
   * with these request headers, and answers its streams' results; fails a second after the
   * deadline, or as soon as the agent leaves.
   */
  public static Future<Streams> askStreams(
      Agent from, String agent, HostPort at, Cell cell, List<Header> headers, long deadlineMs) {
    JsonObject body = body(at, cell, headers).put("deadline_ms", deadlineMs);
    return from.untilLeft(
        agent,
        from.vertx()
            .eventBus()
            .<JsonObject>request(
                streamsAddress(agent),
                body,
                new DeliveryOptions().setSendTimeout(deadlineMs + 1_000))
            .map(
                msg -> {
                  try {
                    return new Streams(
                        Json.MAPPER.readValue(msg.body().getString("streams"), STREAMS),
                        stallsOf(msg.body().getJsonObject("stalls")));
                  } catch (IOException | IllegalArgumentException e) {
                    throw new IllegalStateException(
                        "agent "
                            + agent
                            + " answered streams that do not read back: "
                            + e.getMessage());
                  }
                }));
  }

  /**
   * A cell run whole on one agent: every stream's results, and what its own host's stalls explain
   * of its reads.
   */
  public record Streams(List<StreamResult> results, AgentStalls stalls) {}

  private static final TypeReference<List<StreamResult>> STREAMS = new TypeReference<>() {};

  /**
   * Runs {@code plan} with a metered client of these options (its request timeout no longer than
   * the deadline) and answers {@code m} with {@code answer} of the result; at the deadline the
   * agent stops the work itself (the asker is gone or late: its connections close with it) and
   * answers 504, so no share outlives its deadline.
   */
  private static void runUntilDeadline(
      Agent agent,
      Message<JsonObject> m,
      String what,
      ClientOptions options,
      RequestPlan plan,
      long deadlineMs,
      Function<BatchResult, JsonObject> answer) {
    Vertx vertx = agent.vertx();
    if (options.timeoutNanos() > deadlineMs * 1_000_000L)
      options = options.withTimeoutNanos(deadlineMs * 1_000_000L);
    MeteredClient client = new MeteredClient(vertx, options);
    boolean[] answered = {false};
    long timer =
        vertx.setTimer(
            deadlineMs,
            t -> {
              if (answered[0]) return;
              answered[0] = true;
              client.close();
              m.fail(
                  504,
                  "agent "
                      + agent.spec().agent()
                      + " stopped its "
                      + what
                      + " at its deadline of "
                      + deadlineMs
                      + " ms");
            });
    client
        .run(plan)
        .onComplete(
            ar -> {
              vertx.cancelTimer(timer);
              client.close();
              if (answered[0]) return;
              answered[0] = true;
              if (ar.failed()) {
                m.fail(500, "agent " + agent.spec().agent() + ": " + ar.cause().getMessage());
                return;
              }
              // judged off the loop: the judge waits for the meter's thread to log a stall the run
              // ended in
              vertx
                  .executeBlocking(() -> answer.apply(ar.result()), false)
                  .onComplete(
                      j -> {
                        if (j.succeeded()) m.reply(j.result());
                        else
                          m.fail(
                              500, "agent " + agent.spec().agent() + ": " + j.cause().getMessage());
                      });
            });
  }

  /**
   * What a request over the bus asks to run: the cell (its settings checked again here) and the
   * request it makes.
   */
  private record Asked(Cell cell, RequestPlan plan) {}

  /**
   * The cell, target and request headers {@code m} names; null after failing it 400 with what is
   * wrong.
   */
  private static Asked asked(Agent agent, Message<JsonObject> m) {
    JsonObject ask = m.body();
    try {
      Map<String, String> settings = new LinkedHashMap<>();
      for (Map.Entry<String, Object> e : ask.getJsonObject("settings", new JsonObject()))
        settings.put(e.getKey(), String.valueOf(e.getValue()));
      Cell cell = Cell.fromSettings(settings);
      List<Header> headers = new ArrayList<>();
      for (Object h : ask.getJsonArray("headers", new JsonArray())) {
        JsonArray pair = (JsonArray) h;
        headers.add(new Header(pair.getString(0), pair.getString(1)));
      }
      return new Asked(
          cell,
          CellRequest.plan(cell, HostPort.parse("at", ask.getString("at", ""), false))
              .withHeaders(headers));
    } catch (RuntimeException e) {
      m.fail(
          400,
          "agent " + agent.spec().agent() + " cannot run what it was asked: " + e.getMessage());
      return null;
    }
  }

  /**
   * A request's target, cell and request headers (client.headers: the client agents send them as
   * this process would).
   */
  private static JsonObject body(HostPort at, Cell cell, List<Header> headers) {
    JsonArray h = new JsonArray();
    for (Header field : headers) h.add(new JsonArray().add(field.name()).add(field.value()));
    return new JsonObject()
        .put("at", at.host() + ":" + at.port())
        .put("settings", new JsonObject(new LinkedHashMap<>(cell.settingsByName())))
        .put("headers", h);
  }
}
