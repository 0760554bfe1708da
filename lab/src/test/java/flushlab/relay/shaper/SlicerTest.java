package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import org.junit.jupiter.api.Test;

class SlicerTest extends DelayFaultTest {
  @Test
  void piecesArriveSeparatelyAndFramesSurvive() throws Exception {
    BatchResult r = whole(through("frames=20&size=100&interval=5ms", "slicer=7B,delay=1ms"), 20);
    assertThat(r.bytesPerRead().p50()).isLessThanOrEqualTo(14.0);
  }
}
