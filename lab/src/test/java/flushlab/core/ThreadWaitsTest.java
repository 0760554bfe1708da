package flushlab.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Another process's threads' waits for a core, read from the kernel: what a proxy kept off the CPU
 * shows.
 */
class ThreadWaitsTest {

  /**
   * Two spinners pinned to one core take turns on it, so each waits for it about half the time: a
   * process of the path held off the CPU by the host. A process that has ended reads as nothing.
   */
  @Test
  void twoSpinnersOnOneCoreEachWaitForIt() throws Exception {
    assumeTrue(Files.exists(Path.of("/proc/self/task")), "no /proc here");
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/taskset")), "no taskset here (util-linux)");
    Process a =
        new ProcessBuilder("/usr/bin/taskset", "-c", "0", "sh", "-c", "while :; do :; done")
            .start();
    Process b =
        new ProcessBuilder("/usr/bin/taskset", "-c", "0", "sh", "-c", "while :; do :; done")
            .start();
    try {
      // the span brackets both readings: a wait read is never longer than the time between them
      // (this test once read
      // 441 ms of waiting over a 401 ms span taken inside the readings)
      long t0 = System.nanoTime();
      ThreadWaits before = ThreadWaits.of(List.of(a.pid()));
      assertThat(before.threads()).isEqualTo(1);
      // a real span of time is what is measured here: the spinners share the core for it
      a.waitFor(400, TimeUnit.MILLISECONDS);
      long waited = ThreadWaits.of(List.of(a.pid())).longestSince(before);
      long span = System.nanoTime() - t0;
      System.out.printf(
          "ThreadWaitsTest: a spinner sharing a core waited %.0f ms of %.0f%n",
          waited / 1e6, span / 1e6);
      assertThat(waited).as("waited for the core a good part of the span").isGreaterThan(span / 5);
      // a wait under way at the first reading is counted whole when it ends: one scheduler period
      // more at most (24 ms allowed)
      assertThat(waited).isLessThanOrEqualTo(span + 24_000_000L);
    } finally {
      a.destroyForcibly().waitFor();
      b.destroyForcibly().waitFor();
    }
    assertThat(ThreadWaits.of(List.of(a.pid())).threads()).as("an ended process").isZero();
    assertThat(ThreadWaits.of(List.of()).threads()).isZero();
  }
}
