package flushlab.scenario;

import flushlab.netpath.NetworkPath;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects a scenario's mistakes, each as {@code file:line:column: key: what is wrong}, and reads
 * scalar values through the key registry: a value that fails its key's check is an error naming
 * what the key allows, and reading goes on so that every mistake is reported at once.
 */
final class ErrorCollector {
  private final String file;
  private final List<String> errors = new ArrayList<>();

  ErrorCollector(String file) {
    this.file = file;
  }

  List<String> errors() {
    return errors;
  }

  boolean any() {
    return !errors.isEmpty();
  }

  void error(YamlNode at, String key, String message) {
    errors.add(file + ":" + at.line + ":" + at.column + ": " + key + ": " + message);
  }

  /** An error at a map's key (where it is written), or at the map when the key is missing. */
  void errorAtKey(YamlNode map, String key, String path, String message) {
    int[] pos = map.keyPositions.get(key);
    errors.add(
        file
            + ":"
            + (pos == null ? map.line : pos[0])
            + ":"
            + (pos == null ? map.column : pos[1])
            + ": "
            + path
            + ": "
            + message);
  }

  /** Unknown keys in a map: each named at its own line, with the known ones. */
  void onlyKnown(YamlNode map, String prefix, List<String> known) {
    for (String k : map.map.keySet()) {
      if (!known.contains(k))
        errorAtKey(
            map, k, prefix + k, "unknown key (allowed here: " + String.join(", ", known) + ")");
    }
  }

  boolean isMap(YamlNode n, String key) {
    if (n.kind != YamlNode.Kind.MAP) {
      error(n, key, "must be a map of key: value lines");
      return false;
    }
    return true;
  }

  /** The text of a scalar, or null (and an error) for a map, a list or nothing. */
  String scalar(YamlNode n, String key) {
    if (n.kind != YamlNode.Kind.SCALAR) {
      error(
          n,
          key,
          "must be a single value, not "
              + (n.kind == YamlNode.Kind.NULL ? "empty" : n.kind.toString().toLowerCase()));
      return null;
    }
    return n.text;
  }

  /**
   * A value checked by its key, normalised; null (and an error naming what is allowed) when it
   * fails.
   */
  String checked(Key k, YamlNode n, String where) {
    String v = scalar(n, where);
    if (v == null) return null;
    try {
      return k.check(v);
    } catch (IllegalArgumentException e) {
      error(n, where, e.getMessage() + "; expected " + k.allowed());
      return null;
    }
  }

  /**
   * A map's key read through its registry entry: the checked value, or the key's default when
   * absent or wrong.
   */
  String value(YamlNode map, Key k) {
    YamlNode n = map.map.get(k.name());
    if (n == null) return k.defaultValue();
    String v = checked(k, n, k.path());
    return v == null ? k.defaultValue() : v;
  }

  /**
   * A network path from a path key and an MTU; an MTU the path cannot take is reported at {@code
   * at}.
   */
  NetworkPath networkPath(YamlNode at, String prefix, NetworkPath.Kind kind, Integer mtu) {
    try {
      return NetworkPath.of(prefix.isEmpty() ? "path" : prefix + ".path", kind, mtu);
    } catch (IllegalArgumentException e) {
      error(at, prefix.isEmpty() ? "mtu" : prefix + ".mtu", e.getMessage());
      return null;
    }
  }
}
