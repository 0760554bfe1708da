package flushlab;

import flushlab.core.ProcFiles;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A loopback port for a server a test starts later. Taken below the kernel's ephemeral range: a
 * port picked with port 0 and closed again comes from that range, where any of the thousands of
 * connections the warm-up opens can take it as its source port before the server binds it.
 */
public final class FreePort {
  private FreePort() {}

  public static int forALaterServer() throws IOException {
    return forALaterServer(1);
  }

  /**
   * The first of {@code count} consecutive free ports (a lab agent takes three: handshake,
   * Hazelcast, event bus).
   */
  public static int forALaterServer(int count) throws IOException {
    int ephemeralStart = 32768;
    try {
      // procfs files report a size of 0, and Files.readString then reads one byte: ProcFiles reads
      // them whole
      ephemeralStart =
          Integer.parseInt(
              ProcFiles.read(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))
                  .trim()
                  .split("\\s+")[0]);
    } catch (IOException | RuntimeException unknown) {
      // keep Linux's default start
    }
    int low = Math.max(1024, Math.min(20_000, ephemeralStart - 8_000));
    if (low >= ephemeralStart) low = 20_000; // an odd range: fall back to below Linux's default
    if (ephemeralStart <= low) ephemeralStart = 32_768;
    for (int attempt = 0; attempt < 200; attempt++) {
      int port = ThreadLocalRandom.current().nextInt(low, ephemeralStart - count + 1);
      if (allFree(port, count)) return port;
    }
    throw new IOException("no " + count + " free loopback port(s) below " + ephemeralStart);
  }

  private static boolean allFree(int first, int count) {
    for (int p = first; p < first + count; p++) {
      try (ServerSocket s = new ServerSocket(p, 1, InetAddress.getLoopbackAddress())) {
        // free now
      } catch (IOException taken) {
        return false;
      }
    }
    return true;
  }
}
