package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import org.junit.jupiter.api.Test;

class ThresholdOrTimerTest extends ShaperTestBase {
  @Test
  void theTimerWinsForSlowSmallFramesAndTheThresholdForFastBigOnes() throws Exception {
    double timerMs = 200;
    BatchResult slowSmall = through(TOKENS_50MS, "threshold-or-timer,bytes=4KiB,after=200ms");
    assertThat(slowSmall.framesPerRead()).isBetween(3.5, 5.5);
    // 1 KiB frames every 5 ms: 4 KiB fill in ~20 ms, long before 200 ms
    BatchResult fastBig =
        through(
            "frames=40&size=1KiB&interval=5ms&transfer=close",
            "threshold-or-timer,bytes=4KiB,after=200ms");
    assertThat(fastBig.burstFrames().p50()).isBetween(3.0, 5.0);
    assertThat(fastBig.gapMs().max())
        .as("the %.0f ms timer never had to fire", timerMs)
        .isLessThan(0.75 * timerMs);
  }
}
