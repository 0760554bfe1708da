package flushlab.client;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An extra request header as the user wrote it, {@code Name: value}, where the value may name
 * environment variables as {@code ${NAME}} (so a key such as {@code Authorization: Bearer
 * ${OPENAI_API_KEY}} never has to be typed, stored in a scenario, or shown). Values are only ever
 * sent: results and logs carry the name and {@link #REDACTED}.
 */
public record HeaderSpec(String name, String template) {
  public static final String REDACTED = "<redacted>";
  private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");
  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

  /** The lab writes these itself: another value would break how the response is framed or read. */
  private static final List<String> LAB_OWNED =
      List.of("content-length", "transfer-encoding", "connection", "upgrade");

  public static final int MAX_HEADERS = 32;
  public static final int MAX_VALUE_CHARS = 8192;

  /** Parses {@code Name: value}; {@code where} names the flag or the scenario key in any error. */
  public static HeaderSpec parse(String where, String text) {
    int colon = text.indexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException(
          where
              + ": '"
              + redactedText(text)
              + "' is not 'Name: value' (e.g. 'Authorization: Bearer ${OPENAI_API_KEY}')");
    }
    String name = text.substring(0, colon).trim();
    String value = text.substring(colon + 1).trim();
    if (!TOKEN.matcher(name).matches()) {
      throw new IllegalArgumentException(
          where + ": '" + name + "' is not a header name (letters, digits and !#$%&'*+.^_`|~-)");
    }
    if (LAB_OWNED.contains(name.toLowerCase(Locale.ROOT))) {
      throw new IllegalArgumentException(
          where
              + ": "
              + name
              + " is written by the lab itself (it decides how the request is framed); "
              + "give other headers");
    }
    if (value.length() > MAX_VALUE_CHARS) {
      throw new IllegalArgumentException(
          where
              + ": the value of "
              + name
              + " has "
              + value.length()
              + " characters (allowed: at most "
              + MAX_VALUE_CHARS
              + ")");
    }
    return new HeaderSpec(name, value);
  }

  /**
   * The value to send, every ${VAR} replaced from {@code env}; a variable that is not set is an
   * error naming it.
   */
  public String resolve(String where, Map<String, String> env) {
    Matcher m = VARIABLE.matcher(template);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String v = env.get(m.group(1));
      if (v == null) {
        throw new IllegalArgumentException(
            where
                + ": header "
                + name
                + " names the environment variable "
                + m.group(1)
                + ", which is not set (export it, or give the value another way)");
      }
      m.appendReplacement(out, Matcher.quoteReplacement(v));
    }
    m.appendTail(out);
    String value = out.toString();
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\r' || c == '\n' || c == 0 || c > 0xFF) {
        throw new IllegalArgumentException(
            where
                + ": the value of header "
                + name
                + " has a line break, NUL or non-Latin-1 character once expanded (a header value is one line)");
      }
    }
    return value;
  }

  /** How results show it: the name only. */
  public String redacted() {
    return name + ": " + REDACTED;
  }

  /** A header as typed, with its value hidden, for error messages and recorded command lines. */
  public static String redactedText(String text) {
    int colon = text.indexOf(':');
    return colon <= 0 ? REDACTED : text.substring(0, colon).trim() + ": " + REDACTED;
  }
}
