package flushlab.client;

import flushlab.core.FrameCodec;
import java.util.zip.CRC32C;

/**
 * Recognises the data of one SSE event: a plain flushlab frame, an OpenAI chunk (with or without
 * flushlab's pi_seq/pi_ts), a finish chunk, or [DONE]. No allocation per event.
 */
final class FrameDecoder {
  private static final byte[] PI_SEQ = "\"pi_seq\":".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private static final byte[] PI_TS = "\"pi_ts\":".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private static final byte[] CONTENT = "\"content\":".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  private final CRC32C crc = new CRC32C();
  private final FrameCodec.Decoded decoded = new FrameCodec.Decoded();
  long seq;
  long emitEpochNanos;

  FrameKind decode(byte[] data, int len) {
    if (len == 0) return FrameKind.CONTROL;
    byte first = data[0];
    if (first >= '0' && first <= '9') {
      FrameCodec.decode(data, 0, len, decoded, crc);
      if (!decoded.valid) return FrameKind.CORRUPT;
      seq = decoded.seq;
      emitEpochNanos = decoded.emitEpochNanos;
      return FrameKind.FRAME;
    }
    if (first == '[' && len == 6 && data[1] == 'D' && data[2] == 'O' && data[3] == 'N' && data[4] == 'E' && data[5] == ']') {
      return FrameKind.DONE;
    }
    if (first == '{') {
      long s = numberAfter(data, len, PI_SEQ);
      long t = numberAfter(data, len, PI_TS);
      if (s >= 0 && t >= 0) {
        seq = s;
        emitEpochNanos = t;
        return FrameKind.FRAME;
      }
      if (s >= 0 || t >= 0) return FrameKind.CORRUPT; // one of the pair is missing or mangled
      return indexOf(data, len, CONTENT) >= 0 ? FrameKind.UNCHECKED_FRAME : FrameKind.CONTROL;
    }
    return FrameKind.CORRUPT;
  }

  /** The non-negative integer right after key (whitespace allowed), or -1. */
  private static long numberAfter(byte[] data, int len, byte[] key) {
    int at = indexOf(data, len, key);
    if (at < 0) return -1;
    int p = at + key.length;
    while (p < len && data[p] == ' ') p++;
    long v = 0;
    int start = p;
    while (p < len && data[p] >= '0' && data[p] <= '9' && p - start < 19) {
      v = v * 10 + (data[p++] - '0');
    }
    return p == start ? -1 : v;
  }

  private static int indexOf(byte[] data, int len, byte[] key) {
    outer:
    for (int i = 0; i + key.length <= len; i++) {
      for (int j = 0; j < key.length; j++) {
        if (data[i + j] != key[j]) continue outer;
      }
      return i;
    }
    return -1;
  }
}
