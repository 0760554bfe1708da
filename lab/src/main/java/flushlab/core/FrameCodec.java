package flushlab.core;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The wire format of a plain flushlab SSE frame, exactly {@code size} bytes on the wire:
 *
 * <pre>data: SEQ EMITNS CRC PAD\n\n</pre>
 *
 * SEQ is the decimal sequence number, EMITNS the emit time in epoch nanoseconds (19 digits), CRC
 * the CRC32C (8 lowercase hex digits) of "SEQ EMITNS PAD", and PAD lowercase letters that depend on
 * SEQ, so corrupted padding is caught too. A 60-byte token-sized frame carries all of it: the fixed
 * part is 38 bytes plus the digits of SEQ.
 */
public final class FrameCodec {
  private FrameCodec() {}

  private static final byte[] PREFIX = "data: ".getBytes(StandardCharsets.US_ASCII);

  /** The smallest frame any sequence number up to 10 digits fits in. */
  public static final int MIN_FRAME_BYTES = 48;

  /** Bytes the frame needs without padding. */
  public static int fixedBytes(long seq) {
    return PREFIX.length + digits(seq) + 1 + 19 + 1 + 8 + 1 + 2;
  }

  /**
   * Writes frame {@code seq} of exactly {@code size} bytes into {@code out} at {@code off}. Returns
   * the bytes written (== size). The caller guarantees size >= fixedBytes(seq).
   */
  public static int encode(
      long seq, long emitEpochNanos, int size, byte[] out, int off, CRC32C crc) {
    int pad = size - fixedBytes(seq);
    if (pad < 0) {
      throw new IllegalArgumentException("frame size " + size + " B is too small for seq " + seq);
    }
    int p = writeHeadFields(seq, emitEpochNanos, out, off);
    int padStart = p;
    writePadding(seq, 0, pad, out, p);
    p += pad;
    crcOverFields(out, off, crc);
    crc.update(out, padStart, pad);
    writeHex8((int) crc.getValue(), out, crcSlot(padStart));
    out[p++] = '\n';
    out[p++] = '\n';
    return p - off;
  }

  /**
   * Writes only the head of frame {@code seq} ("data: SEQ EMITNS CRC "), for a frame too large to
   * build in one buffer: its checksum already covers the padding that {@link #writeTail} produces
   * afterwards, piece by piece. Returns the bytes written; the frame's remaining {@code size -
   * headBytes} bytes are its tail.
   */
  public static int encodeHead(
      long seq, long emitEpochNanos, long size, byte[] out, int off, CRC32C crc) {
    long pad = size - fixedBytes(seq);
    if (pad < 0) {
      throw new IllegalArgumentException("frame size " + size + " B is too small for seq " + seq);
    }
    int p = writeHeadFields(seq, emitEpochNanos, out, off);
    crcOverFields(out, off, crc);
    for (long done = 0; done < pad; ) {
      int n = (int) Math.min(PATTERN_PIECE, pad - done);
      crc.update(PATTERN, (int) ((seq + done) % 26), n);
      done += n;
    }
    writeHex8((int) crc.getValue(), out, crcSlot(p));
    return p - off;
  }

  /**
   * Writes bytes [from, from + len) of frame seq's tail (its padding, then the blank line) into
   * out.
   */
  public static void writeTail(long seq, long size, long from, int len, byte[] out, int off) {
    long pad = size - fixedBytes(seq);
    int n = (int) Math.max(0, Math.min(len, pad - from));
    if (n > 0) writePadding(seq, from, n, out, off);
    for (int i = n; i < len; i++) out[off + i] = '\n';
  }

  /** Head bytes of a frame whose tail is written separately (the same for every size). */
  public static int headBytes(long seq) {
    return fixedBytes(seq) - 2;
  }

  /** The padding repeats every 26 bytes; a copy long enough for any piece, at any phase. */
  private static final int PATTERN_PIECE = 64 * 1024;

  private static final byte[] PATTERN = new byte[PATTERN_PIECE + 26];

  static {
    for (int i = 0; i < PATTERN.length; i++) PATTERN[i] = (byte) ('a' + i % 26);
  }

