package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

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

  @Test
  void periodicModeFlushesOnAFixedClock() throws Exception {
    BatchResult r = whole(through(TOKENS_50MS, "timer=200ms,periodic=true"), 41);
    assertThat(r.framesPerRead()).isBetween(3.0, 5.5);
  }
}
