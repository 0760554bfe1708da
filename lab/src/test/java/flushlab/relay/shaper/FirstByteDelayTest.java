package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import org.junit.jupiter.api.Test;

class FirstByteDelayTest extends DelayFaultTest {
  @Test
  void theFirstFrameWaitsAndTheFramesBehindItBunch() throws Exception {
    BatchResult r = through(SHORT, "first-byte-delay=300ms");
    assertThat(r.ttftMs().p50()).isGreaterThan(250.0);
    // every frame that arrived during the delay queued behind the first and left right after it:
    // gaps near zero instead of the 10 ms interval
    assertThat(r.gapMs().p50())
        .as("gaps, against the %.0f ms interval", INTERVAL_MS)
        .isLessThan(INTERVAL_MS / 2);
  }
}
