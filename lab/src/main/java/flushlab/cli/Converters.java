package flushlab.cli;

import com.beust.jcommander.IStringConverter;
import com.beust.jcommander.ParameterException;
import com.beust.jcommander.converters.BaseConverter;
import com.beust.jcommander.converters.IParameterSplitter;
import flushlab.core.Units;
import flushlab.relay.shaper.ShaperRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * JCommander converters for unit-bearing flags; a bad value names the flag and the form. The values
 * keep the text the user wrote, so {@code --help} shows a default as "60s", never as the
 * nanoseconds it stands for.
 */
final class Converters {
  private Converters() {}

  /** A duration flag: nanoseconds, and the text it was written as. */
  record DurationArg(long nanos, String text) {
    static DurationArg of(String text) {
      return new DurationArg(Units.parseDurationNanos(text), text);
    }

    double millis() {
      return nanos / 1e6;
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /** A size flag: bytes, and the text it was written as. */
  record SizeArg(long bytes, String text) {
    static SizeArg of(String text) {
      return new SizeArg(Units.parseBytes(text), text);
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /** A unit-bearing flag: a parse error names the flag and the form it wants. */
  private abstract static class UnitConverter<T> extends BaseConverter<T>
      implements IStringConverter<T> {
    private final Function<String, T> parse;

    UnitConverter(String optionName, Function<String, T> parse) {
      super(optionName);
      this.parse = parse;
    }

    @Override
    public T convert(String value) {
      try {
        return parse.apply(value);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(getOptionName() + ": " + e.getMessage());
      }
    }
  }

  public static final class Duration extends UnitConverter<DurationArg> {
    public Duration(String optionName) {
      super(optionName, DurationArg::of);
    }
  }

  public static final class Size extends UnitConverter<SizeArg> {
    public Size(String optionName) {
      super(optionName, SizeArg::of);
    }
  }

  /**
   * For repeatable flags whose values contain commas (shaper specs such as {@code
   * latency=50ms,jitter=10ms}): JCommander would otherwise split each value at its commas.
   */
  public static final class WholeValue implements IParameterSplitter {
    @Override
    public List<String> split(String value) {
      return List.of(value);
    }
  }

  static int range(String flag, long value, long min, long max) {
    if (value < min || value > max) {
      throw new ParameterException(
          flag + ": " + value + " is out of range (allowed: " + min + ".." + max + ")");
    }
    return (int) value;
  }

  static long durationRange(String flag, DurationArg value, long minNanos, long maxNanos) {
    if (value.nanos() < minNanos || value.nanos() > maxNanos) {
      throw new ParameterException(
          flag
              + ": "
              + value
              + " is out of range (allowed: "
              + Units.formatDuration(minNanos)
              + ".."
              + Units.formatDuration(maxNanos)
              + ")");
    }
    return value.nanos();
  }

  /**
   * Each {@code --shape} value parsed as a shaper spec; a bad one names the flag, the value and
   * what is wrong.
   */
  static List<ShaperRegistry.Spec> shapes(List<String> values) {
    List<ShaperRegistry.Spec> specs = new ArrayList<>();
    for (String s : values) {
      try {
        specs.addAll(ShaperRegistry.parseChain(s));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--shape " + s + ": " + e.getMessage());
      }
    }
    return specs;
  }
}
