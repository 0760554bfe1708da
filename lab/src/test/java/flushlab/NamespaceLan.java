package flushlab;

import flushlab.process.Executables;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A small LAN of network namespaces on this machine, for tests of a lab on several hosts: a hub
 * namespace holding a bridge, and one namespace per member, each joined to the bridge by a veth
 * pair, on one /24 of 10.251.0.0/16 that no address here uses. This test's own namespace joins too,
 * as {@link #rootAddress()}. Nothing of the host changes (no forwarding, no routes outside the
 * namespaces); {@link #close()} kills what runs inside and deletes every namespace, which takes the
 * veth pairs with them.
 */
public final class NamespaceLan implements AutoCloseable {
  private final String hub;
  private final List<String> members = new ArrayList<>();
  private final String subnet;

  private NamespaceLan(String hub, String subnet) {
    this.hub = hub;
    this.subnet = subnet;
  }

  /** A LAN of {@code count} member namespaces; on failure, whatever was made is removed again. */
  public static NamespaceLan open(int count) throws IOException {
    String tag = Long.toString(ProcessHandle.current().pid(), 36);
    String used = ip("-4", "-o", "addr", "show");
    int net = -1;
    for (int i = 0; i < 256 && net < 0; i++) {
      int n = (int) ((ProcessHandle.current().pid() + i) % 256);
      if (!used.contains("inet 10.251." + n + ".")) net = n;
    }
    if (net < 0) throw new IOException("every /24 of 10.251.0.0/16 is in use here");
    NamespaceLan lan = new NamespaceLan("flhub-" + tag, "10.251." + net + ".");
    try {
      ip("netns", "add", lan.hub);
      ip("-n", lan.hub, "link", "add", "br0", "type", "bridge");
      ip("-n", lan.hub, "link", "set", "br0", "up");
      // this test's namespace: the coordinator's address
      ip("link", "add", "flr" + tag, "type", "veth", "peer", "name", "h0", "netns", lan.hub);
      ip("addr", "add", lan.subnet + "1/24", "dev", "flr" + tag);
      ip("link", "set", "flr" + tag, "up");
      ip("-n", lan.hub, "link", "set", "h0", "master", "br0", "up");
      for (int i = 1; i <= count; i++) {
        String ns = "flm" + i + "-" + tag;
        lan.members.add(ns);
        ip("netns", "add", ns);
        ip(
            "-n", lan.hub, "link", "add", "h" + i, "type", "veth", "peer", "name", "e0", "netns",
            ns);
        ip("-n", lan.hub, "link", "set", "h" + i, "master", "br0", "up");
        ip("-n", ns, "addr", "add", lan.subnet + (i + 1) + "/24", "dev", "e0");
        ip("-n", ns, "link", "set", "e0", "up");
        ip("-n", ns, "link", "set", "lo", "up");
      }
      return lan;
    } catch (IOException e) {
      lan.close();
      throw e;
    }
  }

  /** The address of this test's own namespace on the LAN. */
  public String rootAddress() {
    return subnet + "1";
  }

  /** Member {@code i}'s (from 0) address on the LAN. */
  public String address(int i) {
    return subnet + (i + 2);
  }

  /** The command prefix that runs a command inside member {@code i}'s namespace. */
  public List<String> inside(int i) {
    return List.of(Executables.locate("ip"), "netns", "exec", members.get(i));
  }

  /** Every namespace this LAN made. */
  public List<String> namespaces() {
    List<String> all = new ArrayList<>(members);
    all.add(hub);
    return all;
  }

  /** The namespaces the kernel lists now. */
  public static String listed() throws IOException {
    return ip("netns", "list");
  }

  /**
   * Kills every process still inside a member and deletes every namespace (their veth pairs go with
   * them).
   */
  @Override
  public void close() {
    for (String ns : namespaces()) {
      try {
        for (String pid : ip("netns", "pids", ns).split("\\s+")) {
          if (!pid.isBlank())
            ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
        }
      } catch (IOException | RuntimeException e) {
        // not made, or already gone
      }
      try {
        ip("netns", "del", ns);
      } catch (IOException e) {
        // not made, or already gone
      }
    }
  }

  private static String ip(String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Executables.locate("ip"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try {
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException(String.join(" ", cmd) + ": no answer in 10 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted: " + String.join(" ", cmd));
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.exitValue() != 0) throw new IOException(String.join(" ", cmd) + ": " + out.strip());
    return out;
  }
}
