package flushlab.control;

/** What a proxy's or a toxic's name may be: a path segment of the API. */
final class ProxyNames {
  private ProxyNames() {}

  /**
   * A proxy's or a toxic's name: 1..128 characters, none of them '/' or a control character (names
   * are path segments).
   */
  static final int MAX = 128;

  /** Why a proxy's or toxic's name cannot be one, or null when it can. */
  static String bad(String name) {
    if (name.isEmpty()) return "missing required field: name";
    if (name.length() > MAX)
      return "name: " + name.length() + " characters (allowed: 1.." + MAX + ")";
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '/' || Character.isISOControl(c)) {
        return "name: no '/' or control characters (names are path segments: /proxies/{name})";
      }
    }
    return null;
  }
}
