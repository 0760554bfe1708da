package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import org.junit.jupiter.api.Test;

class PassthroughTest extends ShaperTestBase {
  @Test
  void streamsEachFrameOnItsOwnLikeTheDirectPath() throws Exception {
    BatchResult r = through(TOKENS_50MS, "passthrough");
    assertThat(r.errorCount()).isZero();
    assertThat(r.frames()).isEqualTo(41);
    assertThat(r.framesPerRead()).isLessThanOrEqualTo(1.1);
    assertThat(r.lostFrames()).isZero();
  }
}
