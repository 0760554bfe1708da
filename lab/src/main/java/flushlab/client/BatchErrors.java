package flushlab.client;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A batch's failed streams, counted by kind with one example message each: none of them is a
 * measurement.
 */
final class BatchErrors {
  private final Map<StreamError, Integer> counts = new EnumMap<>(StreamError.class);
  private final Map<StreamError, String> examples = new EnumMap<>(StreamError.class);

  void add(StreamResult failed) {
    counts.merge(failed.error(), 1, Integer::sum);
    examples.putIfAbsent(failed.error(), failed.errorMessage());
  }

  boolean has(StreamError kind) {
    return counts.containsKey(kind);
  }

  /** The first kind in words with its example ("meaning (example)"), or null when none failed. */
  String first() {
    for (StreamError e : counts.keySet()) return e.meaning() + " (" + examples.get(e) + ")";
    return null;
  }

  /** Each kind as the results' JSON gives it: kind, meaning, count and an example. */
  List<Map<String, Object>> asJson() {
    List<Map<String, Object>> out = new ArrayList<>();
    counts.forEach(
        (kind, count) -> {
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("kind", kind.name().toLowerCase());
          m.put("meaning", kind.meaning());
          m.put("count", count);
          m.put("example", examples.get(kind));
          out.add(m);
        });
    return out;
  }

  /** Each kind, its count and its example, after a terminal line's figures. */
  void describeIn(StringBuilder line) {
    counts.forEach(
        (k, v) ->
            line.append("  ")
                .append(k.name().toLowerCase())
                .append(" x")
                .append(v)
                .append(": ")
                .append(examples.get(k)));
  }
}
