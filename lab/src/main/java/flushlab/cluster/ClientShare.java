package flushlab.cluster;

import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import flushlab.client.StreamResult;
import flushlab.core.Json;
import com.fasterxml.jackson.core.type.TypeReference;
import flushlab.core.HostPort;
import flushlab.core.ThreadWaits;
import flushlab.proxy.ProxyProcess;
import flushlab.run.CellRequest;
import flushlab.run.RunStalls;
import flushlab.run.StallJudge;
import flushlab.scenario.Cell;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * A share of a run's client load, run by one agent for another over the event bus: the asker
 * names the target's address and the cell (its settings by name, checked again by the agent's keys), a request count, a concurrency and a deadline; the agent runs them with its metered
 * client and answers with its counts and its histograms in HdrHistogram's compressed encoding (no
 * Java serialization). Work past its deadline is stopped by the agent itself, so a coordinator that
 * dies leaves no agent running its work for longer than that.
 */
public final class ClientShare {
  /** The most requests and concurrency one share may ask of an agent. */
  public static final int MAX_REQUESTS = 100_000;
  public static final int MAX_CONCURRENCY = 1000;
  /** The longest deadline a share may carry. */
  public static final long MAX_DEADLINE_MS = 3_600_000;

  private ClientShare() {}

  static String address(String agent) {
    return "flushlab.agent." + agent + ".client";
  }

  /**
   * What one agent measured: its counts, exact, and its histograms.
   *
   * @param failed streams that ended in an error (never counted ok)
   * @param readsWithFrames the reads that completed at least one frame (what frames per read divides by, as everywhere)
   * @param damaged frames lost, duplicated, reordered or corrupt, summed
   * @param streamIds the emitter's ids of the streams read, for its pacing audit (bounded by the share's requests)
   * @param stalls the agent's own host stalls over its share and the extra frames they explain (its hiccup meter)
   */
  public record Counts(String agent, int streams, int streamsOk, int failed, long frames, long reads, long readsWithFrames, long damaged,
      Histogram emitToRecv, Histogram ttft, Histogram gap, List<Long> streamIds, AgentStalls stalls) {
    public Counts {
      streamIds = List.copyOf(streamIds);
    }

    JsonObject toJson() {
      return new JsonObject().put("agent", agent).put("streams", streams).put("streams_ok", streamsOk).put("failed", failed)
          .put("frames", frames).put("reads", reads).put("reads_with_frames", readsWithFrames).put("damaged", damaged).put("emit_to_recv", encode(emitToRecv))
          .put("ttft", encode(ttft)).put("gap", encode(gap)).put("stream_ids", new io.vertx.core.json.JsonArray(new java.util.ArrayList<>(streamIds)))
          .put("stalls", new JsonObject(Json.write(stalls)));
    }

    static Counts fromJson(JsonObject j) {
      List<Long> ids = new java.util.ArrayList<>();
      for (Object o : j.getJsonArray("stream_ids")) ids.add(((Number) o).longValue());
      return new Counts(j.getString("agent"), j.getInteger("streams"), j.getInteger("streams_ok"), j.getInteger("failed"),
          j.getLong("frames"), j.getLong("reads"), j.getLong("reads_with_frames"), j.getLong("damaged"), decode(j.getString("emit_to_recv")),
          decode(j.getString("ttft")), decode(j.getString("gap")), ids, stallsOf(j.getJsonObject("stalls")));
    }

    static AgentStalls stallsOf(JsonObject j) {
      try {
        return Json.MAPPER.readValue(j.encode(), AgentStalls.class);
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalArgumentException("an agent's stalls did not read back: " + e.getOriginalMessage(), e);
      }
    }

    /** What {@code agent} read between {@code startNanos} and now, judged against its own host's stalls and the path's waits. */
    static Counts of(String agent, BatchResult r, long startNanos, long intervalNanos, HostedPath path) {
      RunStalls s = StallJudge.judge(r, startNanos, System.nanoTime(), "client agent " + agent, intervalNanos, path.since());
      return new Counts(agent, r.streams(), r.streamsOk(), r.errorCount(), r.frames(), r.reads(), r.readsWithFrames(),
          r.lostFrames() + r.duplicateFrames() + r.reorderedFrames() + r.corruptFrames(), r.emitToRecvHistogram(),
          r.ttftHistogram(), r.gapHistogram(), r.streamIds(), AgentStalls.of(s));
    }

    /** Frames per read that completed a frame (as a one-host run counts it), from the exact sums; NaN when no frame was read. */
    public double framesPerRead() {
      return readsWithFrames == 0 ? Double.NaN : (double) frames / readsWithFrames;
    }

    /** The sum of several agents' counts: exact sums, histograms added; "no data" (null) when there is none to sum. */
    public static Counts merge(List<Counts> all) {
      if (all.isEmpty()) return null;
      Histogram e2r = new Histogram(3);
      Histogram ttft = new Histogram(3);
      Histogram gap = new Histogram(3);
      int streams = 0;
      int ok = 0;
      int failed = 0;
      long frames = 0;
      long reads = 0;
      long withFrames = 0;
      long damaged = 0;
      List<Long> ids = new java.util.ArrayList<>();
      List<AgentStalls> stalls = new java.util.ArrayList<>();
      for (Counts c : all) {
        stalls.add(c.stalls);
        streams += c.streams;
        ok += c.streamsOk;
        failed += c.failed;
        frames += c.frames;
        reads += c.reads;
        withFrames += c.readsWithFrames;
        damaged += c.damaged;
        e2r.add(c.emitToRecv);
        ttft.add(c.ttft);
        gap.add(c.gap);
        ids.addAll(c.streamIds);
      }
      return new Counts("merged", streams, ok, failed, frames, reads, withFrames, damaged, e2r, ttft, gap, ids, AgentStalls.merge(stalls));
    }
  }

