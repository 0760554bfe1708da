package flushlab;

import flushlab.core.ProcFiles;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
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
    int ephemeralStart = 32768;
    try {
      // procfs files report a size of 0, and Files.readString then reads one byte: ProcFiles reads them whole
      ephemeralStart = Integer.parseInt(ProcFiles.read(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim().split("\\s+")[0]);
    } catch (IOException | RuntimeException unknown) {
      // keep Linux's default start
    }
    int low = Math.max(1024, Math.min(20_000, ephemeralStart - 8_000));
    if (low >= ephemeralStart) low = 20_000; // an odd range: fall back to below Linux's default
    if (ephemeralStart <= low) ephemeralStart = 32_768;
    for (int attempt = 0; attempt < 200; attempt++) {
      int port = ThreadLocalRandom.current().nextInt(low, ephemeralStart);
      try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        return s.getLocalPort();
      } catch (IOException taken) {
        // another one
      }
    }
    throw new IOException("no free loopback port below " + ephemeralStart);
  }
}
