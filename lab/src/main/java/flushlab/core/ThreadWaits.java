package flushlab.core;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * How long each thread of some other processes (a proxy the lab started, and its workers; an
 * emitter or relay running in a namespace) has waited, runnable, for a core: the second field of
 * each {@code /proc/PID/task/TID/schedstat}. The lab's meter sees only its own process; a proxy
 * kept off the CPU by the host merges frames as a proxy's buffer would, and only its threads' waits
 * show it. Read before and after a run (never per frame): a few hundred bytes per thread.
 */
public final class ThreadWaits {
  private static final ThreadWaits NONE = new ThreadWaits(Map.of());
  private final Map<Long, Long> waitedByThread;

  private ThreadWaits(Map<Long, Long> waitedByThread) {
    this.waitedByThread = waitedByThread;
  }

  /**
   * The threads of these processes and of every process they started; empty where the kernel does
   * not say.
   */
  public static ThreadWaits of(List<Long> pids) {
    if (pids.isEmpty()) return NONE;
    Map<Long, Long> waited = new HashMap<>();
    for (long pid : pids) {
      if (pid <= 0) continue;
      read(pid, waited);
      ProcessHandle.of(pid)
          .ifPresent(
              p -> {
                try (Stream<ProcessHandle> d = p.descendants()) {
                  d.forEach(c -> read(c.pid(), waited));
                }
              });
    }
    return new ThreadWaits(waited);
  }

  private static void read(long pid, Map<Long, Long> into) {
    try (DirectoryStream<Path> tasks =
        Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : tasks) {
        long w = waitOf(task.resolve("schedstat"));
        if (w >= 0) into.put(Long.parseLong(task.getFileName().toString()), w);
      }
    } catch (IOException | RuntimeException e) {
      // the process ended, or no /proc: nothing to add
    }
  }

  private static long waitOf(Path schedstat) {
    try {
      byte[] b = Files.readAllBytes(schedstat);
      long[] f = new long[2];
      return SchedStat.leadingFields(b, b.length, f) ? f[1] : -1;
    } catch (IOException e) {
      return -1;
    }
  }

  /**
   * The longest any one thread waited since {@code before}: the most one stream's frames can have
   * piled up behind a thread that serves it (a thread born since counts from zero). Summed over a
   * proxy's threads it would be every idle worker's wake-ups too, and would excuse a real release.
   */
  public long longestSince(ThreadWaits before) {
    long longest = 0;
    for (Map.Entry<Long, Long> e : waitedByThread.entrySet()) {
      longest =
          Math.max(longest, e.getValue() - before.waitedByThread.getOrDefault(e.getKey(), 0L));
    }
    return longest;
  }

  /** How many threads were read. */
  public int threads() {
    return waitedByThread.size();
  }
}
