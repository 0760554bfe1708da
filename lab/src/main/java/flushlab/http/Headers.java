package flushlab.http;

import java.util.ArrayList;
import java.util.List;

/** HTTP header fields in arrival order; names compare case-insensitively. */
public final class Headers {
  private final List<String> names = new ArrayList<>();
  private final List<String> values = new ArrayList<>();

  public Headers add(String name, String value) {
    names.add(name);
    values.add(value);
    return this;
  }

  public String get(String name) {
    for (int i = 0; i < names.size(); i++) {
      if (names.get(i).equalsIgnoreCase(name)) return values.get(i);
    }
    return null;
  }

  public boolean has(String name, String valueIgnoringCase) {
    for (int i = 0; i < names.size(); i++) {
      if (names.get(i).equalsIgnoreCase(name)) {
        for (String part : values.get(i).split(",")) {
          if (part.trim().equalsIgnoreCase(valueIgnoringCase)) return true;
        }
      }
    }
    return false;
  }

  public int size() {
    return names.size();
  }

  public String name(int i) {
    return names.get(i);
  }

  public String value(int i) {
    return values.get(i);
  }

  /**
   * The Content-Length, or -1 without one: digits only (no sign, no list). A second Content-Length
   * field is refused, because two parsers that pick different ones see different messages (request
   * smuggling).
   */
  public long contentLength() {
    String cl = null;
    for (int i = 0; i < names.size(); i++) {
      if (!names.get(i).equalsIgnoreCase("Content-Length")) continue;
      if (cl != null) throw new HttpParseException("more than one Content-Length header", false);
      cl = values.get(i).trim();
    }
    if (cl == null) return -1;
    if (cl.isEmpty() || cl.length() > 18 || !cl.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new HttpParseException(
          "malformed Content-Length \"" + cl + "\" (allowed: a whole number of bytes)", false);
    }
    return Long.parseLong(cl);
  }

  /** Parses "Name: value" lines of a head already split on line ends; false if one is malformed. */
  static boolean parseLines(String[] lines, int from, Headers into) {
    for (int i = from; i < lines.length; i++) {
      String line = lines[i];
      if (line.isEmpty()) continue;
      int colon = line.indexOf(':');
      if (colon <= 0) return false;
      into.add(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
    }
    return true;
  }
}
