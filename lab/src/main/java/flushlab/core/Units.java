package flushlab.core;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Parses the unit-bearing values used everywhere in flushlab: durations ("250ms", "1.5ms", "2s"),
 * sizes ("60B", "2KiB", "1MB") and rates ("64KiB/s"). A value without its unit is refused, so a
 * "200" can never silently mean milliseconds in one place and bytes in another.
 */
public final class Units {
  private Units() {}

  public static final String DURATION_FORM =
      "a duration with a unit: ns, us, ms, s or m (e.g. 250ms, 1.5ms, 2s)";
  public static final String SIZE_FORM =
      "a size with a unit: B, KB, KiB, MB, MiB, GB or GiB (e.g. 60B, 2KiB)";
  public static final String RATE_FORM = "a rate: a size per second (e.g. 64KiB/s, 1MB/s)";

  /** Parses a duration to nanoseconds; fractional values are allowed ("0.5ms"). */
  public static long parseDurationNanos(String text) {
    String s = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    int split = unitStart(s);
    if (split <= 0 || split == s.length()) {
      throw new IllegalArgumentException("'" + text + "' is not " + DURATION_FORM);
    }
    double number = number(s.substring(0, split), text, DURATION_FORM);
    double scale;
    switch (s.substring(split)) {
      case "ns":
        scale = 1;
        break;
      case "us":
      case "µs":
        scale = 1e3;
        break;
      case "ms":
        scale = 1e6;
        break;
      case "s":
        scale = 1e9;
        break;
      case "m":
      case "min":
        scale = 60e9;
        break;
      default:
        throw new IllegalArgumentException("'" + text + "' is not " + DURATION_FORM);
    }
    return Math.round(number * scale);
  }

  /** Parses a size to bytes. KB/MB/GB are decimal, KiB/MiB/GiB binary. */
  public static long parseBytes(String text) {
    String s = text == null ? "" : text.trim();
    int split = unitStart(s);
    if (split <= 0 || split == s.length()) {
      throw new IllegalArgumentException("'" + text + "' is not " + SIZE_FORM);
    }
    double number = number(s.substring(0, split), text, SIZE_FORM);
    double scale;
    switch (s.substring(split).toLowerCase(Locale.ROOT)) {
      case "b":
        scale = 1;
        break;
      case "kb":
        scale = 1e3;
        break;
      case "kib":
        scale = 1024;
        break;
      case "mb":
        scale = 1e6;
        break;
      case "mib":
        scale = 1024 * 1024;
        break;
      case "gb":
        scale = 1e9;
        break;
      case "gib":
        scale = 1024.0 * 1024 * 1024;
        break;
      default:
        throw new IllegalArgumentException("'" + text + "' is not " + SIZE_FORM);
    }
    double bytes = number * scale;
    if (bytes != Math.rint(bytes)) {
      throw new IllegalArgumentException("'" + text + "' is not a whole number of bytes");
    }
    return (long) bytes;
  }

  /** Parses a rate to bytes per second. */
  public static long parseBytesPerSecond(String text) {
    String s = text == null ? "" : text.trim();
    if (!s.toLowerCase(Locale.ROOT).endsWith("/s")) {
      throw new IllegalArgumentException("'" + text + "' is not " + RATE_FORM);
    }
    try {
      return parseBytes(s.substring(0, s.length() - 2));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + text + "' is not " + RATE_FORM);
    }
  }

  private static int unitStart(String s) {
    int i = 0;
    while (i < s.length()
        && (Character.isDigit(s.charAt(i))
            || s.charAt(i) == '.'
            || (i == 0 && s.charAt(i) == '-'))) {
      i++;
    }
    return i;
  }

  private static double number(String digits, String original, String form) {
    try {
      double d = Double.parseDouble(digits);
      if (d < 0 || Double.isNaN(d) || Double.isInfinite(d)) {
        throw new IllegalArgumentException("'" + original + "' is negative; expected " + form);
      }
      return d;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + original + "' is not " + form);
    }
  }

  /** Formats nanoseconds as milliseconds with 3 decimals, the unit every report uses. */
  public static double nanosToMillis(long nanos) {
    return Math.round(nanos / 1000.0) / 1000.0;
  }

  public static String formatDuration(long nanos) {
    if (nanos % 1_000_000_000L == 0 && nanos != 0) return (nanos / 1_000_000_000L) + "s";
    if (nanos % 1_000_000L == 0) return (nanos / 1_000_000L) + "ms";
    if (nanos % 1_000L == 0) return (nanos / 1_000L) + "us";
    return nanos + "ns";
  }

  /**
   * A duration for people, still parseable: the largest unit that keeps the number at least 1, with
   * at most three decimals ("331.25ms", "2s", "750us"), never a long run of digits.
   */
  public static String formatDurationReadable(long nanos) {
    String[] units = {"s", "ms", "us"};
    long[] scale = {1_000_000_000L, 1_000_000L, 1_000L};
    for (int i = 0; i < units.length; i++) {
      if (Math.abs(nanos) >= scale[i]) {
        return BigDecimal.valueOf(nanos)
                .divide(BigDecimal.valueOf(scale[i]))
                .setScale(3, RoundingMode.HALF_UP)
                .stripTrailingZeros()
                .toPlainString()
            + units[i];
      }
    }
    return nanos + "ns";
  }

  public static String formatBytes(long bytes) {
    if (bytes != 0 && bytes % (1024 * 1024) == 0) return (bytes / (1024 * 1024)) + "MiB";
    if (bytes != 0 && bytes % 1024 == 0) return (bytes / 1024) + "KiB";
    return bytes + "B";
  }
}
