package flushlab.emitter;

import flushlab.core.FrameCodec;
import java.util.zip.CRC32C;

/** flushlab's own frames: sequence, emit time, checksum, padding to an exact size. */
final class PlainFrameSource implements FrameSource {
  private static final byte[] NONE = new byte[0];
  private final int frames;
  private final int frameBytes;
  private final CRC32C crc = new CRC32C();

  PlainFrameSource(int frames, int frameBytes) {
    this.frames = frames;
    this.frameBytes = frameBytes;
  }

  @Override
  public int frames() {
    return frames;
  }

  @Override
  public int maxEventBytes() {
    return frameBytes;
  }

  @Override
  public int write(int index, long emitEpochNanos, byte[] out, int off) {
    return FrameCodec.encode(index, emitEpochNanos, frameBytes, out, off, crc);
  }

  @Override
  public byte[] trailer() {
    return NONE;
  }
}
