package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import org.junit.jupiter.api.Test;

class ByteThresholdTest extends ShaperTestBase {
  @Test
  void releasesAbout35SixtyByteFramesPer2KiB() throws Exception {
    // close-delimited, so a frame is exactly 60 B on the wire: 2048 / 60 -> a release every 35 frames
    BatchResult r = whole(through("frames=175&size=60&interval=5ms&transfer=close", "byte-threshold=2KiB"), 175);
    assertThat(r.burstFrames().p50()).isBetween(33.0, 36.0);
    assertThat(r.bytesPerRead().p50()).isBetween(2048.0, 2048.0 + 60);
  }
}
