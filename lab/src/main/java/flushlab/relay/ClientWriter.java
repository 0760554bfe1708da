package flushlab.relay;

import flushlab.relay.shaper.Chunk;
import flushlab.relay.shaper.Stage;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollSocketChannel;
import io.vertx.core.net.NetSocket;
import java.nio.charset.StandardCharsets;

/**
 * The last stage of every chain: writes to the client socket and carries out socket actions at
 * their place in the stream (cork, close, reset). When the client's socket is full it pauses
 * upstream through {@link FlowControl}, unless a shaper in the chain absorbs that itself.
 */
final class ClientWriter implements Stage {
  private final NetSocket client;
  private final Channel channel;
  private final FlowControl flow;
  private final boolean passBackPressure;
  private final ConnectionContext ctx;
  private long bytesThisResponse;
  private long bytesTotal;
  private boolean closed;

  ClientWriter(NetSocket client, Channel channel, FlowControl flow, boolean passBackPressure, ConnectionContext ctx) {
    this.client = client;
    this.channel = channel;
    this.flow = flow;
    this.passBackPressure = passBackPressure;
    this.ctx = ctx;
  }

  /** The client socket drained below its watermark. */
  void writable() {
    flow.release(this);
    ctx.clientBecameWritable();
  }

  @Override
  public void accept(Chunk c) {
    if (closed) return;
    switch (c.kind) {
      case DATA:
        bytesThisResponse += c.length();
        bytesTotal += c.length();
        client.write(c.bytes);
        if (passBackPressure && !channel.isWritable()) flow.hold(this);
        return;
      case RESPONSE_START:
        bytesThisResponse = 0;
        return;
      case RESPONSE_END:
        bytesThisResponse = 0; // between responses: a failure now can still be answered with a 502
        return;
      case CORK:
        setCork(c.flag);
        return;
      case CLOSE:
        closed = true;
        client.end();
        return;
      case RESET:
        closed = true;
        channel.config().setOption(ChannelOption.SO_LINGER, 0);
        channel.close();
        return;
      default:
        throw new IllegalStateException(c.kind.toString());
    }
  }

  private void setCork(boolean on) {
    if (channel instanceof EpollSocketChannel) {
      if (channel.isActive()) channel.config().setOption(EpollChannelOption.TCP_CORK, on);
    } else if (on) {
      ctx.fail("the cork shaper needs the native epoll transport (TCP_CORK), which is not available here");
    }
  }

  /** True before the first byte of the current response reached the client. */
  boolean nothingSentThisResponse() {
    return bytesThisResponse == 0;
  }

  long bytesTotal() {
    return bytesTotal;
  }

  /** Answers 502 with a one-line reason when nothing was sent yet; closes otherwise. */
  void failConnection(String reason) {
    if (closed) return;
    closed = true;
    if (bytesThisResponse == 0) {
      byte[] body = ("flushlab relay: " + reason + "\n").getBytes(StandardCharsets.UTF_8);
      String head = "HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\nContent-Length: " + body.length
          + "\r\nConnection: close\r\n\r\n";
      client.write(io.vertx.core.buffer.Buffer.buffer(head).appendBytes(body));
      client.end();
    } else {
      client.close();
    }
  }
}
