package flushlab.emitter;

import flushlab.core.FrameCodec;
import java.util.zip.CRC32C;

/**
 * flushlab's own frames: sequence, emit time, checksum, padding to an exact size. Frames larger
 * than one write buffer are written as their head, then their padding in pieces (the checksum
 * in the head already covers it).
 */
final class PlainFrameSource implements FrameSource {
  private static final byte[] NONE = new byte[0];
  private final int frames;
  private final int frameBytes;
  private final boolean whole;
  private final CRC32C crc = new CRC32C();

  PlainFrameSource(int frames, int frameBytes) {
    this(frames, frameBytes, PacedStream.MAX_WHOLE_EVENT_BYTES);
  }

  /** @param maxWholeBytes the largest event written in one piece (HTTP/2: one DATA frame's worth) */
  PlainFrameSource(int frames, int frameBytes, int maxWholeBytes) {
    this.frames = frames;
    this.frameBytes = frameBytes;
    this.whole = frameBytes <= maxWholeBytes;
  }

  @Override
  public int frames() {
    return frames;
  }

  @Override
  public int maxEventBytes() {
    return whole ? frameBytes : FrameCodec.headBytes(frames);
  }

  @Override
  public int write(int index, long emitEpochNanos, byte[] out, int off) {
    if (whole) return FrameCodec.encode(index, emitEpochNanos, frameBytes, out, off, crc);
    return FrameCodec.encodeHead(index, emitEpochNanos, frameBytes, out, off, crc);
  }

  @Override
  public long tailBytes(int index) {
    return whole ? 0 : frameBytes - FrameCodec.headBytes(index);
  }

  @Override
  public void writeTail(int index, long from, int len, byte[] out, int off) {
    FrameCodec.writeTail(index, frameBytes, from, len, out, off);
  }

  @Override
  public byte[] trailer() {
    return NONE;
  }
}