  private static void writePadding(long seq, long from, int n, byte[] out, int off) {
    int phase = (int) ((seq + from) % 26);
    for (int done = 0; done < n; ) {
      int k = Math.min(PATTERN_PIECE, n - done);
      System.arraycopy(PATTERN, phase, out, off + done, k);
      done += k;
      phase = (int) ((seq + from + done) % 26);
    }
  }

  /** "data: SEQ EMITNS ________ " with the checksum slot left blank; returns the end. */
  private static int writeHeadFields(long seq, long emitEpochNanos, byte[] out, int off) {
    int p = off;
    System.arraycopy(PREFIX, 0, out, p, PREFIX.length);
    p += PREFIX.length;
    p = writeDecimal(seq, out, p);
    out[p++] = ' ';
    p = writeDecimalFixed19(emitEpochNanos, out, p);
    out[p++] = ' ';
    p += 8;
    out[p++] = ' ';
    return p;
  }

  /** Starts the checksum: "SEQ EMITNS" then one space (the padding follows). */
  private static void crcOverFields(byte[] out, int off, CRC32C crc) {
    int seqStart = off + PREFIX.length;
    int tsEnd = seqStart;
    while (out[tsEnd] != ' ') tsEnd++;
    tsEnd += 1 + 19;
    crc.reset();
    crc.update(out, seqStart, tsEnd - seqStart);
    crc.update(' ');
  }

  /**
   * Where the 8 checksum digits go, given the end of the head ("… CRC " ends 9 bytes after it
   * starts).
   */
  private static int crcSlot(int headEnd) {
    return headEnd - 9;
  }

  /** What {@link #decode} found; reused by the caller so the per-frame path allocates nothing. */
  public static final class Decoded {
    public long seq;
    public long emitEpochNanos;
    public boolean valid;
  }

  /**
   * Decodes the data value of one event ("SEQ EMITNS CRC PAD", without "data: " and the blank line)
   * and checks its checksum. Sets {@code valid=false} on any malformation.
   */
  public static void decode(byte[] buf, int off, int len, Decoded into, CRC32C crc) {
    into.valid = false;
    int end = off + len;
    int p = off;
    int seqStart = p;
    long seq = 0;
    while (p < end && buf[p] >= '0' && buf[p] <= '9' && p - seqStart < 18) {
      seq = seq * 10 + (buf[p++] - '0');
    }
    if (p == seqStart || p >= end || buf[p] != ' ') return;
    p++;
    int tsStart = p;
    long ts = 0;
    while (p < end && buf[p] >= '0' && buf[p] <= '9' && p - tsStart < 19) {
      ts = ts * 10 + (buf[p++] - '0');
    }
    if (p - tsStart != 19 || p >= end || buf[p] != ' ') return;
    int tsEnd = p;
    p++;
    if (end - p < 9) return;
    int expected = 0;
    for (int i = 0; i < 8; i++) {
      int v = hexValue(buf[p++]);
      if (v < 0) return;
      expected = (expected << 4) | v;
    }
    if (buf[p] != ' ') return;
    p++;
    int padStart = p;
    crc.reset();
    crc.update(buf, seqStart, tsEnd - seqStart);
    crc.update(' ');
    crc.update(buf, padStart, end - padStart);
    into.seq = seq;
    into.emitEpochNanos = ts;
    into.valid = (int) crc.getValue() == expected;
  }

  static int digits(long v) {
    int d = 1;
    while (v >= 10) {
      v /= 10;
      d++;
    }
    return d;
  }

  private static int writeDecimal(long v, byte[] out, int p) {
    int d = digits(v);
    for (int i = d - 1; i >= 0; i--) {
      out[p + i] = (byte) ('0' + (v % 10));
      v /= 10;
    }
    return p + d;
  }

  private static int writeDecimalFixed19(long v, byte[] out, int p) {
    for (int i = 18; i >= 0; i--) {
      out[p + i] = (byte) ('0' + (v % 10));
      v /= 10;
    }
    return p + 19;
  }

  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  private static void writeHex8(int v, byte[] out, int p) {
    for (int i = 7; i >= 0; i--) {
      out[p + i] = HEX[v & 0xf];
      v >>>= 4;
    }
  }

  private static int hexValue(byte b) {
    if (b >= '0' && b <= '9') return b - '0';
    if (b >= 'a' && b <= 'f') return b - 'a' + 10;
    return -1;
  }
}
