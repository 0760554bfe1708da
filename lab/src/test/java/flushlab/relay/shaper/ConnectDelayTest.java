package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import org.junit.jupiter.api.Test;

class ConnectDelayTest extends DelayFaultTest {
  @Test
  void theWholeResponseStartsLateButStreamsNormally() throws Exception {
    BatchResult r = through(SHORT, "connect-delay=300ms");
    assertThat(r.ttftMs().p50()).isGreaterThan(250.0);
    assertThat(r.framesPerRead()).isLessThan(1.5);
    assertThat(r.emitToRecvMs().p50())
        .as("once connected, frames are not held")
        .isLessThan(timing.notHeldMs());
  }
}
