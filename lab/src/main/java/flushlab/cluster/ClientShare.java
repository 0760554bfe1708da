package flushlab.cluster;

import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * A share of a run's client load, run by one agent for another over the event bus: the asker
 * names a URL, a request count, a concurrency and a deadline; the agent runs them with its metered
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

  /** What one agent measured: its counts, exact, and its histograms. */
  public record Counts(String agent, int streams, int streamsOk, long frames, long reads, Histogram emitToRecv, Histogram ttft) {
    JsonObject toJson() {
      return new JsonObject().put("agent", agent).put("streams", streams).put("streams_ok", streamsOk).put("frames", frames)
          .put("reads", reads).put("emit_to_recv", encode(emitToRecv)).put("ttft", encode(ttft));
    }

    static Counts fromJson(JsonObject j) {
      return new Counts(j.getString("agent"), j.getInteger("streams"), j.getInteger("streams_ok"), j.getLong("frames"),
          j.getLong("reads"), decode(j.getString("emit_to_recv")), decode(j.getString("ttft")));
    }

    /** The sum of several agents' counts: exact sums, histograms added. */
    public static Counts merge(List<Counts> all) {
      Histogram e2r = new Histogram(3);
      Histogram ttft = new Histogram(3);
      int streams = 0;
      int ok = 0;
      long frames = 0;
      long reads = 0;
      for (Counts c : all) {
        streams += c.streams;
        ok += c.streamsOk;
        frames += c.frames;
        reads += c.reads;
        e2r.add(c.emitToRecv);
        ttft.add(c.ttft);
      }
      return new Counts("merged", streams, ok, frames, reads, e2r, ttft);
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

  /** Serves shares asked of {@code agent}. */
  static void serve(Agent agent) {
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
      RequestPlan plan;
      try {
        plan = RequestPlan.get(ask.getString("url"));
      } catch (RuntimeException e) {
        m.fail(400, "a share's url: " + e.getMessage());
        return;
      }
      MeteredClient client = new MeteredClient(vertx, ClientOptions.single().withRequests(requests, Math.min(concurrency, requests))
          .withTimeoutNanos(deadlineMs * 1_000_000L));
      boolean[] answered = {false};
      long timer = vertx.setTimer(deadlineMs, t -> {
        if (answered[0]) return;
        answered[0] = true;
        client.close(); // the asker is gone or late: stop the work, its connections with it
        m.fail(504, "agent " + agent.spec().agent() + " stopped its share at its deadline of " + deadlineMs + " ms");
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
        BatchResult r = ar.result();
        m.reply(new Counts(agent.spec().agent(), r.streams(), r.streamsOk(), r.frames(), r.reads(),
            r.emitToRecvHistogram(), r.ttftHistogram()).toJson());
      });
    });
  }

  /** Asks {@code agent} (through {@code from}'s bus) to run a share; fails after the deadline plus a second. */
  public static Future<Counts> ask(Agent from, String agent, String url, int requests, int concurrency, long deadlineMs) {
    JsonObject body = new JsonObject().put("url", url).put("requests", requests).put("concurrency", concurrency).put("deadline_ms", deadlineMs);
    return from.vertx().eventBus().<JsonObject>request(address(agent), body, new DeliveryOptions().setSendTimeout(deadlineMs + 1_000))
        .map(msg -> Counts.fromJson(msg.body()));
  }
}
