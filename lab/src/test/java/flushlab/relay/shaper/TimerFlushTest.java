package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.HostStalls;
import flushlab.client.BatchResult;
import org.junit.jupiter.api.Test;

class TimerFlushTest extends ShaperTestBase {
  @Test
  void releasesFourOrFiveFramesEvery200ms() throws Exception {
    BatchResult r = whole(through(TOKENS_50MS, "timer=200ms"), 41);
    assertThat(r.framesPerRead()).isBetween(3.5, 5.5);
    // the gaps that are not zero sit near the timer (tolerance: scheduling on a shared host)
    assertThat(r.gapMs().p99()).isBetween(150.0, 300.0);
    assertThat(r.ttftMs().p50()).isGreaterThan(150.0);
  }

  /**
   * A release over 512 KiB leaves on the hold like a small one: under Netty 4.2's adaptive
   * allocator each stream's first such release left about 28 ms late (299 ms behind a 270 ms hold,
   * every later release on time), and a map fitted that to a model with a longer hold
   * (flushlab.cli.Main chooses the pooled allocator since; the pom gives the tests' JVMs the same).
   * Each stream's first frame is its first release's oldest.
   */
  @Test
  void aReleaseOverHalfAMebibyteLeavesOnTheHold() throws Exception {
    long from = System.nanoTime();
    BatchResult r = whole(through("frames=300&size=4096&interval=2ms", "timer=270ms"), 300);
    double first = r.firstEmitToRecvMs().p50();
    // 135 frames of 4104 B a release: 554 KB. Late by 7 % (19 ms) and more is the allocator's
    // (25-35 ms late: 296.7 and 304.9 ms in this test), not a hold timer a busy host fired a little
    // late
    if (first > 270 * 1.07) HostStalls.skipIfBusy(from, System.nanoTime(), r.oneLine());
    assertThat(first).as(r.oneLine()).isBetween(270 * 0.99, 270 * 1.07);
  }

  @Test
  void periodicModeFlushesOnAFixedClock() throws Exception {
    BatchResult r = whole(through(TOKENS_50MS, "timer=200ms,periodic=true"), 41);
    assertThat(r.framesPerRead()).isBetween(3.0, 5.5);
  }
}
