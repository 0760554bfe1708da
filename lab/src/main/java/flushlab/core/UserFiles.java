package flushlab.core;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reading a file a user named (a scenario, a template, a CA, a certificate, a key, a results file,
 * a secret): refused before any work unless it is a regular file (links followed: /dev/zero, a
 * FIFO, a folder are not), and read through a bounded read, so a file that is larger than its cap,
 * or grows past it while being read, is refused instead of exhausting memory.
 */
public final class UserFiles {
  private UserFiles() {}

  /** A file that is not one to read: the message names it, says why and what is allowed. */
  public static final class Refused extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message);
    }
  }

  /**
   * Refuses, naming {@code what}, a file that is missing or not a regular file; returns it when it
   * is one.
   */
  public static Path regular(Path file, String what) {
    if (!Files.exists(file)) throw new Refused(what + " " + file + ": no such file");
    if (!Files.isRegularFile(file)) {
      throw new Refused(
          what + " " + file + ": not a regular file (a device, a pipe or a folder is not read)");
    }
    return file;
  }

  /** The file's bytes: a regular file of at most {@code maxBytes}. */
  public static byte[] read(Path file, long maxBytes, String what) throws IOException {
    regular(file, what);
    try (InputStream in = Files.newInputStream(file)) {
      byte[] b = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
      if (b.length > maxBytes)
        throw new Refused(
            what
                + " "
                + file
                + ": larger than "
                + Units.formatBytes(maxBytes)
                + " (allowed: at most that)");
      return b;
    }
  }

  /** The file as UTF-8 text; a byte sequence that is not UTF-8 is refused with its byte offset. */
  public static String readText(Path file, long maxBytes, String what) throws IOException {
    byte[] b = read(file, maxBytes, what);
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b))
          .toString();
    } catch (CharacterCodingException e) {
      throw new Refused(what + " " + file + ": not UTF-8 text (" + notUtf8(b) + ")");
    }
  }

  /**
   * Where a byte array stops being UTF-8, as "line L, column C (byte B)"; UTF-16's byte-order mark
   * named as such.
   */
  public static String notUtf8(byte[] b) {
    if (b.length >= 2
        && ((b[0] & 0xff) == 0xfe && (b[1] & 0xff) == 0xff
            || (b[0] & 0xff) == 0xff && (b[1] & 0xff) == 0xfe)) {
      return "it starts with a UTF-16 byte-order mark at line 1, column 1; save it as UTF-8";
    }
    var decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    int line = 1;
    int column = 1;
    int i = 0;
    while (i < b.length) {
      int len = sequenceLength(b[i]);
      boolean ok = len > 0 && i + len <= b.length;
      if (ok) {
        try {
          decoder.reset().decode(ByteBuffer.wrap(b, i, len));
        } catch (CharacterCodingException e) {
          ok = false;
        }
      }
      if (!ok)
        return String.format(
            "byte 0x%02x at line %d, column %d (byte %d)", b[i] & 0xff, line, column, i);
      if (b[i] == '\n') {
        line++;
        column = 1;
      } else {
        column++;
      }
      i += len;
    }
    return "at its end";
  }

  private static int sequenceLength(byte first) {
    int f = first & 0xff;
    if (f < 0x80) return 1;
    if (f >= 0xc2 && f <= 0xdf) return 2;
    if (f >= 0xe0 && f <= 0xef) return 3;
    if (f >= 0xf0 && f <= 0xf4) return 4;
    return -1;
  }
}
