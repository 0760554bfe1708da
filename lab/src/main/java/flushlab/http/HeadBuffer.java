package flushlab.http;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.regex.Pattern;

/** Collects the bytes of a request or response head up to its blank line, under a cap. */
final class HeadBuffer {
  static final int MAX_HEAD_BYTES = 64 * 1024;
  private byte[] bytes = new byte[1024];
  private int length;

  /**
   * Appends bytes until the head ends. Returns how many of the given bytes belong to the head, or
   * -1-consumed when the head is complete after consuming that many.
   */
  int append(byte[] b, int off, int len) {
    for (int i = 0; i < len; i++) {
      if (length == bytes.length) {
        if (length >= MAX_HEAD_BYTES) {
          throw new HttpParseException("head larger than " + MAX_HEAD_BYTES + " bytes", false);
        }
        bytes = Arrays.copyOf(bytes, Math.min(MAX_HEAD_BYTES, length * 2));
      }
      byte c = b[off + i];
      bytes[length++] = c;
      if (c == '\n' && endsHead()) {
        return -1 - (i + 1);
      }
    }
    return len;
  }

  private boolean endsHead() {
    if (length >= 2 && bytes[length - 2] == '\n') return true;
    return length >= 4
        && bytes[length - 2] == '\r'
        && bytes[length - 3] == '\n'
        && bytes[length - 4] == '\r';
  }

  int length() {
    return length;
  }

  byte byteAt(int i) {
    return bytes[i];
  }

  /** Compiled once: String.split with this two-character pattern compiles a regex per head. */
  private static final Pattern LINE_END = Pattern.compile("\r?\n");

  String[] lines() {
    String text = new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
    return LINE_END.split(text);
  }

  void reset() {
    length = 0;
  }
}
