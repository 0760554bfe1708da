package flushlab.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A loop's stall says how long the JVM stood over it from the watcher's log as it is when asked.
 */
class LoopStallLedgerTest {
  private static final long US = 1_000L;
  private final Object emitterLoop = new Object();

  /**
   * The figures of a map's replay (perf, 2026-12-05): a GC pause held the emitter's loop; released
   * with the watcher, the loop ran its tick first and logged "stood with the JVM 0.0 ms"; the
   * watcher woke 0.1 ms later and logged its own 20.7 ms. Asked after both, the stall is the JVM's.
   */
  @Test
  void aStallTheWatcherLoggedAfterTheLoopsTickStillCountsAsTheJvmsStanding() {
    StallLog watcher = new StallLog();
    LoopStallLedger ledger = new LoopStallLedger(watcher);
    ledger.add(emitterLoop, 181_000 * US, 191_000 * US, 214_600 * US, 300 * US, 8_100 * US, 0, 0);
    LoopStallLedger.LoopStall before = ledger.longest(emitterLoop, 190_000 * US, 215_000 * US);
    assertThat(before.jvmStoppedNanos()).isZero();
    assertThat(before.hosts())
        .as("nothing logged yet says the JVM stood: %s", before.describe())
        .isFalse();

    watcher.add(193_900 * US, 214_700 * US);
    LoopStallLedger.LoopStall after = ledger.longest(emitterLoop, 190_000 * US, 215_000 * US);
    assertThat(after.jvmStoppedNanos()).isEqualTo(20_700 * US);
    assertThat(after.hosts()).as(after.describe()).isTrue();
    assertThat(after.describe()).contains("stood with the JVM 20.7 ms");
  }

  @Test
  void aWatcherStallOutsideTheLoopsStallIsNotCountedAndATicksOwnFigureIsKept() {
    StallLog watcher = new StallLog();
    LoopStallLedger ledger = new LoopStallLedger(watcher);
    watcher.add(100_000 * US, 130_000 * US);
    ledger.add(emitterLoop, 180_000 * US, 190_000 * US, 215_000 * US, 24_000 * US, 0, 0, 0);
    LoopStallLedger.LoopStall ranItsOwnCode =
        ledger.longest(emitterLoop, 190_000 * US, 215_000 * US);
    assertThat(ranItsOwnCode.jvmStoppedNanos()).isZero();
    assertThat(ranItsOwnCode.hosts()).as("24 ms running the lab's own code").isFalse();

    ledger.add(emitterLoop, 280_000 * US, 290_000 * US, 315_000 * US, 0, 0, 24_000 * US, 0);
    assertThat(ledger.longest(emitterLoop, 290_000 * US, 315_000 * US).jvmStoppedNanos())
        .as("what the tick saw itself")
        .isEqualTo(24_000 * US);
  }
}
