package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EvidenceLineTest {
  /** A held cell's line reads back as the figures it printed, and prints as the same line. */
  @Test
  void aHeldCellsLineReadsBackAsTheCellItDescribes() {
    String line =
        "frame_size=60B interval=2ms frames=600: 75.00 frames/read; 6.0 releases per stream of 60"
            + " frames (p50); the oldest frame waited 178.5 ms (p10 177.4, p90 209.0); 150.2 ms"
            + " between releases (p10 150.2, p90 150.5); 17 B per frame on the wire, 1037 B per"
            + " release (p10 1012, p90 1542); the first frame waited 149.4 ms (gzip: compressed"
            + " bytes as received)";
    CellEvidence c = EvidenceLine.parse(line);
    assertThat(c.bodyBytes()).isEqualTo(60);
    assertThat(c.intervalMs()).isEqualTo(2);
    assertThat(c.framesPerStream()).isEqualTo(600);
    assertThat(c.waitP90()).isEqualTo(209.0);
    assertThat(c.gapP10()).isEqualTo(150.2);
    assertThat(c.releaseBytesP10()).isEqualTo(1012);
    assertThat(c.coding()).isEqualTo("gzip");
    assertThat(c.describe()).isEqualTo(line);
  }

  /** The frames a release carried, where the client counted them, read back as counted. */
  @Test
  void theFewestAndMostFramesAReleaseCountedReadBack() {
    String line =
        "frame_size=60B interval=50ms frames=25: 4.17 frames/read; 4.0 releases per stream of 5"
            + " frames (p10 4, p90 5); the oldest frame waited 248.8 ms (p10 232.1, p90 265.4);"
            + " 233.3 ms between releases (p10 233.3, p90 233.4); 32 B per frame on the wire, 186 B"
            + " per release (p10 154, p90 192); the first frame waited 232.3 ms (gzip: compressed"
            + " bytes as received)";
    CellEvidence c = EvidenceLine.parse(line);
    assertThat(c.releaseFramesP10()).isEqualTo(4);
    assertThat(c.releaseFramesP90()).isEqualTo(5);
    assertThat(c.describe()).isEqualTo(line);
  }

  @Test
  void aLineOfAnotherShapeIsRefusedNamingIt() {
    assertThatThrownBy(() -> EvidenceLine.parse("frame_size=60B interval=2ms: drained"))
        .hasMessageContaining("not a held cell's evidence line: frame_size=60B");
  }
}
