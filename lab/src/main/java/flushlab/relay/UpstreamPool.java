package flushlab.relay;

import io.vertx.core.net.NetSocket;
import java.util.ArrayDeque;

/**
 * Idle keep-alive upstream connections, reused across client connections when pooling is on.
 * Bounded; a pooled connection that upstream closes or sends anything on is dropped. Confined to
 * the relay's event loop.
 */
final class UpstreamPool {
  private final ArrayDeque<NetSocket> idle = new ArrayDeque<>();
  private final int max;
  private long reused;

  UpstreamPool(int max) {
    this.max = max;
  }

  /** An idle connection, or null. */
  NetSocket take() {
    NetSocket s = idle.poll();
    if (s != null) reused++;
    return s;
  }

  void give(NetSocket s) {
    if (idle.size() >= max) {
      s.close();
      return;
    }
    idle.add(s);
    s.handler(
        b -> {
          idle.remove(s); // bytes on an idle connection: not ours to interpret
          s.close();
        });
    s.closeHandler(v -> idle.remove(s));
    s.exceptionHandler(t -> idle.remove(s));
  }

  int idle() {
    return idle.size();
  }

  long reused() {
    return reused;
  }

  void closeAll() {
    NetSocket s;
    while ((s = idle.poll()) != null) s.close();
  }
}
