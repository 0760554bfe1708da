package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import org.junit.jupiter.api.Test;

/**
 * Each write held until the next: every frame one interval late, whatever the interval, one per
 * read, none lost.
 */
class OneLateTest extends ShaperTestBase {
  @Test
  void everyFrameWaitsOneIntervalWhateverTheInterval() throws Exception {
    BatchResult slow = whole(through(TOKENS_50MS, "one-late"), 41);
    BatchResult fast = whole(through("frames=41&size=60&interval=20ms", "one-late"), 41);
    for (BatchResult r : new BatchResult[] {slow, fast})
      assertThat(r.framesPerRead()).as(r.oneLine()).isLessThanOrEqualTo(1.05);
    // the last frame leaves with the end of the response (the emitter writes them together), so the
    // p50 is one interval
    assertThat(slow.emitToRecvMs().p50())
        .as(slow.oneLine())
        .isBetween(45.0, 50.0 + timing.notHeldMs());
    assertThat(fast.emitToRecvMs().p50())
        .as(fast.oneLine())
        .isBetween(17.0, 20.0 + timing.notHeldMs());
    // and the first frame waits for the second
    assertThat(slow.firstEmitToRecvMs().p50()).as(slow.oneLine()).isGreaterThan(45.0);
  }
}
