package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import org.junit.jupiter.api.Test;

/**
 * A load balancer's idle timeout: a think longer than it cuts the stream (an error, never a
 * measurement); a shorter one passes.
 */
class IdleTimeoutTest extends DelayFaultTest {
  @Test
  void aThinkLongerThanTheTimeoutCutsTheStreamAndAShorterOneDoesNot() throws Exception {
    BatchResult cut = through("frames=5&size=60&interval=10ms&think=600ms", "idle-timeout=250ms");
    assertThat(cut.streamsOk()).as(cut.oneLine()).isZero();
    assertThat(cut.errorCount()).isEqualTo(1);
    whole(through("frames=5&size=60&interval=10ms&think=100ms", "idle-timeout=250ms"), 5);
    // frames 100 ms apart keep a 250 ms timer from ever firing, however long the stream
    whole(through("frames=8&size=60&interval=100ms", "idle-timeout=250ms"), 8);
  }
}
