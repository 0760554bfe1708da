package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.coding.ContentCoding;
import org.junit.jupiter.api.Test;

/**
 * The lab's own encoder's bytes by cadence, against what `flushlab map --shape
 * 'compress=gzip,flush=input,bytes=6089B' --shape byte-threshold=2495B` read as a client that
 * accepts gzip (2026-12-06): 4 KiB frames flushed every two reached it as 49 B a frame on the wire
 * (2585 B a release of 50), 60 B frames flushed every 102 as 3291 B for the first 204.
 */
class EncoderSizesTest {
  private static double perFrame(int frameBytes, int frames, int k) {
    double s = 0;
    for (double x : EncoderSizes.flushes(ContentCoding.GZIP, frameBytes, frames, k)) s += x;
    return s / frames;
  }

  @Test
  void aFlushEveryFrameWeighsMoreAFrameThanOneEveryTwo() {
    double each = perFrame(4096, 600, 1);
    double everyTwo = perFrame(4096, 600, 2);
    assertThat(everyTwo)
        .as("every two, as the relay sent them")
        .isBetween(49.0 * 0.95, 51.7 * 1.05);
    assertThat(each).as("each frame").isGreaterThan(everyTwo * 1.25);
  }

  @Test
  void theFirstFlushesCarryTheHeaderAndAColdWindowAsAStreamsDo() {
    double[] f = EncoderSizes.flushes(ContentCoding.GZIP, 60, 600, 102);
    assertThat(f).hasSize(6);
    assertThat(f[0] + f[1])
        .as("the first release, two flushes")
        .isBetween(3291 * 0.95, 3291 * 1.05);
    assertThat(f[0]).isGreaterThan(f[2]);
  }

  @Test
  void aCellOfAnEncoderUnlikeTheLabsKeepsItsOwnBytes() {
    CellEvidence lab =
        EvidenceLine.parse(
            "frame_size=4096B interval=2ms frames=600: 46.15 frames/read; 11.0 releases per stream of 50 frames (p10 50, p90 50); the oldest frame waited 98.1 ms (p10 98.1, p90 98.2); 100.1 ms between releases (p10 99.9, p90 100.1); 49 B per frame on the wire, 2585 B per release (p10 2577, p90 2589); the first frame waited 86.2 ms (gzip: compressed bytes as received)");
    double[] at4031 = EncoderSizes.behindAnInputFlush(lab, 4031, lab.frameBytes());
    assertThat(at4031).as("a flush every frame").hasSize(600);
    assertThat(at4031[5]).isGreaterThan(60);
    assertThat(EncoderSizes.behindAnInputFlush(lab, 6089, lab.frameBytes())).hasSize(300);
    assertThat(EncoderSizes.behindAnInputFlush(lab, 6089, 400))
        .as("400 B a frame no cadence of the lab's encoder makes")
        .isNull();
  }
}
