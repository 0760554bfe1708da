package flushlab.relay;

import flushlab.core.LabVertx;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollSocketChannel;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.util.function.BooleanSupplier;

/** An HTTP/1.1 client's own TCP connection as the client end of its exchanges. */
final class SocketClient implements ClientSide {
  private final NetSocket socket;
  private final Channel channel;

  SocketClient(NetSocket socket) {
    this.socket = socket;
    this.channel = LabVertx.channel(socket);
  }

  NetSocket socket() {
    return socket;
  }

  @Override
  public Channel channel() {
    return channel;
  }

  @Override
  public String describe() {
    return String.valueOf(socket.remoteAddress());
  }

  @Override
  public void write(Buffer b) {
    socket.write(b);
  }

  @Override
  public boolean writable() {
    return channel.isWritable();
  }

  @Override
  public void onWritable(Runnable r) {
    LabVertx.onWritable(channel, r);
  }

  @Override
  public void end() {
    socket.end();
  }

  @Override
  public void close() {
    socket.close();
  }

  @Override
  public void reset() {
    channel.config().setOption(ChannelOption.SO_LINGER, 0);
    channel.close();
  }

  @Override
  public boolean cork(boolean on) {
    if (!(channel instanceof EpollSocketChannel)) return !on;
    if (channel.isActive()) channel.config().setOption(EpollChannelOption.TCP_CORK, on);
    return true;
  }

  @Override
  public FlowControl.Valve requestValve(BooleanSupplier mayResume) {
    return FlowControl.Valve.autoRead(channel, mayResume);
  }
}
