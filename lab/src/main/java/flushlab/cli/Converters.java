package flushlab.cli;

import com.beust.jcommander.IStringConverter;
import com.beust.jcommander.ParameterException;
import com.beust.jcommander.converters.BaseConverter;
import flushlab.core.Units;

/** JCommander converters for unit-bearing flags; a bad value names the flag and the form. */
final class Converters {
  private Converters() {}

  /** A duration flag, converted to nanoseconds. */
  public static final class Duration extends BaseConverter<Long> implements IStringConverter<Long> {
    public Duration(String optionName) {
      super(optionName);
    }

    @Override
    public Long convert(String value) {
      try {
        return Units.parseDurationNanos(value);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(getOptionName() + ": " + e.getMessage());
      }
    }
  }

  /** A size flag, converted to bytes. */
  public static final class Size extends BaseConverter<Long> implements IStringConverter<Long> {
    public Size(String optionName) {
      super(optionName);
    }

    @Override
    public Long convert(String value) {
      try {
        return Units.parseBytes(value);
      } catch (IllegalArgumentException e) {
        throw new ParameterException(getOptionName() + ": " + e.getMessage());
      }
    }
  }

  static int range(String flag, long value, long min, long max) {
    if (value < min || value > max) {
      throw new ParameterException(flag + ": " + value + " is out of range (allowed: " + min + ".." + max + ")");
    }
    return (int) value;
  }
}
