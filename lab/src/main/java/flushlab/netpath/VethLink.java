package flushlab.netpath;

import flushlab.core.IoErrors;
import flushlab.process.Executables;
import flushlab.process.WorkFolders;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A network namespace of the lab's own, joined to the lab's namespace by a veth link of one MTU:
 * the lab's client stays in its namespace (so its clock and its reads are the same as on loopback),
 * the servers run in the other one, reached at {@link #serverHost()} across the link.
 *
 * <p>Made and removed by the lab: {@link #close()} kills what still runs inside and deletes the
 * namespace (which takes both ends of the link with it). A shutdown hook does the same on Ctrl-C
 * and SIGTERM. A lab killed with SIGKILL runs no code, so every link is recorded in a work folder
 * naming its owner; the next lab that makes a link removes the namespaces of owners that are gone.
 */
public final class VethLink implements AutoCloseable {
  static final String NETNS_FILE = "netns";
  private static final AtomicInteger COUNTER = new AtomicInteger();
  private static final Set<VethLink> OPEN = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> List.copyOf(OPEN).forEach(VethLink::close), "flushlab-veth-cleanup"));
  }

  private final String namespace;
  private final String hostSide;
  private final String labHost;
  private final String serverHost;
  private final int mtu;
  private final Path folder;
  private volatile boolean closed;

  private VethLink(
      String namespace, String hostSide, String labHost, String serverHost, int mtu, Path folder) {
    this.namespace = namespace;
    this.hostSide = hostSide;
    this.labHost = labHost;
    this.serverHost = serverHost;
    this.mtu = mtu;
    this.folder = folder;
  }

  /** A link that cannot be made; the message says why and what to do. */
  public static final class Unavailable extends Exception {
    private static final long serialVersionUID = 1L;

    public Unavailable(String message) {
      super(message);
    }
  }

  /** Why this machine cannot make a veth link, or null when it can. */
  public static String unavailableReason() {
    return IpCommand.unavailable();
  }

  /**
   * Makes a namespace and a veth link of this MTU into it, both ends up, with a /30 of
   * 10.250.0.0/16 that no interface of this namespace uses. On any failure whatever was made is
   * removed again before the failure is reported.
   */
  public static VethLink open(int mtu) throws Unavailable {
    String why = IpCommand.unavailable();
    if (why != null) throw new Unavailable(why);
    sweepStale();
    long pid = ProcessHandle.current().pid();
    int n = COUNTER.incrementAndGet();
    String tag = Long.toString(pid, 36) + "x" + Integer.toString(n, 36);
    String namespace = "flushlab-" + tag;
    String hostSide = "fl" + tag + "a";
    String nsSide = "fl" + tag + "b";
    Path folder;
    try {
      folder = WorkFolders.create("netpath");
      Files.writeString(
          folder.resolve(NETNS_FILE), namespace + " " + hostSide + "\n", StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new Unavailable("cannot record the link in a work folder: " + IoErrors.describe(e));
    }
    VethLink link = null;
    try {
      int block = freeBlock(pid, n);
      String labHost = "10.250." + (block >> 6) + "." + ((block & 63) * 4 + 1);
      String serverHost = "10.250." + (block >> 6) + "." + ((block & 63) * 4 + 2);
      link = new VethLink(namespace, hostSide, labHost, serverHost, mtu, folder);
      OPEN.add(link);
      IpCommand.run("netns", "add", namespace);
      IpCommand.run(
          "link",
          "add",
          hostSide,
          "mtu",
          Integer.toString(mtu),
          "type",
          "veth",
          "peer",
          "name",
          nsSide,
          "mtu",
          Integer.toString(mtu),
          "netns",
          namespace);
      IpCommand.run("addr", "add", labHost + "/30", "dev", hostSide);
      IpCommand.run("link", "set", hostSide, "up");
      IpCommand.run("-n", namespace, "addr", "add", serverHost + "/30", "dev", nsSide);
      IpCommand.run("-n", namespace, "link", "set", nsSide, "up");
      IpCommand.run("-n", namespace, "link", "set", "lo", "up");
      return link;
    } catch (IOException e) {
      if (link != null) link.close();
      else WorkFolders.delete(folder);
      IpCommand.quietly("netns", "del", namespace);
      throw new Unavailable("cannot make the veth path: " + e.getMessage());
    }
  }

  /** A /30 in 10.250.0.0/16 that no address of this namespace falls in (64 blocks per /24). */
  private static int freeBlock(long pid, int n) throws IOException {
    String used = IpCommand.run("-4", "-o", "addr", "show");
    int start = (int) ((pid * 31 + n) % 16384);
    for (int i = 0; i < 16384; i++) {
      int b = (start + i) % 16384;
      String prefix = "inet 10.250." + (b >> 6) + "." + ((b & 63) * 4 + 1) + "/";
      String other = "inet 10.250." + (b >> 6) + "." + ((b & 63) * 4 + 2) + "/";
      if (!used.contains(prefix) && !used.contains(other)) return b;
    }
    throw new IOException("every /30 of 10.250.0.0/16 is in use on this host");
  }

  /** The namespace's name (ip netns list shows it). */
  public String namespace() {
    return namespace;
  }

  /** The lab's end of the link (in the lab's namespace). */
  public String hostSide() {
    return hostSide;
  }

  /** The address of the lab's end. */
  public String labHost() {
    return labHost;
  }

  /** Where the servers in the namespace listen, as the client reaches them across the link. */
  public String serverHost() {
    return serverHost;
  }

  public int mtu() {
    return mtu;
  }

  public NetworkPath path() {
    return NetworkPath.veth(mtu);
  }

  /** The work folder of this link: the logs of what runs in the namespace. */
  public Path folder() {
    return folder;
  }

  /** The command that runs {@code command} inside the namespace. */
  public List<String> inside(List<String> command) {
    List<String> all =
        new ArrayList<>(List.of(Executables.locate("ip"), "netns", "exec", namespace));
    all.addAll(command);
    return all;
  }

  /**
   * Kills whatever still runs in the namespace, deletes it (and so the link), and the work folder.
   */
  @Override
  public synchronized void close() {
    if (closed) return;
    closed = true;
    OPEN.remove(this);
    remove(namespace, hostSide);
    WorkFolders.delete(folder);
  }

  private static void remove(String namespace, String hostSide) {
    try {
      for (String pid : IpCommand.run("netns", "pids", namespace).split("\\s+")) {
        if (!pid.isBlank())
          ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
      }
    } catch (IOException | RuntimeException e) {
      // no such namespace, or nothing in it
    }
    IpCommand.quietly("netns", "del", namespace);
    IpCommand.quietly(
        "link", "del", hostSide); // gone with its peer already, unless the namespace was held open
  }

  /**
   * Removes the namespaces and links recorded by labs that are gone (killed with SIGKILL, or the
   * machine lost power mid-run). Returns how many were removed.
   */
  public static int sweepStale() {
    int removed = 0;
    try (DirectoryStream<Path> dirs =
        Files.newDirectoryStream(WorkFolders.root(), WorkFolders.PREFIX + "netpath-*")) {
      for (Path dir : dirs) {
        Path record = dir.resolve(NETNS_FILE);
        if (!Files.isRegularFile(record) || WorkFolders.ownerAlive(dir)) continue;
        String[] f = Files.readString(record).trim().split(" ");
        if (f.length == 2 && f[0].startsWith("flushlab-") && f[1].startsWith("fl"))
          remove(f[0], f[1]);
        WorkFolders.delete(dir);
        removed++;
      }
    } catch (IOException | RuntimeException e) {
      // a folder we cannot read is not ours to judge
    }
    return removed;
  }

  @Override
  public String toString() {
    return "veth "
        + hostSide
        + " ("
        + labHost
        + ") <-> "
        + namespace
        + " ("
        + serverHost
        + "), MTU "
        + mtu;
  }
}
