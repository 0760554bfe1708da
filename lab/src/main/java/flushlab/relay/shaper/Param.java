package flushlab.relay.shaper;

import flushlab.core.Named;
import flushlab.core.Units;
import java.util.List;
import java.util.Locale;

/**
 * One parameter of a shaper: its key, kind (which fixes the unit), range and default. The
 * registry's parameter list is the reference documentation, so messages and README agree.
 */
public record Param(
    String key,
    Kind kind,
    boolean required,
    String defaultValue,
    long min,
    long max,
    List<String> choices,
    Class<? extends Enum<?>> choiceType,
    String description) {

  public enum Kind {
    DURATION,
    SIZE,
    RATE,
    BOOLEAN,
    CHOICE
  }

  public static Param duration(
      String key, String def, long minNanos, long maxNanos, String description) {
    return new Param(
        key, Kind.DURATION, def == null, def, minNanos, maxNanos, List.of(), null, description);
  }

  public static Param size(
      String key, String def, long minBytes, long maxBytes, String description) {
    return new Param(
        key, Kind.SIZE, def == null, def, minBytes, maxBytes, List.of(), null, description);
  }

  public static Param rate(String key, String def, long min, long max, String description) {
    return new Param(key, Kind.RATE, def == null, def, min, max, List.of(), null, description);
  }

  public static Param bool(String key, String def, String description) {
    return new Param(
        key, Kind.BOOLEAN, false, def, 0, 1, List.of("true", "false"), null, description);
  }

  /**
   * One of an enum's constants, written as its text ({@link Named}); the shaper reads it back as
   * the constant ({@link Params#choice}).
   */
  public static <E extends Enum<E> & Named> Param choice(
      String key, E def, Class<E> type, String description) {
    return new Param(
        key, Kind.CHOICE, false, def.text(), 0, 0, Named.texts(type), type, description);
  }

  /** An optional parameter with no default (its absence means something, e.g. "one of two"). */
  public Param optional() {
    return new Param(key, kind, false, defaultValue, min, max, choices, choiceType, description);
  }

  /**
   * Parses and range-checks a value; the message names the shaper, the key, the unit and the range.
   */
  long parse(String shaper, String value) {
    String where = "shaper '" + shaper + "': " + key + "=" + value;
    long v;
    try {
      switch (kind) {
        case DURATION:
          v = Units.parseDurationNanos(value);
          break;
        case SIZE:
          v = Units.parseBytes(value);
          break;
        case RATE:
          v = Units.parseBytesPerSecond(value);
          break;
        case BOOLEAN:
          {
            String b = value.toLowerCase(Locale.ROOT);
            if (!b.equals("true") && !b.equals("false"))
              throw new IllegalArgumentException("'" + value + "' is not true or false");
            v = b.equals("true") ? 1 : 0;
            break;
          }
        case CHOICE:
          {
            int i = choices.indexOf(value.toLowerCase(Locale.ROOT));
            if (i < 0)
              throw new IllegalArgumentException(
                  "'" + value + "' is not one of " + String.join(", ", choices));
            v = i;
            break;
          }
        default:
          throw new IllegalStateException();
      }
    } catch (IllegalArgumentException e) {
      // a choice's or a boolean's message lists what is valid already
      boolean listed = kind == Kind.CHOICE || kind == Kind.BOOLEAN;
      throw new ShaperSpecException(
          where + ": " + e.getMessage() + (listed ? "" : " (" + rangeText() + ")"));
    }
    if ((kind == Kind.DURATION || kind == Kind.SIZE || kind == Kind.RATE) && (v < min || v > max)) {
      throw new ShaperSpecException(where + " is out of range (" + rangeText() + ")");
    }
    return v;
  }

  /**
   * A value in this parameter's base unit as a spec writes it (it parses back to the same value).
   */
  public String format(long v) {
    switch (kind) {
      case DURATION:
        return Units.formatDuration(v);
      case SIZE:
        return v + "B";
      case RATE:
        return v + "B/s";
      case BOOLEAN:
        return v == 1 ? "true" : "false";
      default:
        return choices.get((int) v);
    }
  }

  /** "a duration 1ms..60s" and the like, for messages and the README. */
  public String rangeText() {
    switch (kind) {
      case DURATION:
        return "a duration " + Units.formatDuration(min) + ".." + Units.formatDuration(max);
      case SIZE:
        return "a size " + Units.formatBytes(min) + ".." + Units.formatBytes(max);
      case RATE:
        return "a rate " + Units.formatBytes(min) + "/s.." + Units.formatBytes(max) + "/s";
      case BOOLEAN:
        return "true or false";
      default:
        return "one of " + String.join(", ", choices);
    }
  }
}
