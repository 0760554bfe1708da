package flushlab.emitter;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.core.Json;
import flushlab.core.LoopStallLedger;
import flushlab.core.StallLog;
import org.junit.jupiter.api.Test;

/** What held a stream's latest frame, read from its own loop's ticks in the emitter's process. */
class LateFrameTest {
  private static final long MS = 1_000_000L;
  private final Object emitterLoop = new Object();
  private final Object readerLoop = new Object();
  private final LoopStallLedger ledger = new LoopStallLedger(new StallLog());

  private PacingAudit.Latest latest(long dueMs, boolean afterFullSocket) {
    return new PacingAudit.Latest(0, dueMs * MS, afterFullSocket, emitterLoop);
  }

  @Test
  void aLoopKeptWaitingForACoreIsTheHostsAndNamedWithWhatItsThreadDid() {
    ledger.add(readerLoop, 0, 500 * MS, 560 * MS, 55 * MS, 1 * MS, 0, 0);
    ledger.add(emitterLoop, 490 * MS, 500 * MS, 530 * MS, 2 * MS, 30 * MS, 0, 0);
    LateFrame.Held held = LateFrame.of(latest(505, false), 25 * MS, ledger);
    assertThat(held.byHost()).isTrue();
    assertThat(held.why())
        .isEqualTo(
            " at 0.51 s into the stream; its loop stalled 30.0 ms (over the 40.0 ms between its ticks its thread "
                + "ran 2.0 ms, waited for a core 30.0 ms, stood with the JVM 0.0 ms, neither 8.0 ms)");
    assertThat(ledger.longest(readerLoop, 505 * MS, 530 * MS).hosts())
        .as("55 ms running: the lab's own code")
        .isFalse();
    assertThat(LateFrame.of(latest(505, false), 70 * MS, ledger).byHost())
        .as("a 30 ms stall does not account for a frame 70 ms late")
        .isFalse();
  }

  /**
   * The thread woke for the frame's own timer and waited for a core: the ticks' gap shows only part
   * of that wait as a stall, the run queue all of it (a suite's case: 21.2 ms late, a 9.3 ms stall,
   * 15.9 ms waiting for a core of the 19.3 ms between ticks, 2.7 ms running).
   */
  @Test
  void aWaitForACoreLongerThanTheStallTheTicksSawStillAccountsForTheFrame() {
    long us = MS / 1000;
    ledger.add(emitterLoop, 490 * MS, 500 * MS, 509_300 * us, 2_700 * us, 15_900 * us, 0, 0);
    assertThat(LateFrame.of(latest(501, false), 21_200 * us, ledger).byHost()).isTrue();
    ledger.add(readerLoop, 490 * MS, 500 * MS, 509_300 * us, 15_000 * us, 4_000 * us, 0, 0);
    LateFrame.Held lab =
        LateFrame.of(new PacingAudit.Latest(0, 501 * MS, false, readerLoop), 21_200 * us, ledger);
    assertThat(lab.byHost()).as("15 ms of the lab's own code on the loop: %s", lab.why()).isFalse();
  }

  /**
   * s84: an idle emitter loop's thread slept in its poller 17 ms past its tick (the kernel woke it
   * late), then wrote its frame 23.6 ms late. Neither running nor runnable, it was the host's.
   */
  @Test
  void aLoopTheKernelWokeLateIsTheHostsAndSaysSo() {
    long us = MS / 1000;
    ledger.add(emitterLoop, 480 * MS, 490 * MS, 509_200 * us, 0, 100 * us, 0, 17_400 * us);
    LateFrame.Held held = LateFrame.of(latest(490, false), 23_620 * us, ledger);
    assertThat(held.byHost()).as(held.why()).isTrue();
    assertThat(held.why())
        .contains(
            "neither 29.1 ms, of which asleep in its poller 17.4 ms past its tick (the kernel woke it late)");
    ledger.add(readerLoop, 480 * MS, 490 * MS, 509_200 * us, 0, 100 * us, 0, 0);
    assertThat(
            LateFrame.of(
                    new PacingAudit.Latest(0, 490 * MS, false, readerLoop), 23_620 * us, ledger)
                .byHost())
        .as("the same stall, never seen in its poller: blocked by the lab's own code")
        .isFalse();
  }

