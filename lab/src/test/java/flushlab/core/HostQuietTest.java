package flushlab.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Waiting for a quiet host: a logged stall in the window keeps it waiting, and the wait is bounded.
 */
class HostQuietTest {
  @Test
  void aStallInTheWindowIsNotQuietAndTheWaitEndsAtItsBound() {
    HiccupMeter meter = HiccupMeter.get();
    long before = System.nanoTime();
    meter.holdHostThread(30_000_000L); // the watcher stands still 30 ms: a host stall it logs
    meter.awaitWatcherPast(System.nanoTime(), 1_000_000_000L);
    long now = System.nanoTime();
    assertThat(meter.host().coveredNanos(before, now))
        .as("the held watcher logged a stall")
        .isPositive();
    assertThat(HostQuiet.quiet(meter, before, now)).as("a window holding a stall").isFalse();
    // a window that must hold the stall just logged can never be quiet: the wait gives up at its
    // bound
    long window = now - before + 5_000_000_000L;
    HostQuiet.Wait w = HostQuiet.await(meter, window, 100_000_000L);
    assertThat(w.quiet()).isFalse();
    assertThat(w.waitedNanos()).isBetween(100_000_000L, 2_000_000_000L);
    assertThat(w.text()).startsWith("though this host was not quiet");
  }

  @Test
  void aQuietWaitSaysHowLongItTook() {
    assertThat(new HostQuiet.Wait(620_000_000L, true).text())
        .isEqualTo("once this host had been quiet for 250 ms (after 0.62 s)");
    assertThat(new HostQuiet.Wait(2_000_000_000L, false).text())
        .isEqualTo("though this host was not quiet for 250 ms within 2.0 s");
  }
}
