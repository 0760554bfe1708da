package flushlab.run;

import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import flushlab.client.StreamResult;
import flushlab.map.IdleCut;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One stream kept silent beside a map's cells, on a connection of its own: the response head, then
 * a think as long as the map may take, then its two frames. A target that closes a connection idle
 * for T cuts it T after the last byte moved; the cells never pause that long. It costs the map no
 * time: it runs while the cells are measured and is closed when the map stops watching ({@link
 * #stop}), which says whether it was cut before then, and when.
 */
final class SilentStream implements AutoCloseable {
  /**
   * How long {@link #stop} waits for the client to finish a stream it closed: closing is local, and
   * quick.
   */
  private static final long CLOSE_WAIT_NANOS = 5_000_000_000L;

  private final MeteredClient client;
  private final Future<BatchResult> result;
  private final long startedNanos = System.nanoTime();

  /** What {@link #stop} found, once it has: asked again, it says the same. */
  private IdleCut found;

  private SilentStream(MeteredClient client, Future<BatchResult> result) {
    this.client = client;
    this.result = result;
  }

  /**
   * Starts {@code plan} (a stream whose think lasts at least as long as the watch) with the cell's
   * client options, one request, its timeout past the think.
   */
  static SilentStream start(
      Vertx vertx, RequestPlan plan, ClientOptions cellClient, long thinkNanos) {
    MeteredClient client =
        new MeteredClient(
            vertx, cellClient.withRequests(1, 1).withTimeoutNanos(thinkNanos + 30_000_000_000L));
    return new SilentStream(client, client.run(plan));
  }

  /** Nanoseconds since the stream was started. */
  long watchedNanos() {
    return System.nanoTime() - startedNanos;
  }

  /**
   * Stops watching: a stream still open is closed and was not cut; one the target ended before now
   * was cut (closed, reset, or answered 502/504 as a proxy does for an upstream it cut), unless it
   * failed otherwise before its silence began (an error status, a refused connection). A stream
   * still open is first watched until {@code watchAtLeastMs} from its start, so a cut expected (the
   * target's, on the model) has its time to come.
   */
  IdleCut stop(double watchAtLeastMs) throws Exception {
    if (found == null) found = watchUntil((long) (watchAtLeastMs * 1e6) - watchedNanos());
    return found;
  }

  /**
   * What {@link #stop} says, when the stream has already ended (cut, or failed); null while it is
   * still open.
   */
  IdleCut endedSoFar() throws Exception {
    return found != null || result.isComplete() ? stop(0) : null;
  }

  /** Closes a stream still open, without a finding (the map stopped before it asked for one). */
  @Override
  public void close() {
    if (found != null) return;
    found =
        IdleCut.failed(watchedNanos() / 1e6, "the map stopped before the silent stream was read");
    client.abort();
    client.close();
  }

  private IdleCut watchUntil(long wait) throws Exception {
    if (wait > 0 && !result.isComplete()) {
      try {
        result.toCompletionStage().toCompletableFuture().get(wait, TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        // not cut by then: closed below
      }
    }
    long stopAsked = System.nanoTime();
    boolean endedBefore = result.isComplete();
    BatchResult r;
    try {
      if (!endedBefore) client.abort();
      r =
          result
              .toCompletionStage()
              .toCompletableFuture()
              .get(CLOSE_WAIT_NANOS, TimeUnit.NANOSECONDS);
    } finally {
      client.close();
    }
    StreamResult s = r.streamResults().isEmpty() ? null : r.streamResults().get(0);
    if (s == null) return IdleCut.failed((stopAsked - startedNanos) / 1e6, "no stream was started");
    StreamResult.Timing t = s.timing();
    Double headMs = t.headNanos() >= 0 ? t.headNanos() / 1e6 : null;
    long requested = t.requestNanos() >= 0 ? t.requestNanos() : startedNanos;
    if (!endedBefore || s.ok()) return IdleCut.notCut((stopAsked - requested) / 1e6, headMs);
    if (!s.cutByThePeer())
      return IdleCut.failed(
          (stopAsked - requested) / 1e6, s.error().meaning() + ": " + s.errorMessage());
    return IdleCut.cut(t.endNanos() / 1e6, headMs);
  }
}
