package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import org.junit.jupiter.api.Test;

class ByteThresholdTest extends ShaperTestBase {
  @Test
  void releasesAbout35SixtyByteFramesPer2KiB() throws Exception {
    // close-delimited, so a frame is exactly 60 B on the wire: 2048 / 60 -> a release every 35
    // frames
    BatchResult r =
        whole(
            through("frames=175&size=60&interval=5ms&transfer=close", "byte-threshold=2KiB"), 175);
    assertThat(r.burstFrames().p50()).isBetween(33.0, 36.0);
    assertThat(r.bytesPerRead().p50()).isBetween(2048.0, 2048.0 + 60);
  }

  /**
   * 700 B frames against 2 KiB: the threshold writes everything once 2048 B are held (three frames,
   * 2100 B); split, it writes exactly 2048 B and keeps the rest, splitting the third frame.
   */
  @Test
  void splitWritesExactlyTheBuffersSizeWhateverTheFrames() throws Exception {
    BatchResult whole =
        whole(through("frames=60&size=700&interval=5ms&transfer=close", "byte-threshold=2KiB"), 60);
    assertThat(whole.bytesPerRead().p50()).isBetween(2100.0, 2110.0); // HdrHistogram keeps 3 digits
    BatchResult split =
        whole(
            through(
                "frames=60&size=700&interval=5ms&transfer=close", "byte-threshold=2KiB,split=true"),
            60);
    assertThat(split.bytesPerRead().p50()).isBetween(2048.0, 2058.0);
  }
}
