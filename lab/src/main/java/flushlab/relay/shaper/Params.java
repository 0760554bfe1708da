package flushlab.relay.shaper;

import java.util.Map;

/** The validated values of one shaper spec, by key, in the parameter's base unit (ns, bytes, bytes/s). */
public final class Params {
  private final String shaper;
  private final Map<String, Long> values;

  Params(String shaper, Map<String, Long> values) {
    this.shaper = shaper;
    this.values = Map.copyOf(values);
  }

  public boolean has(String key) {
    return values.containsKey(key);
  }

  public long get(String key) {
    Long v = values.get(key);
    if (v == null) throw new IllegalStateException("shaper '" + shaper + "' has no value for " + key);
    return v;
  }

  public boolean bool(String key) {
    return get(key) == 1;
  }

  /** Exactly one of two optional keys must be given. */
  public String exactlyOne(String a, String b) {
    if (has(a) == has(b)) {
      throw new ShaperSpecException("shaper '" + shaper + "': give exactly one of " + a + "= and " + b + "=");
    }
    return has(a) ? a : b;
  }
}
