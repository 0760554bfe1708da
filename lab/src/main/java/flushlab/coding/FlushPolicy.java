package flushlab.coding;

import flushlab.core.Units;
import java.util.Locale;

/**
 * When a compressing writer lets its output go, in the words scenarios and queries use:
 *
 * <ul>
 *   <li>{@code each}: the encoder is flushed after every write it is given (an event from the
 *       emitter, a read from upstream in the shaper), as a well-behaved SSE server does;
 *   <li>{@code none}: never flushed; output leaves only as the encoder itself releases it and at
 *       the end, as Express's {@code compression} without {@code res.flush()};
 *   <li>{@code bytes:N}: flushed after every write, but the output is sent only once N compressed
 *       bytes wait (an output buffer counted in compressed bytes);
 *   <li>{@code ms:T}: flushed T ms after the first write since the last flush (a flush timer);
 *   <li>{@code input:N}: flushed at the end of the write that brings the uncompressed bytes written
 *       since the last flush to N (a framework that flushes its encoder by input size): every
 *       release decodes to about N bytes however well they compress;
 *   <li>{@code next}: flushed just before the next write begins (a middleware that flushes what it
 *       holds when the next event is written): each write leaves one write late, the last at the
 *       end;
 *   <li>{@code end}: nothing leaves before the body ends, then all of it (a proxy that compresses
 *       the whole response once it has it, as Traffic Server's compress plugin without {@code flush
 *       true}): the client sees the head at once and the body as one drain. Held output is capped
 *       ({@link #END_HELD_CAP}); past it what is held leaves, as a full buffer's would.
 * </ul>
 *
 * @param kind which of the seven
 * @param value N bytes or T in nanoseconds; 0 for each, none, next and end
 */
public record FlushPolicy(Kind kind, long value) {
  public enum Kind {
    EACH,
    NONE,
    BYTES,
    MS,
    INPUT,
    NEXT,
    END
  }

  public static final FlushPolicy EACH = new FlushPolicy(Kind.EACH, 0);
  public static final FlushPolicy NONE = new FlushPolicy(Kind.NONE, 0);
  public static final FlushPolicy NEXT = new FlushPolicy(Kind.NEXT, 0);
  public static final FlushPolicy END = new FlushPolicy(Kind.END, 0);

  /**
   * The most compressed bytes {@code end} holds before they leave: 16 MiB, a holding shaper's
   * default cap.
   */
  public static final int END_HELD_CAP = 16 << 20;

  public static final long MAX_BYTES = 64L * 1024 * 1024;
  public static final long MAX_NANOS = 60_000_000_000L;
  public static final String VALID =
      "each, none, next, end, bytes:N or input:N (1 B .. 64 MiB, e.g. bytes:4KiB) or ms:T (e.g. ms:200; up "
          + "to 60 s)";

  public FlushPolicy {
    if (kind == Kind.BYTES && (value < 1 || value > MAX_BYTES))
      throw new IllegalArgumentException("bytes:N out of range: " + value);
    if (kind == Kind.INPUT && (value < 1 || value > MAX_BYTES))
      throw new IllegalArgumentException("input:N out of range: " + value);
    if (kind == Kind.MS && (value < 1_000_000L || value > MAX_NANOS))
      throw new IllegalArgumentException("ms:T out of range: " + value);
  }

  public static FlushPolicy bytes(long n) {
    return new FlushPolicy(Kind.BYTES, n);
  }

  /** Flushed once N uncompressed bytes were written since the last flush. */
  public static FlushPolicy input(long n) {
    return new FlushPolicy(Kind.INPUT, n);
  }

  public static FlushPolicy millis(long ms) {
    return new FlushPolicy(Kind.MS, ms * 1_000_000L);
  }

  /**
   * Reads each, none, next, end, bytes:N, input:N or ms:T; anything else is refused with what is
   * valid.
   */
  public static FlushPolicy parse(String text) {
    String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    try {
      if (t.equals("each")) return EACH;
      if (t.equals("none")) return NONE;
      if (t.equals("next")) return NEXT;
      if (t.equals("end")) return END;
      if (t.startsWith("input:")) return input(Units.parseBytes(bare(t.substring(6), "B")));
      if (t.startsWith("bytes:")) return bytes(Units.parseBytes(bare(t.substring(6), "B")));
      if (t.startsWith("ms:"))
        return new FlushPolicy(Kind.MS, Units.parseDurationNanos(bare(t.substring(3), "ms")));
    } catch (IllegalArgumentException e) {
      // falls through to the one message
    }
    throw new IllegalArgumentException(
        "'" + text + "' is not a flush policy (valid: " + VALID + ")");
  }

  /** A bare number takes the policy's own unit. */
  private static String bare(String v, String unit) {
    return v.matches("[0-9]+(\\.[0-9]+)?") ? v + unit : v;
  }

  public String text() {
    return switch (kind) {
      case EACH -> "each";
      case NONE -> "none";
      case NEXT -> "next";
      case END -> "end";
      case BYTES -> "bytes:" + value;
      case INPUT -> "input:" + value;
      case MS ->
          "ms:" + (value % 1_000_000L == 0 ? Long.toString(value / 1_000_000L) : value / 1e6);
    };
  }

  @Override
  public String toString() {
    return text();
  }
}
