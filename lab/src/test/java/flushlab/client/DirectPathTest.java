package flushlab.client;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.LabTest;
import org.junit.jupiter.api.Test;

/** The direct loopback path is the instrument's noise floor: one frame per read, nothing lost. */
class DirectPathTest extends LabTest {

  @Test
  void direct41FramesOf60BytesAt50msArriveOnePerRead() throws Exception {
    BatchResult r =
        lab.measurePaced(
            50_000_000L,
            RequestPlan.get(lab.sseUrl("frames=41&size=60&interval=50ms")),
            ClientOptions.single());
    System.out.println("direct: " + r.oneLine());
    assertThat(r.errorCount()).isZero();
    assertThat(r.frames()).isEqualTo(41);
    assertThat(r.lostFrames()).isZero();
    assertThat(r.corruptFrames()).isZero();
    assertThat(r.framesPerRead()).isLessThanOrEqualTo(1.05);
    // bytes per read: a frame is 60 B plus chunk framing; a merged read would be twice that
    assertThat(r.bytesPerRead().p50()).isLessThan(120);
  }

  @Test
  void closeDelimitedBodyIsMeasuredToo() throws Exception {
    BatchResult r = lab.measure(lab.sseUrl("frames=10&size=100&interval=5ms&transfer=close"));
    assertThat(r.errorCount()).isZero();
    assertThat(r.frames()).isEqualTo(10);
    assertThat(r.lostFrames()).isZero();
  }
}
