package flushlab.proxy;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The port a proxy the lab starts listens on: one found free, and, once something accepts there,
 * whether it is the proxy. A port found free can be taken before the proxy binds it (by anything on
 * this host: the suite's other forks start relays all the time), and then a connection is accepted
 * by that other listener while the proxy fails to bind: a fresh clone's suite (s271, 2026-12-07)
 * measured Caddy's `minimum_length` template as a stream in Brotli one event late, a map test's
 * relay, which no Caddy template does.
 */
final class ProxyPort {
  private ProxyPort() {}

  private static final int FREE_PORT_ATTEMPTS = 20;

  /**
   * A loopback port free for TCP and for UDP: Caddy's HTTP/3 listens on UDP at the port its
   * template serves HTTPS on (a fresh clone's suite, s161: caddy exited on "listen udp
   * 127.0.0.1:46171: bind: address already in use", a port its TCP probe had found free).
   */
  static int freeLoopback() throws IOException {
    InetAddress loopback = InetAddress.getLoopbackAddress();
    for (int attempt = 0; attempt < FREE_PORT_ATTEMPTS; attempt++) {
      try (ServerSocket s = new ServerSocket(0, 1, loopback)) {
        int port = s.getLocalPort();
        try (DatagramSocket udp = new DatagramSocket(port, loopback)) {
          return port;
        } catch (SocketException udpTaken) {
          // taken for UDP: another port
        }
      }
    }
    throw new IOException(
        "no loopback port free for both TCP and UDP in " + FREE_PORT_ATTEMPTS + " tries");
  }

  /** Whether something accepts a TCP connection at host:port. */
  static boolean accepts(String host, int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host, port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Whether the socket listening on {@code port} belongs to {@code root} or a process below it
   * (each process read in its own network namespace, as a proxy placed in a veth path's is): FALSE
   * when another process's is the listener, TRUE when one of the tree's is, null where this host's
   * /proc cannot tell (not Linux, or not readable).
   */
  static Boolean ownedBy(ProcessHandle root, int port) {
    List<ProcessHandle> tree =
        Stream.concat(Stream.of(root), root.descendants()).filter(ProcessHandle::isAlive).toList();
    boolean read = false;
    for (ProcessHandle h : tree) {
      Path proc = Path.of("/proc", Long.toString(h.pid()));
      Set<String> listening = new HashSet<>();
      for (String table : List.of("net/tcp", "net/tcp6")) {
        try {
          for (String line : Files.readAllLines(proc.resolve(table))) listen(line, port, listening);
          read = true;
        } catch (IOException | RuntimeException e) {
          // not Linux, gone, or another namespace's table unreadable: this one says nothing
        }
      }
      if (!listening.isEmpty() && holdsAny(proc.resolve("fd"), listening)) return Boolean.TRUE;
    }
    return read ? Boolean.FALSE : null;
  }

  /**
   * Adds the socket inode of a /proc/net/tcp line that listens (state 0A) on {@code port}: "sl
   * local_address rem_address st ... inode", the address as hex ip:port.
   */
  private static void listen(String line, int port, Set<String> inodes) {
    String[] f = line.trim().split("\\s+");
    if (f.length < 10 || !f[1].contains(":")) return;
    String hexPort = f[1].substring(f[1].lastIndexOf(':') + 1);
    if (!f[3].equals("0A") || !hexPort.equals(String.format(Locale.ROOT, "%04X", port))) return;
    inodes.add("socket:[" + f[9] + "]");
  }

  private static boolean holdsAny(Path fds, Set<String> sockets) {
    try (Stream<Path> l = Files.list(fds)) {
      return l.anyMatch(
          fd -> {
            try {
              return sockets.contains(Files.readSymbolicLink(fd).toString());
            } catch (IOException | UnsupportedOperationException e) {
              return false;
            }
          });
    } catch (IOException e) {
      return false;
    }
  }

  /** Whether a proxy's start failed because its port was taken (every proxy says it so). */
  static boolean taken(String failure) {
    return failure != null && failure.toLowerCase(Locale.ROOT).contains("address already in use");
  }
}
