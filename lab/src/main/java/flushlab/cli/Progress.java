package flushlab.cli;

import java.io.PrintStream;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** A progress line once a second, on a terminal only (a pipe or a log file gets none). */
final class Progress implements AutoCloseable {
  private final ScheduledExecutorService timer;
  private final PrintStream out;

  Progress(PrintStream out, Supplier<String> line) {
    this.out = out;
    if (System.console() == null) {
      timer = null;
      return;
    }
    long start = System.nanoTime();
    timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "flushlab-progress");
              t.setDaemon(true);
              return t;
            });
    timer.scheduleAtFixedRate(
        () -> out.printf("\r  %s  (%.0fs)   ", line.get(), (System.nanoTime() - start) / 1e9),
        1,
        1,
        TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    if (timer != null) {
      timer.shutdownNow();
      out.print("\r\033[K");
    }
  }
}
