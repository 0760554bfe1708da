package flushlab.core;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.net.NetSocket;
import io.netty.channel.Channel;

/** Creates the Vert.x instance every flushlab command runs on, with the native epoll transport. */
public final class LabVertx {
  private LabVertx() {}

  public static Vertx create(int eventLoops) {
    VertxOptions options = new VertxOptions()
        .setPreferNativeTransport(true)
        .setEventLoopPoolSize(Math.max(1, eventLoops))
        // Timing code spins on purpose in tests and benches; warnings would only add noise.
        .setBlockedThreadCheckInterval(10_000);
    return Vertx.vertx(options);
  }

  /** The Netty channel under a Vert.x socket: the socket options and read control live there. */
  public static Channel channel(NetSocket socket) {
    return ((NetSocketInternal) socket).channelHandlerContext().channel();
  }
}
