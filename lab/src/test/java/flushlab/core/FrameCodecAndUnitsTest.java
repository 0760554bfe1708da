package flushlab.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class FrameCodecAndUnitsTest {
  private final CRC32C crc = new CRC32C();

  @Test
  void aTokenSized60ByteFrameCarriesSeqTimeAndChecksum() {
    byte[] out = new byte[60];
    long ts = LabClock.epochNanos();
    assertThat(FrameCodec.encode(123456, ts, 60, out, 0, crc)).isEqualTo(60);
    assertThat(new String(out, 0, 6)).isEqualTo("data: ");
    assertThat(out[58]).isEqualTo((byte) '\n');
    assertThat(out[59]).isEqualTo((byte) '\n');
    FrameCodec.Decoded d = new FrameCodec.Decoded();
    FrameCodec.decode(out, 6, 52, d, crc);
    assertThat(d.valid).isTrue();
    assertThat(d.seq).isEqualTo(123456);
    assertThat(d.emitEpochNanos).isEqualTo(ts);
  }

  @Test
  void anyFlippedByteOfTheDataIsDetected() {
    byte[] out = new byte[100];
    FrameCodec.encode(7, LabClock.epochNanos(), 100, out, 0, crc);
    FrameCodec.Decoded d = new FrameCodec.Decoded();
    for (int i = 6; i < 98; i++) {
      byte[] copy = out.clone();
      copy[i] ^= 0x01;
      FrameCodec.decode(copy, 6, 92, d, crc);
      assertThat(d.valid).as("byte %d flipped", i).isFalse();
    }
  }

  @Test
  void unitsNeedTheirUnit() {
    assertThat(Units.parseDurationNanos("1.5ms")).isEqualTo(1_500_000);
    assertThat(Units.parseDurationNanos("2s")).isEqualTo(2_000_000_000L);
    assertThat(Units.parseBytes("2KiB")).isEqualTo(2048);
    assertThat(Units.parseBytes("1KB")).isEqualTo(1000);
    assertThat(Units.parseBytesPerSecond("64KiB/s")).isEqualTo(65536);
    assertThatThrownBy(() -> Units.parseDurationNanos("200")).hasMessageContaining("ms");
    assertThatThrownBy(() -> Units.parseBytes("2KiBs")).hasMessageContaining("KiB");
    assertThatThrownBy(() -> Units.parseBytes("-3B")).hasMessageContaining("negative");
  }
}
