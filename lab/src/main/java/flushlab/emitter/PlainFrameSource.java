package flushlab.emitter;

import flushlab.core.FrameCodec;
import flushlab.stream.MediaTypes;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * flushlab's own frames: sequence, emit time, checksum, padding to an exact size. Frames larger
 * than one write buffer are written as their head, then their padding in pieces (the checksum in
 * the head already covers it).
 */
final class PlainFrameSource implements FrameSource {
  private static final byte[] NONE = new byte[0];
  private final int frames;
  private final int frameBytes;
  private final boolean whole;

  /**
   * Each frame a JSON line, {"data":"SEQ EMITNS CRC PAD"}, for a body labelled
   * application/x-ndjson.
   */
  private final boolean ndjson;

  private static final byte[] LINE_OPEN = "{\"data\":\"".getBytes(StandardCharsets.US_ASCII);
  private final CRC32C crc = new CRC32C();

  PlainFrameSource(int frames, int frameBytes) {
    this(frames, frameBytes, PacedStream.MAX_WHOLE_EVENT_BYTES);
  }

  /**
   * @param maxWholeBytes the largest event written in one piece (HTTP/2: one DATA frame's worth)
   */
  PlainFrameSource(int frames, int frameBytes, int maxWholeBytes) {
    this(frames, frameBytes, maxWholeBytes, false);
  }

  /**
   * @param ndjson one JSON line per frame (the stream spec keeps such frames small enough to be
   *     written whole)
   */
  PlainFrameSource(int frames, int frameBytes, int maxWholeBytes, boolean ndjson) {
    this.frames = frames;
    this.frameBytes = frameBytes;
    this.whole = frameBytes <= maxWholeBytes;
    this.ndjson = ndjson;
    if (ndjson && !whole)
      throw new IllegalArgumentException(
          "an NDJSON frame of " + frameBytes + " B is not written whole");
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
    if (ndjson) {
      // the SSE frame four bytes shorter, re-wrapped: "data: P\n\n" becomes {"data":"P"}\n, exactly
      // frameBytes
      int n =
          FrameCodec.encode(
              index, emitEpochNanos, frameBytes - MediaTypes.NDJSON_EXTRA_BYTES, out, off, crc);
      int payload = n - 8;
      System.arraycopy(out, off + 6, out, off + LINE_OPEN.length, payload);
      System.arraycopy(LINE_OPEN, 0, out, off, LINE_OPEN.length);
      int end = off + LINE_OPEN.length + payload;
      out[end] = '"';
      out[end + 1] = '}';
      out[end + 2] = '\n';
      return end + 3 - off;
    }
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
