package flushlab.scenario;

import flushlab.coding.FlushPolicy;
import flushlab.core.HostPort;
import flushlab.core.Units;
import flushlab.targets.TargetKind;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * One key a scenario may write: where it goes, what it takes, its default and what it means. The
 * registry of every key is {@link Keys}; the validator, the reference tables in scenarios/README.md
 * and the CLI flags that mirror settings all come from it.
 *
 * @param defaultValue the value used when the key is absent, or null (required, or no default)
 * @param defaultText how the reference shows the default when it is not a plain value
 * @param shape what a map, list or other structured key takes, in words
 * @param appliesTo for target keys, the kinds that take it (empty for every other section)
 */
public record Key(
    String name,
    Section section,
    Type type,
    String defaultValue,
    String defaultText,
    double min,
    double max,
    List<String> choices,
    String shape,
    String meaning,
    Set<TargetKind> appliesTo) {

  /** Where a key is written. */
  public enum Section {
    TOP(""),
    EMITTER("emitter"),
    CLIENT("client"),
    TARGET("targets[]"),
    GUARDS("guards"),
    CERTIFY("guards.certify"),
    ADAPTIVE("adaptive"),
    UPLOAD("upload"),
    KEEPALIVE("keepalive"),
    SERVER("servers[]"),
    CLUSTER("cluster");

    public final String path;

    Section(String path) {
      this.path = path;
    }

    /**
     * True for the emitter and client settings: the ones every cell carries and a sweep may vary.
     */
    public boolean isSetting() {
      return this == EMITTER || this == CLIENT;
    }
  }

  /** What a key takes; {@link #check} and {@link #allowed} know each. */
  public enum Type {
    INT,
    DECIMAL,
    SIZE,
    DURATION,
    BOOL,
    CHOICE,
    /** A scenario name: it names the results folder. */
    NAME,
    /** A target name: the row name in every table. */
    ROW_NAME,
    TEXT,
    HOST_PORT,
    FRACTION,
    HEADERS,
    /** When a compressing writer flushes: each, none, bytes:N or ms:T. */
    FLUSH_POLICY,
    /** A map, a list, or a value checked by its reader (its {@code shape} says what it takes). */
    STRUCTURED
  }

  public static Key of(
      String name, Section section, Type type, String defaultValue, String meaning) {
    return new Key(
        name, section, type, defaultValue, null, 0, 0, List.of(), null, meaning, Set.of());
  }

  public Key range(double lo, double hi) {
    return new Key(
        name, section, type, defaultValue, defaultText, lo, hi, choices, shape, meaning, appliesTo);
  }

  public Key choices(String... allowed) {
    return choices(List.of(allowed));
  }

  public Key choices(List<String> allowed) {
    return new Key(
        name,
        section,
        type,
        defaultValue,
        defaultText,
        min,
        max,
        List.copyOf(allowed),
        shape,
        meaning,
        appliesTo);
  }

  public Key shownDefault(String text) {
    return new Key(
        name, section, type, defaultValue, text, min, max, choices, shape, meaning, appliesTo);
  }

  public Key shape(String text) {
    return new Key(
        name,
        section,
        type,
        defaultValue,
        defaultText,
        min,
        max,
        choices,
        text,
        meaning,
        appliesTo);
  }

  public Key forKinds(TargetKind... kinds) {
    return new Key(
        name,
        section,
        type,
        defaultValue,
        defaultText,
        min,
        max,
        choices,
        shape,
        meaning,
        Set.of(kinds));
  }

  /**
   * Where the key stands in a scenario, for messages: "emitter.interval", "guards.certify.runs".
   */
  public String path() {
    return section.path.isEmpty() ? name : section.path + "." + name;
  }

  /** Checks one scalar value; returns it normalised, or throws with what is allowed. */
  public String check(String value) {
    String v = value == null ? "" : value.trim();
    switch (type) {
      case INT:
        {
          long n;
          try {
            n = Long.parseLong(v);
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                "'"
                    + value
                    + "' is not a whole number (allowed: "
                    + (long) min
                    + ".."
                    + (long) max
                    + ")");
          }
          if (n < min || n > max)
            throw new IllegalArgumentException(
                n + " is out of range (allowed: " + (long) min + ".." + (long) max + ")");
          return Long.toString(n);
        }
      case DECIMAL:
        {
          double d;
          try {
            d = Double.parseDouble(v);
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                "'" + value + "' is not a number (allowed: " + rangeText() + ")");
          }
          if (d < min || d > max || Double.isNaN(d))
            throw new IllegalArgumentException(
                "'" + value + "' is out of range (allowed: " + rangeText() + ")");
          return v;
        }
      case FRACTION:
        {
          double f;
          try {
            f =
                v.endsWith("%")
                    ? Double.parseDouble(v.substring(0, v.length() - 1)) / 100
                    : Double.parseDouble(v);
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + value + "' is not a fraction such as 10%");
          }
          if (f <= min || f >= max)
            throw new IllegalArgumentException(
                "'" + value + "' is out of range (allowed: " + allowed() + ")");
          return Double.toString(f);
        }
      case SIZE:
        return withinRange(v, Units.parseBytes(v), Units::formatBytes);
      case DURATION:
        return withinRange(v, Units.parseDurationNanos(v), Units::formatDuration);
      case FLUSH_POLICY:
        FlushPolicy.parse(
            v); // refused here, with what is valid; kept as written, as sizes and durations are
        return v;
      case BOOL:
        {
          String b = v.toLowerCase(Locale.ROOT);
          if (!b.equals("true") && !b.equals("false"))
            throw new IllegalArgumentException("'" + value + "' is not true or false");
          return b;
        }
      case CHOICE:
        {
          if (!choices.contains(v)) {
            String hint =
                (v.equals("false") || v.equals("true"))
                        && (choices.contains("no") || choices.contains("yes"))
                    ? " (YAML reads an unquoted no/yes as a boolean: write \"no\")"
                    : "";
            throw new IllegalArgumentException(
                "'" + value + "' is not one of " + String.join(", ", choices) + hint);
          }
          return v;
        }
      case NAME:
      case ROW_NAME:
        {
          String chars = type == Type.NAME ? "[A-Za-z0-9._-]" : "[A-Za-z0-9._()-]";
          if (!v.matches(chars + "{1," + (long) max + "}"))
            throw new IllegalArgumentException("'" + value + "' is not a valid name");
          return v;
        }
      case HOST_PORT:
        {
          try {
            return HostPort.parse(path(), v, min == 0).toString();
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                "'" + value + "' is not host:port (e.g. 127.0.0.1:8090)");
          }
        }
      case TEXT:
        if (max > 0 && v.length() > max) {
          throw new IllegalArgumentException(
              v.length() + " characters (allowed: " + (long) min + ".." + (long) max + ")");
        }
        return value == null ? "" : value;
      default:
        throw new IllegalArgumentException("cannot be given as a single value");
    }
  }

  private String rangeText() {
    return (min == Math.rint(min) ? Long.toString((long) min) : Double.toString(min))
        + ".."
        + (max == Math.rint(max) ? Long.toString((long) max) : Double.toString(max));
  }

  /**
   * {@code v} as written, once its value ({@code parsed}, in the base unit) is in range; else what
   * the range is, each end as {@code unit} writes it.
   */
  private String withinRange(String v, long parsed, LongFunction<String> unit) {
    if (parsed < min || parsed > max)
      throw new IllegalArgumentException(
          v
              + " is out of range (allowed: "
              + unit.apply((long) min)
              + ".."
              + unit.apply((long) max)
              + ")");
    return v;
  }

  /** What the key takes, in words: for messages and the reference. */
  public String allowed() {
    switch (type) {
      case INT:
        return "a whole number " + (long) min + ".." + (long) max;
      case DECIMAL:
        return "a number " + rangeText();
      case FRACTION:
        return "a fraction such as 10% (above "
            + Math.round(min * 100)
            + "%, below "
            + Math.round(max * 100)
            + "%)";
      case SIZE:
        return "a size "
            + Units.formatBytes((long) min)
            + ".."
            + Units.formatBytes((long) max)
            + " (B, KiB, MiB, KB, MB)";
      case DURATION:
        return "a duration "
            + Units.formatDuration((long) min)
            + ".."
            + Units.formatDuration((long) max)
            + " (ns, us, ms, s)";
      case BOOL:
        return "true or false";
      case CHOICE:
        return "one of " + String.join(", ", choices);
      case NAME:
        return "1-" + (long) max + " letters, digits, '.', '_' or '-'";
      case ROW_NAME:
        return "1-" + (long) max + " letters, digits or . _ - ( )";
      case HOST_PORT:
        return "host:port";
      case TEXT:
        return "text";
      case FLUSH_POLICY:
        return FlushPolicy.VALID;
      case HEADERS:
        return "a map of header name to value";
      default:
        return shape;
    }
  }

  /** The default as the reference shows it. */
  public String defaultShown() {
    if (defaultText != null) return defaultText;
    return defaultValue == null ? "(none)" : "`" + defaultValue + "`";
  }
}
