package flushlab.core;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.socket.nio.NioChannelOption;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.impl.buffer.VertxByteBufAllocator;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.impl.NetSocketImpl;
import io.vertx.core.net.impl.VertxHandler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.StandardSocketOptions;

/**
 * A plain-TCP listener that accepts on the event loop that serves its connections.
 *
 * <p>Why not Vert.x's {@code NetServer}: it accepts on a separate acceptor thread and hands each
 * new connection to a worker loop, which wakes that loop through an eventfd write. On this 2-core
 * machine that hand-off, twice per request through a relay (the relay's accept, then the
 * emitter's), cost about a millisecond of a hop's first token (a packet capture: 0.7 ms from a
 * request's arrival at the relay to its upstream SYN). Here the listening socket is registered on
 * the serving loop itself, so an accepted connection is registered inline, on the thread that
 * accepted it. Several listeners on one port (one per loop) share it with SO_REUSEPORT, and the
 * kernel spreads connections over them.
 *
 * <p>Connections are handed over as Vert.x {@link NetSocket}s, built exactly as Vert.x's server
 * builds them (its handler, its pooled allocator, its socket options from {@link
 * NetServerOptions}), so everything above this class is unchanged. Like {@link LabVertx}, this
 * reaches under Vert.x's public API (its {@code impl} and {@code internal} packages, pinned by the
 * BOM's 5.0.7).
 */
public final class LoopListener {
  private final Channel channel;

  private LoopListener(Channel channel) {
    this.channel = channel;
  }

  /**
   * Binds host:port on {@code context}'s event loop (port 0: any free port) and calls {@code
   * onConnection} on that loop for each connection accepted. With {@code sharePort}, the socket
   * takes SO_REUSEPORT so that more listeners (on other loops) can bind the same port; the caller
   * checks first that no other process holds it ({@link #refuseIfTaken}).
   */
  public static Future<LoopListener> bind(
      Context context,
      NetServerOptions options,
      boolean sharePort,
      Handler<NetSocket> onConnection) {
    return bind(context, options, sharePort, (ch, handOver) -> handOver.run(), onConnection);
  }

  /**
   * What a listener does with a connection before it becomes a {@link NetSocket}: it may add
   * handlers first in the channel's pipeline (TLS, say), close the channel, or call {@code
   * handOver} (on the channel's loop) once the connection is to be served.
   */
  public interface Admission {
    void admit(Channel channel, Runnable handOver);
  }

  /**
   * As {@link #bind(Context, NetServerOptions, boolean, Handler)}, with each connection first
   * passed to {@code admission}.
   */
  public static Future<LoopListener> bind(
      Context context,
      NetServerOptions options,
      boolean sharePort,
      Admission admission,
      Handler<NetSocket> onConnection) {
    ContextInternal ctx = (ContextInternal) context;
    VertxInternal vertx = ctx.owner();
    EventLoop loop = ctx.nettyEventLoop();
    ServerBootstrap bootstrap =
        new ServerBootstrap()
            .group(loop, loop) // accept and serve on one thread: no hand-off
            .channelFactory(vertx.transport().serverChannelFactory(false))
            .childOption(ChannelOption.ALLOCATOR, VertxByteBufAllocator.POOLED_ALLOCATOR);
    vertx
        .transport()
        .configure(
            options, false,
            bootstrap); // Vert.x's own socket options, as its NetServer applies them
    if (sharePort) {
      if (vertx.isNativeTransportEnabled()) bootstrap.option(EpollChannelOption.SO_REUSEPORT, true);
      else bootstrap.option(NioChannelOption.of(StandardSocketOptions.SO_REUSEPORT), true);
    }
    bootstrap.childHandler(
        new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            admission.admit(
                ch,
                () -> {
                  VertxHandler<NetSocketImpl> handler =
                      VertxHandler.create(
                          chctx -> new NetSocketImpl(ctx, chctx, null, null, null, false));
                  handler.addHandler(socket -> ctx.emit(socket, onConnection));
                  ch.pipeline().addLast("handler", handler);
                });
          }
        });
    Promise<LoopListener> bound = ctx.promise();
    bootstrap
        .bind(new InetSocketAddress(options.getHost(), options.getPort()))
        .addListener(
            f -> {
              if (f.isSuccess()) bound.complete(new LoopListener(((ChannelFuture) f).channel()));
              else bound.fail(f.cause());
            });
    return bound.future();
  }

  /**
   * Fails when host:port is held by any listener now. SO_REUSEPORT lets a second process of the
   * same user bind a port a first one holds with it, and the two would silently split the
   * connections; a plain bind first makes "port in use" an error again. Port 0 is never taken.
   */
  public static void refuseIfTaken(String host, int port) throws IOException {
    if (port == 0) return;
    try (ServerSocket probe = new ServerSocket()) {
      probe.bind(new InetSocketAddress(host, port), 1);
    }
  }

  /** The port bound (the one chosen, when asked for port 0). */
  public int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  /** Stops accepting; connections already open are not touched. */
  public Future<Void> close() {
    Promise<Void> closed = Promise.promise();
    channel.close().addListener(f -> closed.complete());
    return closed.future();
  }
}
