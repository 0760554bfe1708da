package flushlab;

import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import flushlab.core.LabVertx;
import flushlab.emitter.Emitter;
import flushlab.emitter.EmitterOptions;
import flushlab.emitter.PacingAudit;
import io.vertx.core.Vertx;
import java.util.concurrent.TimeUnit;

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

  @Override
  public void close() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }
}
