package flushlab.relay;

import flushlab.coding.NativeCodecs;
import flushlab.core.LoopListener;
import flushlab.core.LoopPlacement;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A misbehaving relay, as a verticle: listens (loopback unless told otherwise), opens or reuses an
 * upstream connection per client connection, and applies its shaper chain to every response. All
 * its connections share the verticle's one event loop, so the pool needs no locking.
 */
public final class Relay extends VerticleBase {
  private final RelayOptions options;
  private final RelayLog log;
  private final AtomicLong ids = new AtomicLong();
  private final AtomicLong upstreamPauses = new AtomicLong();

  /**
   * The listener: {@code plain} without TLS, {@code server} (Vert.x's, for its TLS and ALPN) with
   * it.
   */
  private LoopListener plain;

  private NetServer server;
  private Upstream upstream;
  private UpstreamPool pool;

  /**
   * Client connections open now, and the most at once so far; confined to the relay's event loop.
   */
  private int open;

  private int peakOpen;
  private HeldBytes held;

  /**
   * The loop every connection of this relay runs on: one no emitter of this process writes on,
   * where there is one.
   */
  private LoopPlacement.Placed loop;

  /**
   * What each new connection gets: the options' chain unless a controller set another (the control
   * API).
   */
  private volatile Supplier<ConnectionPlan> chain;

  private static final String REFUSED = "flushlab relay: too many connections\n";

  public Relay(RelayOptions options, RelayLog log) {
    NativeCodecs.preload(); // not on an event loop, at the first br or zstd stream
    this.options = options;
    this.log = log;
    this.chain = () -> ConnectionPlan.of(options.shapers());
  }

  /**
   * From now on, each new connection takes its plan from {@code next} (called on the relay's loop,
   * once per connection); connections already open keep theirs.
   */
  public void chain(Supplier<ConnectionPlan> next) {
    this.chain = next;
  }

  @Override
  public Future<?> start() {
    // TCP_NODELAY on both sides: any coalescing must come from a shaper, never from the relay
    // itself.
    NetClient net =
        vertx.createNetClient(new NetClientOptions().setTcpNoDelay(true).setConnectTimeout(10_000));
    upstream = Upstream.resolve(net, options.upstreamHost(), options.upstreamPort());
    pool = new UpstreamPool(RelayOptions.MAX_POOLED);
    held = new HeldBytes(options.maxHeldBytes());
    NetServerOptions listenOptions =
        new NetServerOptions().setHost(options.host()).setPort(options.port()).setTcpNoDelay(true);
    // over TLS, ALPN offers h2 beside http/1.1, as an edge does: a client that offers only http/1.1
    // is unaffected
    if (options.tls() != null) options.tls().applyToWithH2(listenOptions);
    // No Vert.x idle timeout: its IdleStateHandler wraps every write in a promise and a listener,
    // and it counted only the client side (a drain-and-flush of a stream longer than the timeout
    // was cut). Each RelayConnection watches for idleness with one timer instead.
    if (options.tls() == null) {
      // accepted on the relay's own loop, where its connections and their upstreams live: no
      // hand-off
      loop = LoopPlacement.place(context, LoopPlacement.Role.RELAY);
      return LoopListener.bind(loop.context(), listenOptions, false, this::accept)
          .onSuccess(l -> plain = l)
          .onFailure(e -> loop.release());
    }
    loop =
        LoopPlacement.unplaced(
            context); // Vert.x's TLS server hands connections to loops of its choosing
    server = vertx.createNetServer(listenOptions);
    server.connectHandler(this::accept);
    return server.listen();
  }

  private void accept(NetSocket so) {
    open++;
    peakOpen = Math.max(peakOpen, Math.min(open, options.maxConnections()));
    if (open > options.maxConnections()) {
      so.closeHandler(v -> open--);
      log.log(
          "refused a connection from "
              + so.remoteAddress()
              + ": "
              + (open - 1)
              + " open, the cap is "
              + options.maxConnections());
      so.write(
          "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nConnection: close\r\nContent-Length: "
              + REFUSED.length()
              + "\r\n\r\n"
              + REFUSED);
      so.end();
      return;
    }
    exchange(new SocketClient(so), () -> open--);
  }

  /**
   * One client exchange with the chain of now: a connection's, or (from its HTTP/2 edge) one
   * stream's, which no connection cap counts.
   */
  private RelayConnection exchange(ClientSide client, Runnable onClosed) {
    return new RelayConnection(
        client,
        options,
        chain.get(),
        upstream,
        pool,
        log,
        ids.incrementAndGet(),
        upstreamPauses,
        onClosed,
        held,
        stream -> exchange(stream, () -> {}));
  }

  @Override
  public Future<?> stop() {
    if (loop == null) return Future.succeededFuture();
    loop.release();
    // the pool is the loop's: closed there, then the listener
    return onLoop(
            () -> {
              if (pool != null) pool.closeAll();
              return null;
            })
        .compose(
            v ->
                plain != null
                    ? plain.close()
                    : server == null ? Future.succeededFuture() : server.close());
  }

  public int port() {
    return plain != null ? plain.port() : server.actualPort();
  }

  /** The event-loop context this relay's connections run on. */
  public Context loop() {
    return loop.context();
  }

  /**
   * Upstream connections taken from the pool instead of opened (pooling on); read on the relay's
   * loop.
   */
  public Future<Long> pooledReuses() {
    return onLoop(() -> pool.reused());
  }

  /**
   * Bytes held in shapers and early requests over all connections right now; read on the relay's
   * loop.
   */
  public Future<Long> heldBytes() {
    return onLoop(() -> held.held());
  }

  /**
   * The most client connections open at once so far (an HTTP/2 client's streams are not
   * connections); read on the relay's loop.
   */
  public Future<Integer> peakConnections() {
    return onLoop(() -> peakOpen);
  }

  /** Idle pooled upstream connections right now; read on the relay's loop. */
  public Future<Integer> idleUpstreams() {
    return onLoop(() -> pool.idle());
  }

  /** The pool is confined to the relay's event loop: read it there. */
  private <T> Future<T> onLoop(Supplier<T> read) {
    Promise<T> p = Promise.promise();
    loop.context().runOnContext(v -> p.complete(read.get()));
    return p.future();
  }

  /** How many times, over all connections, back-pressure paused upstream reads. */
  public long upstreamPauses() {
    return upstreamPauses.get();
  }

  public RelayOptions options() {
    return options;
  }
}
