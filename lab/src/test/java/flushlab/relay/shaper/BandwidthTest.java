package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import org.junit.jupiter.api.Test;

class BandwidthTest extends DelayFaultTest {
  @Test
  void eightKiBAt16KiBPerSecondTakesAboutHalfASecondInSmallReads() throws Exception {
    BatchResult r = whole(through("frames=20&size=400&interval=0ms", "bandwidth=16KiB/s"), 20);
    // ~8 KiB at 16 KiB/s: the last frame leaves ~0.5 s after the first byte (lower bound only)
    assertThat(r.emitToRecvMs().max()).isGreaterThan(350.0);
    assertThat(r.bytesPerRead().p50()).isLessThanOrEqualTo(400.0);
  }
}
