package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import org.junit.jupiter.api.Test;

class StallTest extends DelayFaultTest {
  @Test
  void oneGapAsLongAsTheStall() throws Exception {
    BatchResult r = through(SHORT, "stall,for=300ms,after-bytes=600B");
    assertThat(r.frames()).isEqualTo(20);
    assertThat(r.lostFrames()).isZero();
    assertThat(r.gapMs().max()).isGreaterThan(250.0);
  }

  @Test
  void aTimedStallToo() throws Exception {
    BatchResult r = through(SHORT, "stall,for=300ms,after=50ms");
    assertThat(r.gapMs().max()).isGreaterThan(250.0);
  }
}
