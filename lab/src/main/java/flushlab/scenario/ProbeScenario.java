package flushlab.scenario;

import flushlab.netpath.NetworkPath;
import java.nio.file.Path;
import java.util.List;

/**
 * A validated TCP-layer probe scenario ({@code probe: upload} or {@code probe: keepalive}): the
 * lab's own upload servers, each with its settings and network path, and the probe's settings. Made
 * only by {@link ScenarioLoader}.
 */
public record ProbeScenario(
    String name,
    String description,
    Path file,
    String text,
    ProbeKind probe,
    NetworkPath path,
    Upload upload,
    KeepAlive keepAlive,
    List<Server> servers)
    implements ScenarioFile {

  /**
   * The upload probe: body sizes to sweep, attempts per size, what counts as a stall, how close to
   * bisect.
   */
  public record Upload(
      List<Integer> sizes,
      int attempts,
      long stallOverNanos,
      double tolerance,
      long timeoutNanos) {}

  /**
   * The keep-alive probe: requests per connection, body size, the client's TCP_NODELAY settings,
   * what counts as a stall.
   */
  public record KeepAlive(
      int requests, int bodyBytes, List<Boolean> clientNoDelay, long stallOverNanos) {}

  /**
   * One of the lab's upload servers: SO_RCVBUF asked (0: the kernel's), read delay, TCP_NODELAY,
   * path.
   */
  public record Server(
      String name, int rcvbufBytes, long readDelayNanos, boolean noDelay, NetworkPath path) {}

  public boolean isUpload() {
    return probe == ProbeKind.UPLOAD;
  }
}
