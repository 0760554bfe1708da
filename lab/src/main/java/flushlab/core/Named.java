package flushlab.core;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * An enum whose constants scenarios, flags and results name in words: {@code BYTE_THRESHOLD} is
 * {@code byte-threshold}. The text is read once where it arrives ({@link #parse}) and written where
 * it leaves ({@link #text}, also its JSON); in between the constant is compared, never a string.
 */
public interface Named {
  /** The enum constant's name; every enum has it. */
  String name();

  /** How it is written: its name in lower case, '_' as '-'. */
  @JsonValue
  default String text() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Every constant's text, in declaration order: what a message lists as allowed. */
  static <E extends Enum<E> & Named> List<String> texts(Class<E> type) {
    return Arrays.stream(type.getEnumConstants()).map(Named::text).toList();
  }

  /** The constant written as {@code text} (case and surrounding spaces ignored), or null. */
  static <E extends Enum<E> & Named> E parse(Class<E> type, String text) {
    String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    for (E e : type.getEnumConstants()) if (e.text().equals(t)) return e;
    return null;
  }

  /** As {@link #parse}, refusing an unknown text with the allowed ones. */
  static <E extends Enum<E> & Named> E parseOrThrow(Class<E> type, String text) {
    E e = parse(type, text);
    if (e == null)
      throw new IllegalArgumentException(
          "'" + text + "' is not one of " + String.join(", ", texts(type)));
    return e;
  }
}
