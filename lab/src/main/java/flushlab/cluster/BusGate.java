package flushlab.cluster;

import flushlab.core.LoopListener;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The agent's event-bus port as the network sees it. Vert.x's bus server reads any frame any TCP
 * peer sends and gives no hook to refuse or even see a peer; so the bus itself listens on loopback
 * (with the lab's TLS too, so a local user without the secret gets nowhere there either), and this
 * gate takes the public port: per-peer and total connection caps before anything is read, TLS 1.3
 * with the lab's certificate required of the peer within a deadline (a refusal is logged with the
 * peer's address), and then, frame by frame, only frames within {@link #MAX_FRAME_BYTES} are passed
 * on to the bus (a larger length prefix closes the connection, logged). Confined to one event loop.
 */
final class BusGate {
  /** Connections at once, and from one address (the agents of one host share it). */
  static final int MAX_CONNECTIONS = 128;

  static final int MAX_PER_PEER = 16;

  /** The time a peer has to complete its TLS handshake. */
  static final long HANDSHAKE_TIMEOUT_MS = 10_000;

  /** The largest bus frame passed on: a cell's streams sent back whole stay well under it. */
  static final int MAX_FRAME_BYTES = 64 << 20;

  private final Vertx vertx;
  private final SslContext tls;
  private final int busPort;
  private final Consumer<String> log;
  private final NetClient toBus;

  /** Open connections per peer address, and in all; touched on the listener's loop only. */
  private final Map<String, Integer> perPeer = new HashMap<>();

  private int open;

  private BusGate(Vertx vertx, BusCertificate cert, int busPort, Consumer<String> log) {
    this.vertx = vertx;
    this.tls = cert.serverContext();
    this.busPort = busPort;
    this.log = log;
    this.toBus =
        vertx.createNetClient(cert.clientOptions(new NetClientOptions().setConnectTimeout(5_000)));
  }

  /**
   * Listens at {@code host:port} and passes what the lab's members send on to the bus at
   * 127.0.0.1:{@code busPort}.
   */
  static Future<LoopListener> listen(
      Vertx vertx, String host, int port, BusCertificate cert, int busPort, Consumer<String> log) {
    BusGate gate = new BusGate(vertx, cert, busPort, log);
    return LoopListener.bind(
        vertx.getOrCreateContext(),
        new NetServerOptions().setHost(host).setPort(port),
        false,
        gate::admit,
        gate::connected);
  }

  /**
   * Before a byte is read: the caps; then the TLS handshake, with the lab's certificate required of
   * the peer within {@link #HANDSHAKE_TIMEOUT_MS}; only then does the connection become a socket.
   */
  private void admit(Channel ch, Runnable handOver) {
    String peer = String.valueOf(ch.remoteAddress());
    String from =
        ch.remoteAddress() instanceof InetSocketAddress a ? a.getAddress().getHostAddress() : peer;
    int mine = perPeer.getOrDefault(from, 0);
    if (open >= MAX_CONNECTIONS || mine >= MAX_PER_PEER) {
      log.accept(
          "refused a connection to the event bus from "
              + peer
              + ": "
              + (mine >= MAX_PER_PEER
                  ? MAX_PER_PEER + " from that address already open"
                  : MAX_CONNECTIONS + " connections already open"));
      ch.close();
      return;
    }
    open++;
    perPeer.merge(from, 1, Integer::sum);
    ch.closeFuture()
        .addListener(
            f -> {
              open--;
              perPeer.computeIfPresent(from, (k, n) -> n > 1 ? n - 1 : null);
            });
    SslHandler handshake = tls.newHandler(ch.alloc());
    handshake.setHandshakeTimeoutMillis(HANDSHAKE_TIMEOUT_MS);
    ch.pipeline().addLast("tls", handshake);
    ch.pipeline()
        .addLast(
            "tls-verdict",
            new ChannelInboundHandlerAdapter() {
              @Override
              public void userEventTriggered(ChannelHandlerContext ctx, Object evt)
                  throws Exception {
                if (evt instanceof SslHandshakeCompletionEvent done) {
                  if (done.isSuccess()) {
                    ctx.pipeline().remove(this);
                    handOver.run();
                  } else {
                    log.accept(
                        "refused a connection to the event bus from "
                            + peer
                            + ": it did not prove the lab's secret (TLS with the lab's certificate: "
                            + brief(done.cause())
                            + ")");
                    ctx.close();
                  }
                  return;
                }
                super.userEventTriggered(ctx, evt);
              }

              @Override
              public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                ctx.close(); // the handshake's failure is reported by its completion event
              }
            });
  }

  /** A peer that proved the lab's secret: connected to the bus behind, frame by frame. */
  private void connected(NetSocket peer) {
    peer.pause(); // what it sends waits in its socket until the bus behind is connected
    toBus
        .connect(busPort, "127.0.0.1")
        .onComplete(
            c -> {
              if (c.failed()) {
                log.accept(
                    "the event bus at 127.0.0.1:"
                        + busPort
                        + " did not take a connection: "
                        + c.cause().getMessage());
                peer.close();
                return;
              }
              relay(peer, c.result());
            });
  }

  /**
   * An exception's message, cut short: a refused peer's junk would otherwise end up in the log as
   * hex.
   */
  private static String brief(Throwable t) {
    String m =
        String.valueOf(t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage());
    return m.length() > 80 ? m.substring(0, 80) + "..." : m;
  }

  /**
   * Frames from the peer to the bus, checked; the bus's few bytes back (pongs) as they come.
   * Back-pressure both ways.
   */
  private void relay(NetSocket peer, NetSocket bus) {
    FrameLengths frames = new FrameLengths(MAX_FRAME_BYTES);
    peer.handler(
        b -> {
          long over = frames.accept(b);
          if (over >= 0) {
            log.accept(
                "closed the event-bus connection from "
                    + peer.remoteAddress()
                    + ": a frame of "
                    + over
                    + " bytes (at most "
                    + MAX_FRAME_BYTES
                    + ")");
            peer.close();
            bus.close();
            return;
          }
          bus.write(b);
          if (bus.writeQueueFull()) {
            peer.pause();
            bus.drainHandler(v -> peer.resume());
          }
        });
    bus.handler(
        b -> {
          peer.write(b);
          if (peer.writeQueueFull()) {
            bus.pause();
            peer.drainHandler(v -> bus.resume());
          }
        });
    peer.closeHandler(v -> bus.close());
    bus.closeHandler(v -> peer.close());
    peer.exceptionHandler(e -> peer.close());
    bus.exceptionHandler(e -> bus.close());
    peer.resume();
  }

  /**
   * Follows the bus's framing (a 4-byte big-endian length, then that many bytes) across reads split
   * anywhere, without copying a byte.
   */
  static final class FrameLengths {
    private final int max;

    /** Bytes of the current frame's body still to come; 0 when a length prefix is next. */
    private long remaining;

    private int prefixFill;
    private int prefix;

    FrameLengths(int max) {
      this.max = max;
    }

    /**
     * Takes one read's bytes; returns the length of a frame over the cap, or -1 when all is within
     * it.
     */
    long accept(Buffer b) {
      int p = 0;
      int n = b.length();
      while (p < n) {
        if (remaining > 0) {
          int k = (int) Math.min(remaining, n - p);
          remaining -= k;
          p += k;
          continue;
        }
        prefix = (prefix << 8) | (b.getByte(p++) & 0xff);
        if (++prefixFill == 4) {
          long length = prefix & 0xffffffffL;
          prefixFill = 0;
          prefix = 0;
          if (length > max) return length;
          remaining = length;
        }
      }
      return -1;
    }
  }
}
