package flushlab.scenario;

import flushlab.core.Units;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The resolved settings of one cell of a sweep: every setting's value (defaults, then the
 * scenario's base values, then this cell's swept values), with typed accessors.
 */
public record Cell(int index, Map<String, String> swept, Map<String, String> values, Map<String, String> headers) {

  public String label() {
    if (swept.isEmpty()) return "base";
    StringBuilder sb = new StringBuilder();
    swept.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : " ").append(k).append('=').append(v));
    return sb.toString();
  }

  /** A tag safe for HdrHistogram logs and file names. */
  public String tag() {
    return "cell" + index;
  }

  public String get(String key) {
    return values.get(key);
  }

  public long bytes(String key) {
    return Units.parseBytes(values.get(key));
  }

  public long nanos(String key) {
    return Units.parseDurationNanos(values.get(key));
  }

  public int integer(String key) {
    return Integer.parseInt(values.get(key));
  }

  public boolean bool(String key) {
    return Boolean.parseBoolean(values.get(key));
  }

  public boolean has(String key) {
    return values.get(key) != null;
  }

  /** Frames per stream: {@code frames}, or in bulk mode as many frames of frame_size as total takes. */
  public int frames() {
    if (has("total") && get("endpoint").equals("sse")) {
      long size = bytes("frame_size");
      return (int) ((bytes("total") + size - 1) / size);
    }
    return integer("frames");
  }

  public Cell with(String key, String value) {
    Map<String, String> s = new LinkedHashMap<>(swept);
    s.put(key, value);
    Map<String, String> v = new LinkedHashMap<>(values);
    v.put(key, value);
    return new Cell(index, s, v, headers);
  }

  public Cell withIndex(int i) {
    return new Cell(i, swept, values, headers);
  }
}
