package flushlab.control;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.impl.HttpServerImpl;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.core.net.impl.NetServerImpl;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The console API's listener holds to the emitter's limits: at most {@code maxConnections} open at
 * once, and a quarter of them (at least 8) from one address (one more is answered 503 and closed),
 * and a request head must arrive whole within {@code headTimeoutMs} of the connection opening or of
 * the previous response, and its body within as long again of its head (else 408 and close): a
 * client that sends one byte every few seconds, or opens connections and sends nothing, holds
 * nothing for long, and one address cannot hold every connection.
 *
 * <p>Vert.x's HTTP server has neither, and tells of a connection only once its first request head
 * is whole, so the count and the timers start where the connection does: in the listening channel's
 * pipeline, which sees every accepted channel (reached through Vert.x 5.0's internals, as {@code
 * core.LoopListener} does; {@code ControlApiLimitsTest} fails if they move).
 */
final class ApiConnections {
  private final Vertx vertx;
  private final int maxConnections;
  private final long headTimeoutMs;
  private final AtomicInteger open = new AtomicInteger();

  /**
   * Open connections per peer address: one peer may hold at most {@link #perPeerCap} of the cap.
   */
  private final Map<String, AtomicInteger> perPeer = new ConcurrentHashMap<>();

  private final int perPeerCap;

  /** Per channel: the timer waiting for the request's body to end, from when its head arrived. */
  private final Map<Channel, Long> waitingForBody = new ConcurrentHashMap<>();

  /**
   * Per accepted channel: the timer waiting for its next request head; absent while a request is
   * being served.
   */
  private final Map<Channel, Long> waitingForHead = new ConcurrentHashMap<>();

  ApiConnections(Vertx vertx, int maxConnections, long headTimeoutMs) {
    this.vertx = vertx;
    this.maxConnections = maxConnections;
    this.headTimeoutMs = headTimeoutMs;
    this.perPeerCap = perPeerCap(maxConnections);
  }

  /**
   * What one address may hold of the connection cap: a quarter (at least 8), so that one address
   * never locks the others out.
   */
  static int perPeerCap(int maxConnections) {
    return Math.max(8, maxConnections / 4);
  }

  /**
   * Watches every connection {@code server} (listening) accepts from when the returned future
   * completes: the handler is added on the listening channel's own loop, so no connection accepted
   * after that can pass it by (added from another thread, it would be skipped until Netty ran its
   * handlerAdded there).
   */
  Future<Void> watch(HttpServer server) {
    Channel listening;
    try {
      listening = listeningChannel(server);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return Future.failedFuture(
          new IllegalStateException(
              "cannot reach the control API's listening channel (Vert.x internals moved?): " + e,
              e));
    }
    Promise<Void> added = Promise.promise();
    listening
        .eventLoop()
        .execute(
            () -> {
              listening.pipeline().addFirst("flushlab-api-limits", new Accepted());
              added.complete();
            });
    return added.future();
  }

  /** Sees each accepted channel before Vert.x does. */
  @ChannelHandler.Sharable
  private final class Accepted extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      Channel child = (Channel) msg;
      String peer =
          child.remoteAddress() instanceof InetSocketAddress a
              ? a.getAddress().getHostAddress()
              : "?";
      AtomicInteger mine = perPeer.computeIfAbsent(peer, k -> new AtomicInteger());
      boolean over = open.incrementAndGet() > maxConnections | mine.incrementAndGet() > perPeerCap;
      child
          .closeFuture()
          .addListener(
              f -> {
                open.decrementAndGet();
                if (mine.decrementAndGet() == 0) perPeer.remove(peer, mine);
                Long t = waitingForHead.remove(child);
                if (t != null) vertx.cancelTimer(t);
                Long b = waitingForBody.remove(child);
                if (b != null) vertx.cancelTimer(b);
              });
      ctx.fireChannelRead(
          msg); // registers it on its loop: tasks queued after this run once Vert.x has set it up
      if (over) child.eventLoop().execute(() -> refuse(child, 503, "Service Unavailable"));
      else awaitHead(child);
    }
  }

  /**
   * For the request handler, before routing: the head came; the next one is awaited once this
   * response ends.
   */
  void requested(HttpServerRequest req) {
    if (!(req.connection() instanceof ConnectionBase base)) return;
    Channel ch = base.channel();
    Long t = waitingForHead.remove(ch);
    if (t != null) vertx.cancelTimer(t);
    // the body too must be whole within the timeout: a head followed by a byte every few seconds
    // holds nothing for long
    long b =
        vertx.setTimer(
            headTimeoutMs,
            id -> {
              if (waitingForBody.remove(ch, id))
                ch.eventLoop().execute(() -> refuse(ch, 408, "Request Timeout"));
            });
    waitingForBody.put(ch, b);
    req.response()
        .endHandler(
            v -> {
              if (ch.isActive()) awaitHead(ch);
            });
  }

  /** For the router, once the request's body has been read whole (or it had none). */
  void bodyRead(HttpServerRequest req) {
    if (!(req.connection() instanceof ConnectionBase base)) return;
    Long b = waitingForBody.remove(base.channel());
    if (b != null) vertx.cancelTimer(b);
  }

  int open() {
    return open.get();
  }

  private void awaitHead(Channel ch) {
    long t =
        vertx.setTimer(
            headTimeoutMs,
            id -> {
              if (waitingForHead.remove(ch, id))
                ch.eventLoop().execute(() -> refuse(ch, 408, "Request Timeout"));
            });
    Long old = waitingForHead.put(ch, t);
    if (old != null) vertx.cancelTimer(old);
  }

  /**
   * A bare status and close, written as bytes at the head of the pipeline: no request object exists
   * for it, and before a request Vert.x may not have set up its HTTP encoder yet.
   */
  private static void refuse(Channel ch, int status, String reason) {
    if (!ch.isActive()) {
      ch.close();
      return;
    }
    byte[] head =
        ("HTTP/1.1 " + status + " " + reason + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            .getBytes(StandardCharsets.ISO_8859_1);
    ChannelHandlerContext first = ch.pipeline().firstContext();
    (first != null
            ? first.writeAndFlush(Unpooled.wrappedBuffer(head))
            : ch.writeAndFlush(Unpooled.wrappedBuffer(head)))
        .addListener(ChannelFutureListener.CLOSE);
  }

  @SuppressWarnings("unchecked")
  private static Channel listeningChannel(HttpServer server) throws ReflectiveOperationException {
    Field tcp = HttpServerImpl.class.getDeclaredField("tcpServer");
    tcp.setAccessible(true);
    NetServerImpl net = (NetServerImpl) tcp.get(server);
    Field actual = NetServerImpl.class.getDeclaredField("actualServer");
    actual.setAccessible(true);
    NetServerImpl bound = (NetServerImpl) actual.get(net);
    Field bind = NetServerImpl.class.getDeclaredField("bindFuture");
    bind.setAccessible(true);
    return ((Future<Channel>) bind.get(bound == null ? net : bound)).result();
  }
}
