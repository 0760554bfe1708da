package flushlab.netpath;

import flushlab.core.HostPort;
import flushlab.core.IoErrors;
import flushlab.core.LabClock;
import flushlab.process.ProcessGuard;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One of the lab's own servers (an emitter, a relay) run as a child JVM inside a veth link's
 * namespace: same Java, same class path, the parent's clock anchor (so emit times stamped there are
 * on the client's clock), under the process guard (so it dies with the lab, however the lab dies).
 * Ready once it accepts connections across the link.
 */
public final class LabChild implements AutoCloseable {
  private static final long START_TIMEOUT_NANOS = 30_000_000_000L;

  private final String what;
  private final Process process;
  private final HostPort address;
  private final Path log;

  private LabChild(String what, Process process, HostPort address, Path log) {
    this.what = what;
    this.process = process;
    this.address = address;
    this.log = log;
  }

  /**
   * Starts {@code flushlab ARGS} in the link's namespace and waits until {@code address} accepts a
   * connection from the lab's side and the child has said it is ready (after its warm-up). Throws
   * with the child's log tail when it exits or stays deaf.
   */
  public static LabChild start(VethLink link, String what, List<String> args, HostPort address)
      throws VethLink.Unavailable {
    Path log = link.folder().resolve(what.replaceAll("[^A-Za-z0-9_.-]", "_") + ".log");
    List<String> java = new ArrayList<>();
    java.add(
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    // the options lab/jvm.options gives every JVM the lab runs: C1 only, so no C2 compiles in the
    // middle
    // of what this child serves (and it is ready in about half the time on two cores)
    java.add("-XX:TieredStopAtLevel=1");
    java.add("-Xmx256m");
    java.add(
        "-XX:+UseSerialGC"); // one small heap per child; no GC threads competing for the lab's two
    // cores
    java.add(LabClock.anchorProperty());
    java.add("-cp");
    java.add(System.getProperty("java.class.path"));
    java.add("flushlab.cli.Main");
    java.addAll(args);
    ProcessBuilder pb =
        new ProcessBuilder(ProcessGuard.wrap(link.inside(java)))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    Process p;
    try {
      p = ProcessGuard.start(pb);
    } catch (IOException e) {
      throw new VethLink.Unavailable(
          "cannot start the " + what + " in " + link.namespace() + ": " + IoErrors.describe(e));
    }
    LabChild child = new LabChild(what, p, address, log);
    long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
    while (true) {
      if (!p.isAlive())
        throw child.gone(
            "exited with status " + p.exitValue() + " before it listened on " + address, link);
      // Ready once it listens and has said so: a server command says so after its warm-up, which
      // must not share the two cores with the first measurement.
      if (accepts(address) && child.saidReady()) return child;
      if (System.nanoTime() > deadline)
        throw child.gone("did not listen on " + address + " within 30 s", link);
      try {
        p.waitFor(50, TimeUnit.MILLISECONDS); // poll the port; returns at once if it dies
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        child.close();
        throw new VethLink.Unavailable("interrupted while starting the " + what);
      }
    }
  }

  /**
   * Closes this child, which did not come up, and says why with the end of its log: what {@code
   * happened} instead ("exited with status 1 before it listened on ...").
   */
  private VethLink.Unavailable gone(String happened, VethLink link) {
    String tail = logTail(15);
    close();
    return new VethLink.Unavailable(
        "the " + what + " in " + link.namespace() + " " + happened + "; its log ends:\n" + tail);
  }

  /** The lines the lab's server commands print once they listen and have warmed up. */
  private static final List<String> READY_LINES =
      List.of("flushlab emitter listening on", "flushlab relay on");

  private boolean saidReady() {
    return logTail(400).lines().anyMatch(l -> READY_LINES.stream().anyMatch(l::startsWith));
  }

  static boolean accepts(HostPort at) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(at.host(), at.port()), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  public HostPort address() {
    return address;
  }

  public long pid() {
    return process.children().findFirst().map(ProcessHandle::pid).orElse(process.pid());
  }

  /**
   * The first log line starting with {@code prefix}, waiting for it at most {@code millis} (the
   * child prints what it listens on just after it starts listening, so a connect can win the race).
   */
  public String awaitLogLine(String prefix, long millis) {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    while (true) {
      String found =
          logTail(200).lines().filter(l -> l.startsWith(prefix)).findFirst().orElse(null);
      if (found != null || System.nanoTime() > deadline || !process.isAlive()) return found;
      try {
        process.waitFor(10, TimeUnit.MILLISECONDS); // wakes at once if the child dies
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
    }
  }

  public String logTail(int lines) {
    return ProcessGuard.logTail(log, lines);
  }

  /** TERM to the guard ends the child's whole process group; KILL after 5 s. */
  @Override
  public void close() {
    ProcessGuard.stop(process);
  }

  @Override
  public String toString() {
    return what + " (pid " + pid() + ") at " + address;
  }
}
