package flushlab.core;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DuplexChannel;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.net.NetSocket;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/**
 * Creates the Vert.x instance every flushlab command runs on, with the native epoll transport, and
 * is the one place flushlab reaches under Vert.x's public API.
 *
 * <p>Why it must: measuring and shaping bytes needs the socket itself, which Vert.x's public {@code
 * NetSocket} does not expose. The relay sets TCP_CORK and TCP_NODELAY per connection and turns
 * auto-read off to pause upstream at once ({@code NetSocket.pause()} keeps reading into Vert.x's
 * queues, 24 more reads in a measurement); the emitter and relay react to the kernel's send buffer
 * filling (channel writability); the metered client takes each read's Netty buffer as it came, one
 * per recv(), and sizes the receive buffer like a recv() call. All of that is {@code
 * NetSocketInternal} (Vert.x 5's {@code io.vertx.core.internal}), used only here.
 */
public final class LabVertx {
  private LabVertx() {}

  public static Vertx create(int eventLoops) {
    VertxOptions options =
        new VertxOptions()
            .setPreferNativeTransport(true)
            .setEventLoopPoolSize(Math.max(1, eventLoops))
            // Timing code spins on purpose in tests and benches; warnings would only add noise.
            .setBlockedThreadCheckInterval(10_000);
    Vertx vertx = Vertx.vertx(options);
    HiccupMeter.get().watchLoops(vertx); // every lab process knows when it stalled
    return vertx;
  }

  /** The Netty channel under a Vert.x socket: the socket options and read control live there. */
  public static Channel channel(NetSocket socket) {
    return ((NetSocketInternal) socket).channelHandlerContext().channel();
  }

  /**
   * Calls {@code onWritable} each time the socket's send buffer drains below its watermark. The
   * handler goes first in the pipeline, so it sees the change whatever Vert.x does with it.
   */
  /**
   * Closes the socket now, discarding what is queued for it: for a peer that floods and reads
   * nothing. Netty's own close goes through Vert.x's handler, whose close waits until the queue has
   * drained, which such a peer never lets happen.
   */
  public static void closeNow(Channel channel) {
    channel.config().setAutoRead(false);
    channel.unsafe().close(channel.voidPromise());
  }

  /**
   * Ends a connection after what is queued (a GOAWAY, say) has gone out: then the output is shut
   * (FIN) and the connection closed {@code graceMillis} later, or when the peer closes first. What
   * the peer still sends meanwhile is read (the caller drops it): closing with unread bytes would
   * make the kernel answer with a reset, which destroys what the peer has not read yet, the GOAWAY
   * among it. A peer that has not taken the queue within {@code graceMillis} (one that floods and
   * reads nothing) is cut off with {@link #closeNow}.
   */
  public static void closeAfterFlush(Channel channel, long graceMillis) {
    var cut =
        channel
            .eventLoop()
            .schedule(
                () -> {
                  if (channel.isOpen()) closeNow(channel);
                },
                graceMillis,
                TimeUnit.MILLISECONDS);
    channel
        .writeAndFlush(Unpooled.EMPTY_BUFFER)
        .addListener(
            f -> {
              if (!f.isSuccess() || !channel.isOpen()) return;
              cut.cancel(false);
              if (!(channel instanceof DuplexChannel d)) {
                channel.close();
                return;
              }
              d.shutdownOutput()
                  .addListener(
                      x ->
                          channel
                              .eventLoop()
                              .schedule(
                                  () -> {
                                    channel.close();
                                  },
                                  graceMillis,
                                  TimeUnit.MILLISECONDS));
            });
  }

  /**
   * Whether the peer is not taking what is sent: more than the channel's high-water mark waits in
   * Netty's outbound buffer (the kernel's send buffer full before it). Bytes written and not yet
   * flushed (Vert.x flushes at the end of a read) do not count.
   */
  public static boolean backedUp(Channel channel) {
    return !channel.isWritable();
  }

  public static void onWritable(Channel channel, Runnable onWritable) {
    channel
        .pipeline()
        .addFirst(
            "flushlab-writability",
            new ChannelInboundHandlerAdapter() {
              @Override
              public void channelWritabilityChanged(ChannelHandlerContext ctx) {
                if (ctx.channel().isWritable()) onWritable.run();
                ctx.fireChannelWritabilityChanged();
              }
            });
  }

  /**
   * Runs {@code before} (given the bytes the socket read returned) and {@code after} around each
   * socket read, first in the pipeline (ahead of TLS): whatever the handlers behind it make of one
   * recv() (a TLS handler decrypting several records) happens between the two calls.
   */
  public static void aroundSocketReads(Channel channel, IntConsumer before, Runnable after) {
    channel
        .pipeline()
        .addFirst(
            "flushlab-socket-reads",
            new ChannelInboundHandlerAdapter() {
              @Override
              public void channelRead(ChannelHandlerContext ctx, Object msg) {
                before.accept(
                    msg instanceof ByteBuf b
                        ? b.readableBytes()
                        : 0); // the socket read's own bytes
                try {
                  ctx.fireChannelRead(msg);
                } finally {
                  after.run();
                }
              }
            });
  }

  /**
   * Hands every read to {@code handler} as Netty delivered it (a ByteBuf per recv(), not copied
   * into a Vert.x Buffer); the handler must release it.
   */
  public static void onRawReads(NetSocket socket, Handler<Object> handler) {
    ((NetSocketInternal) socket).messageHandler(handler);
  }
}
