package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import org.junit.jupiter.api.Test;

class CorkTest extends ShaperTestBase {
  /** Linux's TCP_CORK ceiling: a partial segment leaves after 200 ms. */
  static final double CORK_CEILING_MS = 200;

  @Test
  void theKernelHoldsTheFirstFrameAbout200msAndReleasesSeveralPerRead() throws Exception {
    BatchResult direct = direct(TOKENS_50MS);
    BatchResult r = through(TOKENS_50MS, "cork");
    assertThat(r.errorCount()).isZero();
    assertThat(r.frames()).isEqualTo(41);
    assertThat(r.framesPerRead()).isGreaterThan(3.0);
    // Linux releases a corked partial segment after ~200 ms: the first frame waits about that.
    assertThat(r.ttftMs().p50())
        .isGreaterThan(0.75 * CORK_CEILING_MS)
        .isGreaterThan(direct.ttftMs().p50() + CORK_CEILING_MS / 2);
    assertThat(r.gapMs().max()).isGreaterThan(0.75 * CORK_CEILING_MS);
  }

  @Test
  void aFullSegmentIsNotHeld() throws Exception {
    // 64 KiB frames are larger than a loopback segment: full segments leave at once even while
    // corked, and a frame's partial tail is pushed out by the next frame 20 ms later.
    BatchResult r = through("frames=10&size=64KiB&interval=20ms", "cork");
    assertThat(r.frames()).isEqualTo(10);
    assertThat(r.ttftMs().p50())
        .as("not held to the cork's ceiling")
        .isLessThan(0.75 * CORK_CEILING_MS);
  }
}
