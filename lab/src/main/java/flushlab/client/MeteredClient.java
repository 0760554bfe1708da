package flushlab.client;

import flushlab.coding.NativeCodecs;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a batch of requests over raw TCP and meters every read. One data callback is one read from
 * the kernel (epoll: one successful recv(); see docs/ARCHITECTURE.md), each into a buffer of {@link
 * ClientOptions#recvBufferBytes()} like a recv() call with that size. A slow reader turns auto-read
 * off and asks the channel for exactly one read after each pause, so the kernel's buffers fill as
 * they would behind a slow client.
 *
 * <p>Threading: the whole batch runs on one event-loop context; no locking.
 */
public final class MeteredClient {
  /**
   * HTTP/2 answers (PING and SETTINGS acks, WINDOW_UPDATEs) queued for a server that reads none:
   * Netty's 10,000 PING acks, in bytes.
   */
  static final long MAX_UNREAD_REPLY_BYTES = 10_000L * 17;

  private final Vertx vertx;
  private final NetClient net;
  private final ClientOptions options;
  private final AtomicInteger finishedStreams = new AtomicInteger();
  private volatile boolean aborted;
  private volatile ReadObserver observer;

  /**
   * Told of every read that completed frames, on the client's loop: for live views (the console),
   * never for measuring.
   */
  public interface ReadObserver {
    /**
     * @param sinceRequestNanos the read's time from the request being written
     * @param framesSoFar the stream's frames so far, this read's included
     * @param framesThisRead the frames this read completed
     */
    void onFrames(long sinceRequestNanos, int framesSoFar, int framesThisRead);
  }

  /** From the next read on, tells {@code o} of every read that completes frames (null: nobody). */
  public void observeReads(ReadObserver o) {
    this.observer = o;
  }

  public MeteredClient(Vertx vertx, ClientOptions options) {
    NativeCodecs.preload(); // not on an event loop, at the first br or zstd stream
    this.vertx = vertx;
    this.options = options;
    // TLS handshakes' heavy steps (certificate checks, key agreement) on the worker pool: on the
    // client's one event loop they held the reads of every other stream for milliseconds.
    this.net =
        vertx.createNetClient(
            new NetClientOptions()
                .setSslEngineOptions(new JdkSSLEngineOptions().setUseWorkerThread(true))
                .setTcpNoDelay(true)
                .setConnectTimeout(
                    (int) Math.min(30_000, Math.max(1, options.timeoutNanos() / 1_000_000))));
  }

  /** Streams finished so far in the running batch (for progress lines). */
  public int finishedStreams() {
    return finishedStreams.get();
  }

  public Future<BatchResult> run(RequestPlan plan) {
    Promise<BatchResult> promise = Promise.promise();
    Context context = vertx.getOrCreateContext();
    context.runOnContext(v -> new ClientBatch(this, plan, promise).start());
    return promise.future();
  }

  public Future<Void> close() {
    return net.close();
  }

  /**
   * Stops the running batch now (Ctrl-C): no new request starts and open connections are closed, so
   * the batch completes at once, its unfinished streams failed. The caller discards it.
   */
  public Future<Void> abort() {
    aborted = true;
    return net.close();
  }

  /** True once {@link #abort()} was called. */
  public boolean aborted() {
    return aborted;
  }

  ClientOptions options() {
    return options;
  }

  Vertx vertx() {
    return vertx;
  }

  NetClient net() {
    return net;
  }

  /** Who hears of every read that completes frames, or null. */
  ReadObserver observer() {
    return observer;
  }

  void streamFinished() {
    finishedStreams.incrementAndGet();
  }
}
