package flushlab.scenario;

import flushlab.core.Units;
import java.util.List;
import java.util.Locale;

/**
 * One emitter or client setting a scenario may set, and sweep. This list is the one place a
 * setting is defined: validation, defaults and the reference (scenarios/README.md, printed by
 * {@code flushlab validate --reference}) all come from it.
 */
public record SettingKey(String name, String section, Type type, String defaultValue, double min, double max,
    List<String> choices, String description) {

  public enum Type { INT, DECIMAL, SIZE, DURATION, BOOL, CHOICE, HEADERS }

  public static final List<SettingKey> ALL = List.of(
      new SettingKey("endpoint", "emitter", Type.CHOICE, "sse", 0, 0, List.of("sse", "chat"),
          "sse: GET /sse plain frames; chat: POST /v1/chat/completions OpenAI chunks"),
      new SettingKey("frames", "emitter", Type.INT, "41", 1, 1_000_000, List.of(), "frames (tokens) per response"),
      new SettingKey("frame_size", "emitter", Type.SIZE, "60B", 48, 16 << 20, List.of(),
          "bytes of each SSE event on the wire (sse endpoint)"),
      new SettingKey("interval", "emitter", Type.DURATION, "50ms", 0, 60e9, List.of(), "time between frames; 0ms = as fast as the socket takes them"),
      new SettingKey("think", "emitter", Type.DURATION, "0ms", 0, 60e9, List.of(), "delay before the first frame"),
      new SettingKey("transfer", "emitter", Type.CHOICE, "chunked", 0, 0, List.of("chunked", "close", "chunked-always"),
          "body framing (sse endpoint): chunked (close-delimited for an HTTP/1.0 request), close, or chunked-always (even for HTTP/1.0)"),
      new SettingKey("total", "emitter", Type.SIZE, null, 48, 1L << 30, List.of(),
          "bulk mode: total body bytes, in frames of frame_size (replaces frames)"),
      new SettingKey("x_accel_buffering", "emitter", Type.CHOICE, "absent", 0, 0, List.of("absent", "no", "yes"),
          "send X-Accel-Buffering: no|yes from the emitter, or not at all; sweepable (quote \"no\" in YAML)"),
      new SettingKey("headers", "emitter", Type.HEADERS, null, 0, 0, List.of(),
          "extra response headers, e.g. {X-Accel-Buffering: \"no\"} (sse endpoint)"),
      new SettingKey("slow_reader", "client", Type.DURATION, "0ms", 0, 10e9, List.of(),
          "pause after each read (a slow client); 0ms reads at once"),
      new SettingKey("concurrency", "client", Type.INT, "1", 1, 1000, List.of(), "requests in flight at once"),
      new SettingKey("requests", "client", Type.INT, "1", 1, 10_000, List.of(), "requests per run"),
      new SettingKey("keep_alive", "client", Type.BOOL, "false", 0, 1, List.of(), "reuse client connections between requests"),
      new SettingKey("timeout", "client", Type.DURATION, "60s", 1e6, 3600e9, List.of(), "per-request timeout"));

  public static SettingKey byName(String name) {
    for (SettingKey k : ALL) if (k.name.equals(name)) return k;
    return null;
  }

  public static List<String> names(String section) {
    return ALL.stream().filter(k -> section == null || k.section.equals(section)).map(SettingKey::name).toList();
  }

  /** Checks one scalar value; returns it normalised, or throws with what is allowed. */
  public String check(String value) {
    String v = value == null ? "" : value.trim();
    switch (type) {
      case INT: {
        long n;
        try {
          n = Long.parseLong(v);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("'" + value + "' is not a whole number (allowed: " + (long) min + ".." + (long) max + ")");
        }
        if (n < min || n > max) throw new IllegalArgumentException(n + " is out of range (allowed: " + (long) min + ".." + (long) max + ")");
        return Long.toString(n);
      }
      case DECIMAL: {
        double d;
        try {
          d = Double.parseDouble(v);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("'" + value + "' is not a number (allowed: " + min + ".." + max + ")");
        }
        if (d < min || d > max) throw new IllegalArgumentException(d + " is out of range (allowed: " + min + ".." + max + ")");
        return v;
      }
      case SIZE: {
        long b = Units.parseBytes(v);
        if (b < min || b > max) {
          throw new IllegalArgumentException(v + " is out of range (allowed: " + Units.formatBytes((long) min) + ".." + Units.formatBytes((long) max) + ")");
        }
        return v;
      }
      case DURATION: {
        long n = Units.parseDurationNanos(v);
        if (n < min || n > max) {
          throw new IllegalArgumentException(v + " is out of range (allowed: " + Units.formatDuration((long) min) + ".." + Units.formatDuration((long) max) + ")");
        }
        return v;
      }
      case BOOL: {
        String b = v.toLowerCase(Locale.ROOT);
        if (!b.equals("true") && !b.equals("false")) throw new IllegalArgumentException("'" + value + "' is not true or false");
        return b;
      }
      case CHOICE: {
        if (!choices.contains(v)) {
          String hint = (v.equals("false") || v.equals("true")) && (choices.contains("no") || choices.contains("yes"))
              ? " (YAML reads an unquoted no/yes as a boolean: write \"no\")" : "";
          throw new IllegalArgumentException("'" + value + "' is not one of " + String.join(", ", choices) + hint);
        }
        return v;
      }
      default:
        throw new IllegalArgumentException("cannot be given as a single value");
    }
  }

  public String allowed() {
    switch (type) {
      case INT: return "a whole number " + (long) min + ".." + (long) max;
      case DECIMAL: return "a number " + min + ".." + max;
      case SIZE: return "a size " + Units.formatBytes((long) min) + ".." + Units.formatBytes((long) max) + " (B, KiB, MiB, KB, MB)";
      case DURATION: return "a duration " + Units.formatDuration((long) min) + ".." + Units.formatDuration((long) max) + " (ns, us, ms, s)";
      case BOOL: return "true or false";
      case CHOICE: return "one of " + String.join(", ", choices);
      default: return "a map of header name to value";
    }
  }
}
