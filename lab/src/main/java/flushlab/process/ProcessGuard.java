package flushlab.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Ties a child process's life to the lab's, so a proxy never outlives the lab that started it, even
 * when the lab is killed with SIGKILL and runs no cleanup of its own. The child runs as
 *
 * <pre>
 * setpriv --pdeathsig TERM -- setsid sh -c 'trap "kill -KILL 0" TERM HUP; "$@" &amp; wait $!' guard PROXY ARGS
 * </pre>
 *
 * <ul>
 *   <li>{@code setpriv --pdeathsig TERM}: the kernel sends TERM to the guard when its parent (the
 *       lab) dies, however it dies;
 *   <li>{@code setsid}: the guard and everything it starts form their own process group (so also a
 *       terminal's Ctrl-C reaches the lab, which stops the proxy itself, not the proxy directly);
 *   <li>the guard's trap kills the whole group, the proxy's own children included (an nginx master
 *       killed alone leaves its workers serving).
 * </ul>
 *
 * The arguments go to sh as positional parameters, never into the script text: nothing a scenario
 * says is interpreted by a shell. Where setpriv or setsid is missing, the proxy runs unguarded and
 * {@link #guarded()} says so.
 *
 * <p>Linux sends the parent-death signal when the thread that started the child exits, not only the
 * process: every guarded child is started from one long-lived thread, so a proxy started from a
 * short-lived thread is not killed when that thread ends.
 */
public final class ProcessGuard {
  private static final String SCRIPT = "trap 'kill -KILL 0' TERM HUP; \"$@\" & wait $!";
  private static final ExecutorService LAUNCHER =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "flushlab-process-launcher");
            t.setDaemon(true);
            return t;
          });

  private ProcessGuard() {}

  /** True when setpriv and setsid are on this machine (util-linux). */
  public static boolean guarded() {
    return Executables.locate("setpriv") != null && Executables.locate("setsid") != null;
  }

  /** The command that runs {@code command} under the guard (or itself, unguarded). */
  public static List<String> wrap(List<String> command) {
    if (!guarded()) return command;
    List<String> all =
        new ArrayList<>(
            List.of(
                Executables.locate("setpriv"),
                "--pdeathsig",
                "TERM",
                "--",
                Executables.locate("setsid"),
                "sh",
                "-c",
                SCRIPT,
                "flushlab-guard"));
    all.addAll(command);
    return all;
  }

  /** Starts the process from the launcher thread (see the class comment). */
  public static Process start(ProcessBuilder pb) throws IOException {
    Future<Process> f = LAUNCHER.submit(pb::start);
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while starting " + pb.command().get(0), e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException) throw (IOException) e.getCause();
      throw new IOException(e.getCause());
    }
  }

  /**
   * Stops a child started here and everything it started: TERM (under the guard, the guard then
   * kills its whole group), KILL after 5 s, then any descendant still alive.
   */
  public static void stop(Process process) {
    List<ProcessHandle> descendants = new ArrayList<>();
    process.descendants().forEach(descendants::add);
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (ProcessHandle h : descendants) if (h.isAlive()) h.destroyForcibly();
    // a kill is delivered asynchronously: until each child has exited it may still hold the
    // proxy's listening socket (a test saw the port accept a connection right after stop)
    for (ProcessHandle h : descendants) {
      try {
        h.onExit().get(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (ExecutionException | TimeoutException e) {
        // gone already, or not reaped in time: nothing more to do for it here
      }
    }
  }

  /** The last lines of a child's log, or why there is none. */
  public static String logTail(Path log, int lines) {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      // say whether the folder itself is gone: something deleted it under the process
      Path folder = log.getParent();
      return "(no log: "
          + e.getMessage()
          + (folder != null && !Files.isDirectory(folder) ? "; its folder no longer exists" : "")
          + ")";
    }
  }
}
