package flushlab.relay;

import io.vertx.core.Future;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.SocketAddress;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * Where a relay connects upstream, and the client it connects with. The address is resolved once,
 * when the relay starts, so that no connection waits on a name lookup; a name that does not resolve
 * then is left to Vert.x, which looks it up at each connect and reports the failure there. Vert.x's
 * client connects on the calling context's event loop: a connection's upstream lives on the loop
 * that accepted its client.
 */
record Upstream(NetClient net, SocketAddress address) {
  static Upstream resolve(NetClient net, String host, int port) {
    try {
      return new Upstream(
          net,
          SocketAddress.inetSocketAddress(
              new InetSocketAddress(InetAddress.getByName(host), port)));
    } catch (UnknownHostException e) {
      return new Upstream(net, SocketAddress.inetSocketAddress(port, host));
    }
  }

  Future<NetSocket> connect() {
    return net.connect(address);
  }
}