  /**
   * The proxies this JVM hosts (an agent that runs a target beside its clients, or beside the agent
   * that does), read before a run: what the host took from them over the run is the host's, as a
   * one-host run counts its target's. A proxy on another host is out of reach and counts nothing.
   * A scan of /proc before the run and after it, off the event loop, none while it runs, and none
   * with no proxy here.
   */
  record HostedPath(List<Long> pids, ThreadWaits before) {
    static final HostedPath NONE = new HostedPath(List.of(), null);

    /** Takes the first reading off the event loop, then runs {@code run} with it on the caller's context. */
    static void read(Vertx vertx, Consumer<HostedPath> run) {
      if (ProxyProcess.livePids().isEmpty()) {
        run.accept(NONE);
        return;
      }
      vertx.executeBlocking(HostedPath::now, false).onComplete(ar -> run.accept(ar.succeeded() ? ar.result() : NONE));
    }

    static HostedPath now() {
      List<Long> pids = ProxyProcess.livePids();
      return new HostedPath(pids, ThreadWaits.of(pids));
    }

    StallJudge.PathWait since() {
      if (pids.isEmpty()) return StallJudge.PathWait.NONE;
      return new StallJudge.PathWait("the proxy this host runs", ThreadWaits.of(pids).longestSince(before));
    }
  }

