package flushlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.core.LoopStallLedger;
import flushlab.emitter.PacingAudit;
import org.junit.jupiter.api.Test;

/** What held the emitter's latest frame, read from its own loop's ticks. */
class LateWriteTest {
  private static final long MS = 1_000_000L;
  private final Object emitterLoop = new Object();
  private final Object readerLoop = new Object();
  private final LoopStallLedger ledger = new LoopStallLedger();

  @Test
  void aLoopKeptWaitingForACoreIsNamedWithWhatItsThreadDid() {
    ledger.add(readerLoop, 0, 500 * MS, 560 * MS, 55 * MS, 1 * MS, 0);
    ledger.add(emitterLoop, 490 * MS, 500 * MS, 530 * MS, 2 * MS, 30 * MS, 0);
    LateWrite late = LateWrite.of(new PacingAudit.Latest(505 * MS, false, emitterLoop), 25 * MS, 0, ledger);
    assertThat(late.byHost()).isTrue();
    assertThat(late.why()).isEqualTo(" at 0.51 s; its loop stalled 30.0 ms (over the 40.0 ms between its ticks its thread ran 2.0 ms, "
        + "waited for a core 30.0 ms, stood with the JVM 0.0 ms, neither 8.0 ms)");
    assertThat(ledger.longest(emitterLoop, 505 * MS, 530 * MS).hosts()).as("30 of 30 ms waiting: the host's").isTrue();
    LateWrite longer = LateWrite.of(new PacingAudit.Latest(505 * MS, false, emitterLoop), 70 * MS, 0, ledger);
    assertThat(longer.byHost()).as("a 30 ms stall does not account for a frame 70 ms late").isFalse();
    assertThat(ledger.longest(readerLoop, 505 * MS, 530 * MS).hosts()).as("55 ms running: the lab's own code").isFalse();
  }

  @Test
  void aFrameThatWaitedForAFullSocketPointsAtThePathBehindIt() {
    ledger.add(readerLoop, 0, 500 * MS, 560 * MS, 55 * MS, 1 * MS, 0);
    LateWrite late = LateWrite.of(new PacingAudit.Latest(505 * MS, true, emitterLoop), 25 * MS, 0, ledger);
    assertThat(late.byHost()).as("the reader's loop ran the lab's own code").isFalse();
    assertThat(late.why()).startsWith(" at 0.51 s, waiting for a full socket to drain: the path behind it read late (the longest loop stall then: "
        + "stalled 60.0 ms").contains("ran 55.0 ms");
  }

  @Test
  void aLoopThatLoggedNoStallSaysSoAndAnotherProcesssEmitterSaysNothing() {
    LateWrite late = LateWrite.of(new PacingAudit.Latest(505 * MS, false, emitterLoop), 25 * MS, 0, ledger);
    assertThat(late.why()).isEqualTo(" at 0.51 s; its loop logged no stall then");
    assertThat(late.byHost()).isFalse();
    assertThat(LateWrite.of(null, 25 * MS, 0, ledger).why()).isEmpty();
  }
}
