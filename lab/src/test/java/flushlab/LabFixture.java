package flushlab;

import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import flushlab.core.LabVertx;
import flushlab.core.Units;
import flushlab.scenario.Keys;
import flushlab.emitter.Emitter;
import flushlab.emitter.EmitterOptions;
import flushlab.emitter.PacingAudit;
import io.vertx.core.Vertx;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A Vert.x on epoll with an emitter on an ephemeral loopback port, for tests. */
public final class LabFixture implements AutoCloseable {
  public final Vertx vertx;
  public final Emitter emitter;

  public LabFixture() throws Exception {
    this(EmitterOptions.loopback(0), 3);
  }

  public LabFixture(EmitterOptions options, int eventLoops) throws Exception {
    vertx = LabVertx.create(eventLoops);
    emitter = new Emitter(options);
    vertx.deployVerticle(emitter).await(10, TimeUnit.SECONDS);
  }

  public String sseUrl(String query) {
    return "http://127.0.0.1:" + emitter.port() + "/sse?" + query;
  }

  public BatchResult measure(RequestPlan plan, ClientOptions options) throws Exception {
    MeteredClient client = new MeteredClient(vertx, options);
    try {
      return client.run(plan).await(120, TimeUnit.SECONDS);
    } finally {
      client.close();
    }
  }

  public BatchResult measure(String url) throws Exception {
    return measure(RequestPlan.get(url), ClientOptions.single());
  }

  /**
   * A finished stream's audit. The emitter files it on its event loop right after the stream's
   * last send(), so a client on another loop can have read the whole stream a moment before: wait
   * for it (up to 5 s) rather than read a missing audit as a failure.
   */
  public PacingAudit.Summary auditOf(long streamId) throws InterruptedException {
    Await.until("the emitter filed the audit of stream " + streamId, 5000, () -> emitter.audits().summary(streamId) != null);
    return emitter.audits().summary(streamId);
  }

  /** The pacing guard's default tolerance, as scenarios have it (guards.pacing_tolerance). */
  public static final long PACING_TOLERANCE_NANOS = Units.parseDurationNanos(Keys.PACING_TOLERANCE.defaultValue());

  /**
   * The pacing tolerance for a stream of frames {@code intervalNanos} apart: the scenario default,
   * or half the interval when that is larger. A frame written less than half an interval late
   * still leaves half an interval before the next one, so it cannot share the next one's read:
   * a later one could, and frames per read would then be the emitter's doing, not the path's.
   */
  public static long pacingToleranceNanos(long intervalNanos) {
    return Math.max(PACING_TOLERANCE_NANOS, intervalNanos / 2);
  }

  /**
   * The pacing guard, as a scenario applies it: every paced stream of {@code r} (frames
   * {@code intervalNanos} apart) was written on time by the emitter (its own audit), so what the
   * test reads is the path's doing, not a stalled emitter. A response without the emitter's
   * stream id (a relay's own 502) has no audit to read.
   */
  public void assertEmitterOnTime(BatchResult r, long intervalNanos) throws InterruptedException {
    long tolerance = pacingToleranceNanos(intervalNanos);
    for (long id : r.streamIds()) {
      if (id < 0) continue;
      PacingAudit.Summary audit = auditOf(id);
      if (!audit.paced()) continue; // frames as fast as the socket takes them have no deadline to be late for
      assertThat(audit.latenessMaxNanos()).as("the emitter's own audit of stream %d: it wrote a frame %.3f ms late, over the "
          + "pacing tolerance; the host stalled it, so this run says nothing of the path", id, audit.latenessMaxNanos() / 1e6)
          .isLessThanOrEqualTo(tolerance);
    }
  }

  @Override
  public void close() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }
}