  static String encode(Histogram h) {
    ByteBuffer b = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
    int n = h.encodeIntoCompressedByteBuffer(b);
    return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(b.array(), n));
  }

  static Histogram decode(String base64) {
    try {
      return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
    } catch (java.util.zip.DataFormatException e) {
      throw new IllegalArgumentException("a histogram that does not decode: " + e.getMessage());
    }
  }

  /** The most streams a whole-results share may ask (a map's cell is a few). */
  public static final int MAX_WHOLE_STREAMS = 1000;

  static String streamsAddress(String agent) {
    return "flushlab.agent." + agent + ".streams";
  }

  /** Serves shares asked of {@code agent}: counts ({@link #ask}) and whole stream results ({@link #askStreams}). */
  static void serve(Agent agent) {
    serveCounts(agent);
    serveStreams(agent);
  }

  /**
   * A cell run whole on this agent, answered with every stream's results (what a map's inference
   * reads: each read, each release), as JSON. The request's headers are sent as the client sends them.
   */
  private static void serveStreams(Agent agent) {
    io.vertx.core.Vertx vertx = agent.vertx();
    vertx.eventBus().<JsonObject>consumer(streamsAddress(agent.spec().agent()), m -> {
      JsonObject ask = m.body();
      long deadlineMs = ask.getLong("deadline_ms", 0L);
      Asked a = asked(agent, m);
      if (a == null) return;
      Cell cell = a.cell();
      RequestPlan plan = a.plan();
      if (cell.client().requests() > MAX_WHOLE_STREAMS || deadlineMs < 1 || deadlineMs > MAX_DEADLINE_MS) {
        m.fail(400, "a cell run whole asks at most " + MAX_WHOLE_STREAMS + " streams and a deadline of 1.." + MAX_DEADLINE_MS + " ms");
        return;
      }
      HostedPath.read(vertx, path -> {
        long started = System.nanoTime();
        // the agent judges its own reads against its own host's stalls, as for a share of counts
        runUntilDeadline(agent, m, "cell", cell.client(), plan, deadlineMs,
            r -> new JsonObject().put("agent", agent.spec().agent()).put("streams", Json.write(r.streamResults()))
                .put("stalls", new JsonObject(Json.write(AgentStalls.of(StallJudge.judge(r, started, System.nanoTime(),
                    "client agent " + agent.spec().agent(), cell.stream().intervalNanos(), path.since()))))));
      });
    });
  }

  /**
   * Asks {@code agent} to run {@code cell} whole (its requests and concurrency) against {@code at}
   * with these request headers, and answers its streams' results; fails a second after the
   * deadline, or as soon as the agent leaves.
   */
  public static Future<Streams> askStreams(Agent from, String agent, HostPort at, Cell cell, List<String[]> headers,
      long deadlineMs) {
    JsonObject body = body(at, cell, headers).put("deadline_ms", deadlineMs);
    return from.untilLeft(agent, from.vertx().eventBus().<JsonObject>request(streamsAddress(agent), body,
        new DeliveryOptions().setSendTimeout(deadlineMs + 1_000)).map(msg -> {
          try {
            return new Streams(Json.MAPPER.readValue(msg.body().getString("streams"), STREAMS), Counts.stallsOf(msg.body().getJsonObject("stalls")));
          } catch (java.io.IOException | IllegalArgumentException e) {
            throw new IllegalStateException("agent " + agent + " answered streams that do not read back: " + e.getMessage());
          }
        }));
  }

  /** A cell run whole on one agent: every stream's results, and what its own host's stalls explain of its reads. */
  public record Streams(List<StreamResult> results, AgentStalls stalls) {}

  private static final TypeReference<List<StreamResult>> STREAMS = new TypeReference<>() {};

  /**
   * Runs {@code plan} with a metered client of these options (its request timeout no longer than
   * the deadline) and answers {@code m} with {@code answer} of the result; at the deadline the
   * agent stops the work itself (the asker is gone or late: its connections close with it) and
   * answers 504, so no share outlives its deadline.
   */
  private static void runUntilDeadline(Agent agent, Message<JsonObject> m, String what, ClientOptions options, RequestPlan plan,
      long deadlineMs, java.util.function.Function<BatchResult, JsonObject> answer) {
    io.vertx.core.Vertx vertx = agent.vertx();
    if (options.timeoutNanos() > deadlineMs * 1_000_000L) options = options.withTimeoutNanos(deadlineMs * 1_000_000L);
    MeteredClient client = new MeteredClient(vertx, options);
    boolean[] answered = {false};
    long timer = vertx.setTimer(deadlineMs, t -> {
      if (answered[0]) return;
      answered[0] = true;
      client.close();
      m.fail(504, "agent " + agent.spec().agent() + " stopped its " + what + " at its deadline of " + deadlineMs + " ms");
    });
    client.run(plan).onComplete(ar -> {
      vertx.cancelTimer(timer);
      client.close();
      if (answered[0]) return;
      answered[0] = true;
      if (ar.failed()) {
        m.fail(500, "agent " + agent.spec().agent() + ": " + ar.cause().getMessage());
        return;
      }
      // judged off the loop: the judge waits for the meter's thread to log a stall the run ended in
      vertx.executeBlocking(() -> answer.apply(ar.result()), false).onComplete(j -> {
        if (j.succeeded()) m.reply(j.result());
        else m.fail(500, "agent " + agent.spec().agent() + ": " + j.cause().getMessage());
      });
    });
  }

  private static void serveCounts(Agent agent) {
    io.vertx.core.Vertx vertx = agent.vertx();
    vertx.eventBus().<JsonObject>consumer(address(agent.spec().agent()), m -> {
      JsonObject ask = m.body();
      int requests = ask.getInteger("requests", 0);
      int concurrency = ask.getInteger("concurrency", 0);
      long deadlineMs = ask.getLong("deadline_ms", 0L);
      if (requests < 1 || requests > MAX_REQUESTS || concurrency < 1 || concurrency > MAX_CONCURRENCY
          || deadlineMs < 1 || deadlineMs > MAX_DEADLINE_MS) {
        m.fail(400, "a share asks 1.." + MAX_REQUESTS + " requests, 1.." + MAX_CONCURRENCY + " at once, a deadline of 1.."
            + MAX_DEADLINE_MS + " ms");
        return;
      }
      Asked a = asked(agent, m);
      if (a == null) return;
      HostedPath.read(agent.vertx(), path -> {
        long started = System.nanoTime();
        runUntilDeadline(agent, m, "share", a.cell().client().withRequests(requests, Math.min(concurrency, requests)), a.plan(),
            deadlineMs, r -> Counts.of(agent.spec().agent(), r, started, a.cell().stream().intervalNanos(), path).toJson());
      });
    });
  }

  /** What a request over the bus asks to run: the cell (its settings checked again here) and the request it makes. */
  private record Asked(Cell cell, RequestPlan plan) {}

  /** The cell, target and request headers {@code m} names; null after failing it 400 with what is wrong. */
  private static Asked asked(Agent agent, Message<JsonObject> m) {
    JsonObject ask = m.body();
    try {
      Map<String, String> settings = new LinkedHashMap<>();
      for (Map.Entry<String, Object> e : ask.getJsonObject("settings", new JsonObject())) settings.put(e.getKey(), String.valueOf(e.getValue()));
      Cell cell = Cell.fromSettings(settings);
      List<String[]> headers = new java.util.ArrayList<>();
      for (Object h : ask.getJsonArray("headers", new io.vertx.core.json.JsonArray())) {
        io.vertx.core.json.JsonArray pair = (io.vertx.core.json.JsonArray) h;
        headers.add(new String[] {pair.getString(0), pair.getString(1)});
      }
      return new Asked(cell, CellRequest.plan(cell, HostPort.parse("at", ask.getString("at", ""), false)).withHeaders(headers));
    } catch (RuntimeException e) {
      m.fail(400, "agent " + agent.spec().agent() + " cannot run what it was asked: " + e.getMessage());
      return null;
    }
  }

  /** A request's target, cell and request headers (client.headers: the client agents send them as this process would). */
  private static JsonObject body(HostPort at, Cell cell, List<String[]> headers) {
    io.vertx.core.json.JsonArray h = new io.vertx.core.json.JsonArray();
    for (String[] pair : headers) h.add(new io.vertx.core.json.JsonArray().add(pair[0]).add(pair[1]));
    return new JsonObject().put("at", at.host() + ":" + at.port()).put("settings", new JsonObject(new LinkedHashMap<>(cell.settingsByName())))
        .put("headers", h);
  }

  /**
   * Asks {@code agent} (through {@code from}'s bus) to run a share of {@code cell}'s load against
   * the target at {@code at} with these request headers: {@code requests} of it, {@code concurrency}
   * at once. The agent stops it at {@code deadlineMs}; the ask fails a second after that, or as soon
   * as the agent leaves.
   */
  public static Future<Counts> ask(Agent from, String agent, HostPort at, Cell cell, List<String[]> headers, int requests, int concurrency,
      long deadlineMs) {
    JsonObject body = body(at, cell, headers).put("requests", requests).put("concurrency", concurrency).put("deadline_ms", deadlineMs);
    return from.untilLeft(agent, from.vertx().eventBus().<JsonObject>request(address(agent), body, new DeliveryOptions().setSendTimeout(deadlineMs + 1_000))
        .map(msg -> Counts.fromJson(msg.body())));
  }
}
