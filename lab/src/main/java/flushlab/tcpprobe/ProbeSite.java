package flushlab.tcpprobe;

import flushlab.core.HostPort;
import flushlab.core.Units;
import flushlab.netpath.LabChild;
import flushlab.netpath.NetworkPath;
import flushlab.netpath.VethLink;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a TCP probe runs the lab's own upload servers: in this process on loopback, or as children
 * ({@code flushlab emitter --upload-listen}) inside a veth path's namespace, so the probe's bursts
 * cross the link. Closing it stops every server and removes the namespace.
 */
public final class ProbeSite implements AutoCloseable {
  private final NetworkPath path;
  private final VethLink link;
  private final List<AutoCloseable> servers = new ArrayList<>();
  private int nextPort = 8091;

  private ProbeSite(NetworkPath path, VethLink link) {
    this.path = path;
    this.link = link;
  }

  public static ProbeSite open(NetworkPath path) throws VethLink.Unavailable {
    return new ProbeSite(path, path.isVeth() ? VethLink.open(path.mtu()) : null);
  }

  public NetworkPath path() {
    return path;
  }

  /** The link, or null on loopback. */
  public VethLink link() {
    return link;
  }

  /**
   * A running upload server: where it is, and the line that describes it (SO_RCVBUF as granted).
   */
  public record Server(HostPort address, String description, Integer grantedRcvbuf) {}

  /** Starts an upload server with these settings (the listen address is the site's choice). */
  public synchronized Server start(UploadServer.Options o)
      throws IOException, VethLink.Unavailable {
    if (link == null) {
      UploadServer s =
          UploadServer.start(
              new UploadServer.Options(
                  new HostPort("127.0.0.1", 0),
                  o.rcvbufBytes(),
                  o.readDelayNanos(),
                  o.tcpNoDelay()));
      servers.add(s);
      return new Server(s.address(), describe(s), s.grantedRcvbuf());
    }
    int port = nextPort++;
    HostPort at = new HostPort(link.serverHost(), port);
    List<String> args =
        new ArrayList<>(
            List.of(
                "emitter",
                "--listen",
                link.serverHost() + ":" + (port + 1000),
                "--upload-listen",
                at.toString(),
                "--upload-read-delay",
                o.readDelayNanos() + "ns"));
    if (o.rcvbufBytes() > 0) args.addAll(List.of("--upload-rcvbuf", o.rcvbufBytes() + "B"));
    if (!o.tcpNoDelay()) args.add("--upload-no-tcp-nodelay");
    LabChild child = LabChild.start(link, "upload-server-" + port, args, at);
    servers.add(child);
    String line = child.awaitLogLine("upload listener on", 5_000);
    if (line == null)
      line = "upload listener on " + at + " (it did not say what the kernel granted)";
    Matcher m = Pattern.compile("granted (\\d+) B").matcher(line);
    return new Server(
        at, line + ", in " + link.namespace(), m.find() ? Integer.valueOf(m.group(1)) : null);
  }

  public static String describe(UploadServer s) {
    UploadServer.Options o = s.options();
    return "upload listener on "
        + s.address()
        + " (SO_RCVBUF "
        + (o.rcvbufBytes() > 0 ? "asked " + o.rcvbufBytes() + " B, " : "the kernel's default, ")
        + "granted "
        + s.grantedRcvbuf()
        + " B; read delay "
        + Units.formatDuration(o.readDelayNanos())
        + "; TCP_NODELAY "
        + (o.tcpNoDelay() ? "on" : "off")
        + ")";
  }

  @Override
  public void close() {
    for (AutoCloseable s : servers) {
      try {
        s.close();
      } catch (Exception e) {
        // stopping anyway
      }
    }
    if (link != null) link.close();
  }
}