  /**
   * s299: a frame 34.7 ms late on a contended host, its loop's longest stall 11.7 ms with 16.1 ms
   * of the host's in it, under half; the frame waited through more stalls of the host's, and
   * together they account for it. One of them the lab's own code, they do not.
   */
  @Test
  void aFrameThatWaitedThroughSeveralOfTheHostsStallsIsTheHosts() {
    long us = MS / 1000;
    ledger.add(emitterLoop, 488 * MS, 498 * MS, 509 * MS, 1_000 * us, 11_500 * us, 0, 0);
    ledger.add(
        emitterLoop, 510 * MS, 520 * MS, 531_700 * us, 3_200 * us, 13_500 * us, 2_600 * us, 0);
    LateFrame.Held held = LateFrame.of(latest(500, false), 34_700 * us, ledger);
    assertThat(held.byHost()).as(held.why()).isTrue();
    assertThat(held.why())
        .contains("its loop stalled 11.7 ms")
        .contains("over 2 stalls of its loop while the frame waited the host took 27.6 ms");
    LoopStallLedger labs = new LoopStallLedger(new StallLog());
    labs.add(emitterLoop, 488 * MS, 498 * MS, 509 * MS, 11_000 * us, 500 * us, 0, 0);
    labs.add(emitterLoop, 510 * MS, 520 * MS, 531_700 * us, 3_200 * us, 13_500 * us, 2_600 * us, 0);
    assertThat(LateFrame.of(latest(500, false), 34_700 * us, labs).byHost())
        .as("one of the stalls the lab's own code's")
        .isFalse();
    LoopStallLedger one = new LoopStallLedger(new StallLog());
    one.add(emitterLoop, 510 * MS, 520 * MS, 531_700 * us, 3_200 * us, 13_500 * us, 2_600 * us, 0);
    assertThat(LateFrame.of(latest(500, false), 34_700 * us, one).byHost())
        .as("that stall alone: 16.1 ms of 34.7")
        .isFalse();
  }

  @Test
  void aFrameThatWaitedForAFullSocketPointsAtThePathBehindIt() {
    ledger.add(readerLoop, 0, 500 * MS, 560 * MS, 55 * MS, 1 * MS, 0, 0);
    LateFrame.Held held = LateFrame.of(latest(505, true), 25 * MS, ledger);
    assertThat(held.byHost()).as("the reader's loop ran the lab's own code").isFalse();
    assertThat(held.why())
        .startsWith(
            " at 0.51 s into the stream, waiting for a full socket to drain: the path behind it read late "
                + "(the longest loop stall then: stalled 60.0 ms")
        .contains("ran 55.0 ms");
  }

  @Test
  void aLoopThatLoggedNoStallSaysSoAndAFrameNotLateSaysNothing() {
    LateFrame.Held held = LateFrame.of(latest(505, false), 25 * MS, ledger);
    assertThat(held.why()).isEqualTo(" at 0.51 s into the stream; its loop logged no stall then");
    assertThat(held.byHost()).isFalse();
    assertThat(LateFrame.of(null, 25 * MS, ledger)).isEqualTo(LateFrame.Held.UNKNOWN);
    assertThat(LateFrame.of(latest(505, false), 0, ledger)).isEqualTo(LateFrame.Held.UNKNOWN);
  }

  /**
   * An emitter in another process sends its own judgement with the audit: only its meter saw its
   * loops.
   */
  @Test
  void theJudgementTravelsWithTheAudit() throws Exception {
    ledger.add(emitterLoop, 490 * MS, 500 * MS, 530 * MS, 2 * MS, 30 * MS, 0, 0);
    PacingAudit.Summary s =
        new PacingAudit.Summary(
            7,
            true,
            true,
            600,
            600,
            39600,
            0,
            10_000,
            20_000,
            25 * MS,
            0,
            latest(505, false),
            null);
    String json = Json.MAPPER.writeValueAsString(s.judged(ledger));
    assertThat(Json.MAPPER.readTree(json).path("latest_held").path("by_host").asBoolean())
        .as(json)
        .isTrue();
    assertThat(Json.MAPPER.readTree(json).path("latest_held").path("why").asText())
        .contains("waited for a core 30.0 ms");
    assertThat(json).doesNotContain("stream_due_nanos");
  }
}
