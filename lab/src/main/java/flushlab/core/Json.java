package flushlab.core;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * The one JSON mapper. Every name it writes is snake_case (a record component {@code timerMs} is
 * {@code timer_ms}), so records carry an annotation only where a name is not the component's.
 * Servers touch it at start so the first request does not pay for its setup.
 */
public final class Json {
  private Json() {}

  public static final ObjectMapper MAPPER =
      new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
  public static final ObjectMapper PRETTY =
      MAPPER.copy().enable(SerializationFeature.INDENT_OUTPUT);

  public static String write(Object o) {
    try {
      return MAPPER.writeValueAsString(o);
    } catch (Exception e) {
      throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
    }
  }

  public static String pretty(Object o) {
    try {
      return PRETTY.writeValueAsString(o);
    } catch (Exception e) {
      throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
    }
  }
}
