package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import org.junit.jupiter.api.Test;

class PassthroughTest extends ShaperTestBase {
  @Test
  void streamsEachFrameOnItsOwnLikeTheDirectPath() throws Exception {
    BatchResult r = whole(through(TOKENS_50MS, "passthrough"), 41);
    assertThat(r.framesPerRead()).isLessThanOrEqualTo(1.1);
  }
}
