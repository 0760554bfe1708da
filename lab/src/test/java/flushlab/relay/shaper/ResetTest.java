package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import org.junit.jupiter.api.Test;

/** Breaking faults: the client reports them as errors, not as measurements. */
class ResetTest extends ShaperTestBase {
  @Test
  void aResetAfterBytesIsReportedAsAReset() throws Exception {
    BatchResult r = through("frames=20&size=60&interval=10ms", "reset,after-bytes=600B");
    failedAs(r, "reset");
    assertThat(r.frames()).isZero();
  }

  @Test
  void aTimedResetToo() throws Exception {
    failedAs(through("frames=20&size=60&interval=10ms", "reset,after=50ms"), "reset");
  }
}
