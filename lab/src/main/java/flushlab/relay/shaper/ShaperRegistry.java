package flushlab.relay.shaper;

import flushlab.core.Named;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Every shaper by name, and the one parser of shaper specs. A spec is {@code name}, {@code
 * name=value} (the first parameter given bare) or {@code name[=value],key=value,...}: {@code
 * byte-threshold=2KiB}, {@code timer=1s,periodic=true}, {@code stall,for=500ms,after=1s}. The
 * parameter lists here are the reference: messages and the README come from them.
 */
public final class ShaperRegistry {
  private ShaperRegistry() {}

  private static final Map<String, ShaperType> TYPES = new LinkedHashMap<>();

  static {
    for (ShaperType t :
        List.of(
            Passthrough.TYPE,
            DrainAndFlush.TYPE,
            ByteThreshold.TYPE,
            TimerFlush.TYPE,
            ThresholdOrTimer.TYPE,
            Cork.TYPE,
            Nagle.TYPE,
            ProxyBuffer.TYPE,
            FlowWindow.TYPE,
            H2OutputBuffer.TYPE,
            OneLate.TYPE,
            HeadOnFirstByte.TYPE,
            FirstContent.TYPE,
            Reframe.TYPE,
            StreamIf.TYPE,
            Latency.TYPE,
            Bandwidth.TYPE,
            Slicer.TYPE,
            Stall.TYPE,
            Reset.TYPE,
            Truncate.TYPE,
            SlowClose.TYPE,
            ConnectDelay.TYPE,
            FirstByteDelay.TYPE,
            IdleTimeout.TYPE,
            GatewayRewrite.TYPE,
            Compress.TYPE)) {
      TYPES.put(t.name(), t);
    }
  }

  public static List<ShaperType> types() {
    return new ArrayList<>(TYPES.values());
  }

  /**
   * A validated spec, ready to make one shaper per connection; {@code values} holds every
   * parameter's value in its base unit (ns, bytes, bytes/s, 0/1, a choice's index), defaults
   * included, and {@code given} the keys the text set itself.
   */
  public record Spec(
      String text,
      ShaperType type,
      Supplier<Shaper> factory,
      Map<String, Long> values,
      Set<String> given) {
    public Shaper create() {
      return factory.get();
    }

    /**
     * A choice's constant, as the shaper itself reads it ({@link Params#choice}): for code that
     * reads a spec it did not make (the map reading a model's compressor).
     */
    public <E extends Enum<E> & Named> E choice(Param p, Class<E> type) {
      Long v = values.get(p.key());
      if (p.choiceType() != type || v == null)
        throw new IllegalStateException(
            "'" + text + "': " + p.key() + " is not a choice of " + type.getSimpleName() + " here");
      return type.getEnumConstants()[v.intValue()];
    }
  }

  /**
   * A spec built from typed values (as the console builds a toxic's shapers), checked as a written
   * one is.
   */
  public static Builder build(ShaperType type) {
    return new Builder(type);
  }

  /** Values in each parameter's base unit, set by the shaper's own {@link Param} constants. */
  public static final class Builder {
    private final ShaperType type;
    private final Map<String, String> given = new LinkedHashMap<>();

    private Builder(ShaperType type) {
      this.type = type;
    }

    /**
     * {@code p} (one of this type's parameters) at {@code value}: ns, bytes, bytes/s, 0/1, or a
     * choice's index.
     */
    public Builder set(Param p, long value) {
      if (!type.params().contains(p))
        throw new IllegalArgumentException(
            "shaper '" + type.name() + "' has no parameter " + p.key());
      given.put(p.key(), p.format(value));
      return this;
    }

    /**
     * A value as a user wrote it for the parameter named {@code key} (refused by name when there is
     * none).
     */
    public Builder text(String key, String value) {
      given.put(key.toLowerCase(Locale.ROOT), value);
      return this;
    }

    public Spec spec() {
      StringBuilder text = new StringBuilder(type.name());
      given.forEach((k, v) -> text.append(',').append(k).append('=').append(v));
      return make(text.toString(), type, given);
    }
  }

