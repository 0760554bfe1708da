package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A buffer written N bytes at a time sends N bytes a write at every frame size; two buffers in
 * series send whole frames. The cells are those a fresh-clone suite (s234, seed 8051384870664)
 * measured through `byte-threshold=4307B -> byte-threshold=7582B`, which the map answered as one
 * split buffer of 8712 B, its replay verifying it.
 */
class SplitBufferFitTest {
  static final List<CellEvidence> TWO_BUFFERS_IN_SERIES =
      EvidenceLine.parseAll(
          "frame_size=60B interval=2ms frames=600: 120.00 frames/read; 3.0 releases per stream of 132 frames (p10 132, p90 132); the oldest frame waited 262.2 ms (p10 262.1, p90 262.2); 264.1 ms between releases (p10 263.2, p90 264.1); 66 B per frame on the wire, 8719 B per release (p10 8719, p90 8719); the first frame waited 259.1 ms",
          "frame_size=4096B interval=2ms frames=600: 2.01 frames/read; 294.0 releases per stream of 2 frames (p10 2, p90 2); the oldest frame waited 2.1 ms (p10 2.0, p90 2.2); 4.0 ms between releases (p10 3.9, p90 4.2); 4104 B per frame on the wire, 8215 B per release (p10 8215, p90 8215); the first frame waited 2.1 ms");

  @Test
  void wholeFramesOfTwoSizesWeighingSixPercentApartAreNoSplitBuffer() {
    List<String> evidence = new ArrayList<>();
    assertThat(SplitBufferFit.fit(TWO_BUFFERS_IN_SERIES, evidence)).isNull();
    assertThat(evidence).isEmpty();
  }

  /** The same cells, the large frames' releases weighing what the small ones' do, are one. */
  @Test
  void releasesOfOneWeightAtBothSizesAreASplitBuffer() {
    CellEvidence large = TWO_BUFFERS_IN_SERIES.get(1);
    List<CellEvidence> split =
        EvidenceLine.parseAll(
            "frame_size=60B interval=2ms frames=600: 120.00 frames/read; 3.0 releases per stream of 132 frames (p10 132, p90 132); the oldest frame waited 262.2 ms (p10 262.1, p90 262.2); 264.1 ms between releases (p10 263.2, p90 264.1); 66 B per frame on the wire, 8719 B per release (p10 8719, p90 8719); the first frame waited 259.1 ms",
            "frame_size=4096B interval=2ms frames=600: 2.12 frames/read; 277.0 releases per stream of 2 frames (p10 2, p90 3); the oldest frame waited 4.1 ms (p10 2.0, p90 4.2); 4.2 ms between releases (p10 3.9, p90 6.2); 4104 B per frame on the wire, 8719 B per release (p10 8719, p90 8719); the first frame waited 4.1 ms");
    assertThat(split.get(1).frameBytes()).isEqualTo(large.frameBytes());
    Span n = SplitBufferFit.fit(split, new ArrayList<>());
    assertThat(n).isNotNull();
    assertThat(n.mid()).isBetween(8600.0, 8800.0);
  }
}
