package flushlab.scenario;

import flushlab.client.HeaderSpec;
import flushlab.core.HostPort;
import flushlab.stream.ResponseHeader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The emitter and client sections: every setting's base value (its default unless written), the
 * extra headers, the emitter's address.
 */
final class SettingsReader {
  private static final String HEADER_NAME = "[A-Za-z0-9!#$%&'*+.^_`|~-]+";

  /** Every setting at its default unless written; emitter.headers in its stream. */
  Cell base = Cell.DEFAULTS;

  /**
   * client.headers: what every request carries, resolved from the environment; values never leave
   * memory.
   */
  final RequestHeaders requestHeaders = new RequestHeaders();

  HostPort emitterListen =
      HostPort.parse("emitter.listen", SettingKeys.LISTEN.defaultValue(), true);

  SettingsReader(YamlNode root, ErrorCollector errors) {
    for (Key.Section section : List.of(Key.Section.EMITTER, Key.Section.CLIENT)) {
      YamlNode sec = root.map.get(section.path);
      if (sec == null || !errors.isMap(sec, section.path)) continue;
      errors.onlyKnown(sec, section.path + ".", Keys.names(section));
      for (Key k : Keys.in(section)) {
        YamlNode n = sec.map.get(k.name());
        if (n == null || k == SettingKeys.EMITTER_ON || k == SettingKeys.CLIENT_ON)
          continue; // placements: ClusterReader's
        if (k == SettingKeys.REQUEST_HEADERS) {
          readRequestHeaders(n, k.path(), errors);
        } else if (k.type() == Key.Type.HEADERS) {
          readHeaders(n, k.path(), errors);
        } else if (k == SettingKeys.LISTEN) {
          String v = errors.checked(k, n, k.path());
          if (v != null) emitterListen = HostPort.parse(k.path(), v, true);
        } else {
          String v = errors.checked(k, n, k.path());
          Setting setting = Setting.named(k.name());
          if (v != null && setting != null && setting.key() == k) base = setting.apply(base, v);
        }
      }
    }
  }

  private void readRequestHeaders(YamlNode n, String where, ErrorCollector errors) {
    if (n.kind != YamlNode.Kind.MAP) {
      errors.error(
          n,
          where,
          "must be a map of header name to value, e.g. {Authorization: \"Bearer ${OPENAI_API_KEY}\"}");
      return;
    }
    if (n.map.size() > HeaderSpec.MAX_HEADERS) {
      errors.error(
          n, where, n.map.size() + " headers (allowed: at most " + HeaderSpec.MAX_HEADERS + ")");
      return;
    }
    for (Map.Entry<String, YamlNode> e : n.map.entrySet()) {
      String key = where + "." + e.getKey();
      String v = errors.scalar(e.getValue(), key);
      if (v == null) continue;
      try {
        HeaderSpec spec = HeaderSpec.parse(key, e.getKey() + ": " + v);
        requestHeaders.add(spec, spec.resolve(key, System.getenv()), e.getValue());
      } catch (IllegalArgumentException x) {
        errors.error(
            e.getValue(),
            key,
            x.getMessage().startsWith(key + ": ")
                ? x.getMessage().substring(key.length() + 2)
                : x.getMessage());
      }
    }
  }

  private void readHeaders(YamlNode n, String where, ErrorCollector errors) {
    List<ResponseHeader> headers = new ArrayList<>();
    if (n.kind != YamlNode.Kind.MAP) {
      errors.error(
          n, where, "must be a map of header name to value, e.g. {X-Accel-Buffering: \"no\"}");
      return;
    }
    for (Map.Entry<String, YamlNode> e : n.map.entrySet()) {
      if (!e.getKey().matches(HEADER_NAME)) {
        errors.errorAtKey(n, e.getKey(), where + "." + e.getKey(), "is not a valid header name");
        continue;
      }
      String v = errors.scalar(e.getValue(), where + "." + e.getKey());
      if (v == null) continue;
      try {
        headers.add(new ResponseHeader(e.getKey(), v));
      } catch (IllegalArgumentException x) {
        errors.error(e.getValue(), where + "." + e.getKey(), x.getMessage());
      }
    }
    base = base.withStream(base.stream().withHeaders(headers));
  }
}
