package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import org.junit.jupiter.api.Test;

class SlowCloseTest extends DelayFaultTest {
  @Test
  void aCloseDelimitedResponseEndsOnlyAfterTheDelay() throws Exception {
    long start = System.nanoTime();
    BatchResult r = through("frames=5&size=60&interval=1ms&transfer=close", "slow-close=500ms");
    assertThat(r.frames()).isEqualTo(5);
    assertThat((System.nanoTime() - start) / 1e6).isGreaterThan(450.0);
  }
}
