package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import org.junit.jupiter.api.Test;

class LatencyTest extends DelayFaultTest {
  @Test
  void everyFrameIsDelayedAndOrderIsKept() throws Exception {
    BatchResult r = whole(through(SHORT, "latency=100ms,jitter=20ms"), 20);
    assertThat(r.emitToRecvMs().p50()).isGreaterThan(75.0);
    assertThat(r.ttftMs().p50()).isGreaterThan(75.0);
  }
}
