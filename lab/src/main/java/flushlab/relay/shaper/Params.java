package flushlab.relay.shaper;

import flushlab.core.Named;
import java.util.Map;

/**
 * The validated values of one shaper spec, in each parameter's base unit (ns, bytes, bytes/s; a
 * choice as its constant's index, a boolean as 0 or 1), read by the shaper's own {@link Param}
 * constants: parsed once, when the spec is, and never by name.
 */
public final class Params {
  private final String shaper;
  private final Map<Param, Long> values;

  Params(String shaper, Map<Param, Long> values) {
    this.shaper = shaper;
    this.values = Map.copyOf(values);
  }

  public boolean has(Param p) {
    return values.containsKey(p);
  }

  public long get(Param p) {
    Long v = values.get(p);
    if (v == null)
      throw new IllegalStateException("shaper '" + shaper + "' has no value for " + p.key());
    return v;
  }

  /** A choice's constant, of the enum {@code type} the parameter was declared with. */
  public <E extends Enum<E> & Named> E choice(Param p, Class<E> type) {
    if (p.choiceType() != type)
      throw new IllegalStateException(
          "shaper '" + shaper + "': " + p.key() + " is not a choice of " + type.getSimpleName());
    return type.getEnumConstants()[(int) get(p)];
  }

  public boolean bool(Param p) {
    return get(p) == 1;
  }

  /** Exactly one of two optional parameters must be given; returns it. */
  public Param exactlyOne(Param a, Param b) {
    if (has(a) == has(b)) {
      throw new ShaperSpecException(
          "shaper '" + shaper + "': give exactly one of " + a.key() + "= and " + b.key() + "=");
    }
    return has(a) ? a : b;
  }
}
