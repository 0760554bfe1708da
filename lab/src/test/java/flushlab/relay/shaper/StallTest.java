package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import org.junit.jupiter.api.Test;

class StallTest extends DelayFaultTest {
  @Test
  void oneGapAsLongAsTheStall() throws Exception {
    BatchResult r = whole(through(SHORT, "stall,for=300ms,after-bytes=600B"), 20);
    assertThat(r.gapMs().max()).isGreaterThan(250.0);
  }

  @Test
  void aTimedStallToo() throws Exception {
    BatchResult r = whole(through(SHORT, "stall,for=300ms,after=50ms"), 20);
    assertThat(r.gapMs().max()).isGreaterThan(250.0);
  }
}
