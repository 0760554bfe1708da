package flushlab.relay.shaper;

import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A kind of shaper as the registry knows it: name, the real behaviour it models, its parameters
 * (the first may be given bare, as in {@code byte-threshold=2KiB}), an example, and how to make one
 * per connection from validated params. {@code buffering} marks the mechanisms (never a fault).
 */
public record ShaperType(
    String name,
    boolean fault,
    String models,
    List<Param> params,
    String example,
    Function<Params, Supplier<Shaper>> factory) {

  public Param param(String key) {
    for (Param p : params) if (p.key().equals(key)) return p;
    return null;
  }
}