  /** What joins the stages of a chain written on one line: {@code byte-threshold=4KiB -> nagle}. */
  public static final String CHAIN_ARROW = "->";

  /**
   * One spec, or several joined by {@link #CHAIN_ARROW} (the map writes its models so), in the
   * order the stages run.
   */
  public static List<Spec> parseChain(String text) {
    List<Spec> chain = new ArrayList<>();
    String[] stages = (text == null ? "" : text).split(CHAIN_ARROW, -1);
    for (int i = 0; i < stages.length; i++) {
      try {
        chain.add(parse(stages[i]));
      } catch (ShaperSpecException e) {
        throw stages.length == 1
            ? e
            : new ShaperSpecException(
                "stage " + (i + 1) + " of " + stages.length + ": " + e.getMessage());
      }
    }
    return chain;
  }

  public static Spec parse(String text) {
    String t = text == null ? "" : text.trim();
    if (t.isEmpty())
      throw new ShaperSpecException(
          "empty shaper spec (known: " + String.join(", ", TYPES.keySet()) + ")");
    String[] parts = t.split(",");
    String head = parts[0].trim();
    int eq = head.indexOf('=');
    String name = (eq < 0 ? head : head.substring(0, eq)).trim().toLowerCase(Locale.ROOT);
    ShaperType type = TYPES.get(name);
    if (type == null) {
      throw new ShaperSpecException(
          "unknown shaper '" + name + "' (known: " + String.join(", ", TYPES.keySet()) + ")");
    }
    Map<String, String> given = new LinkedHashMap<>();
    if (eq >= 0) {
      if (type.params().isEmpty()) {
        throw new ShaperSpecException(
            "shaper '" + name + "' takes no parameters, got '" + head.substring(eq + 1) + "'");
      }
      given.put(type.params().get(0).key(), head.substring(eq + 1).trim());
    }
    for (int i = 1; i < parts.length; i++) {
      String kv = parts[i].trim();
      int e = kv.indexOf('=');
      if (e <= 0) {
        throw new ShaperSpecException(
            "shaper '"
                + name
                + "': '"
                + kv
                + "' is not key=value (parameters: "
                + keys(type)
                + ")");
      }
      String key = kv.substring(0, e).trim().toLowerCase(Locale.ROOT);
      if (given.put(key, kv.substring(e + 1).trim()) != null) {
        throw new ShaperSpecException("shaper '" + name + "': parameter '" + key + "' given twice");
      }
    }
    return make(t, type, given);
  }

  /**
   * Checks every value given by parameter name against the type, fills defaults, and makes the
   * spec.
   */
  private static Spec make(String t, ShaperType type, Map<String, String> given) {
    String name = type.name();
    for (String key : given.keySet()) {
      if (type.param(key) == null) {
        throw new ShaperSpecException(
            "shaper '"
                + name
                + "' has no parameter '"
                + key
                + "' (parameters: "
                + keys(type)
                + ")");
      }
    }
    Map<Param, Long> values = new HashMap<>();
    for (Param p : type.params()) {
      String v = given.containsKey(p.key()) ? given.get(p.key()) : p.defaultValue();
      if (v == null) {
        if (p.required()) {
          throw new ShaperSpecException(
              "shaper '"
                  + name
                  + "' needs "
                  + p.key()
                  + "= ("
                  + p.rangeText()
                  + "), e.g. "
                  + type.example());
        }
        continue;
      }
      values.put(p, p.parse(name, v));
    }
    Params params = new Params(name, values);
    Supplier<Shaper> factory = type.factory().apply(params);
    factory.get(); // fail now, not per connection, on combinations the constructor refuses
    Map<String, Long> byKey = new LinkedHashMap<>();
    for (Param p : type.params()) if (values.containsKey(p)) byKey.put(p.key(), values.get(p));
    return new Spec(
        t, type, factory, Collections.unmodifiableMap(byKey), Set.copyOf(given.keySet()));
  }

  private static String keys(ShaperType type) {
    if (type.params().isEmpty()) return "none";
    List<String> k = new ArrayList<>();
    for (Param p : type.params()) k.add(p.key());
    return String.join(", ", k);
  }
}
