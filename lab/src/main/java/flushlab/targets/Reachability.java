package flushlab.targets;

import flushlab.core.HostPort;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/** Whether something accepts TCP connections at an address (asked once, before measuring). */
final class Reachability {
  private static final int CONNECT_TIMEOUT_MILLIS = 3000;

  private Reachability() {}

  /** Null when the address accepts a connection within 3 s, else why not. */
  static String refusal(HostPort at) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(at.host(), at.port()), CONNECT_TIMEOUT_MILLIS);
      return null;
    } catch (IOException e) {
      return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
  }
}
