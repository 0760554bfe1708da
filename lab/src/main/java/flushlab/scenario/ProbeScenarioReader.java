package flushlab.scenario;

import flushlab.core.Named;
import flushlab.core.Units;
import flushlab.netpath.NetworkPath;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A probe scenario's keys ({@code probe:} present): the probe's section, the servers, the path.
 * Every key and default comes from {@link Keys}; a stream scenario's key is refused by name.
 */
final class ProbeScenarioReader {
  private final ErrorCollector errors;

  ProbeScenarioReader(ErrorCollector errors) {
    this.errors = errors;
  }

  ProbeScenario read(Path file, String text, YamlNode root, String name, String description) {
    ProbeKind probe = Named.parse(ProbeKind.class, errors.value(root, Keys.PROBE));
    for (String k : Keys.STREAM_ONLY) {
      if (root.map.containsKey(k)) {
        errors.errorAtKey(
            root,
            k,
            k,
            "does not apply to a probe scenario (probe: "
                + probe.text()
                + "); it takes servers: and "
                + probe.text()
                + ":");
      }
    }
    String other = (probe == ProbeKind.UPLOAD ? ProbeKind.KEEPALIVE : ProbeKind.UPLOAD).text();
    if (root.map.containsKey(other))
      errors.errorAtKey(root, other, other, "applies only with probe: " + other);
    NetworkPath.Kind defaultPath = NetworkPath.Kind.named(errors.value(root, Keys.PATH));
    int defaultMtu = Integer.parseInt(errors.value(root, Keys.MTU));
    NetworkPath path =
        errors.networkPath(
            root, "", defaultPath, defaultPath == NetworkPath.Kind.VETH ? defaultMtu : null);
    ProbeScenario.Upload upload = probe == ProbeKind.UPLOAD ? upload(root) : null;
    ProbeScenario.KeepAlive keepAlive = probe == ProbeKind.KEEPALIVE ? keepAlive(root) : null;
    List<ProbeScenario.Server> servers = servers(root, defaultPath, defaultMtu);
    if (errors.any() || path == null) return null;
    return new ProbeScenario(
        name, description, file, text, probe, path, upload, keepAlive, servers);
  }

  private YamlNode section(YamlNode root, Key section, Key.Section keys) {
    YamlNode n = root.map.get(section.name());
    if (n == null) return null;
    if (!errors.isMap(n, section.name())) return null;
    errors.onlyKnown(n, section.name() + ".", Keys.names(keys));
    return n;
  }

  private String value(YamlNode section, Key k) {
    return section == null ? k.defaultValue() : errors.value(section, k);
  }

  private ProbeScenario.Upload upload(YamlNode root) {
    YamlNode u = section(root, Keys.UPLOAD_SECTION, Key.Section.UPLOAD);
    List<Integer> sizes = new ArrayList<>();
    YamlNode list = u == null ? null : u.map.get(ProbeKeys.SIZES.name());
    if (list == null) {
      for (String s : ProbeKeys.SIZES.defaultValue().replaceAll("[\\[\\] ]", "").split(","))
        sizes.add((int) Units.parseBytes(s));
    } else if (list.kind != YamlNode.Kind.LIST || list.list.size() < 2 || list.list.size() > 64) {
      errors.error(list, ProbeKeys.SIZES.path(), "must be " + ProbeKeys.SIZES.allowed());
    } else {
      Set<Integer> seen = new LinkedHashSet<>();
      for (YamlNode item : list.list) {
        String v = errors.scalar(item, ProbeKeys.SIZES.path());
        if (v == null) continue;
        long b;
        try {
          b = Units.parseBytes(v.trim());
        } catch (IllegalArgumentException e) {
          errors.error(
              item,
              ProbeKeys.SIZES.path(),
              "'" + v + "' is not a size (e.g. 16KiB, 1MiB, 390000B)");
          continue;
        }
        if (b < 1 || b > 64L << 20) {
          errors.error(item, ProbeKeys.SIZES.path(), v + " is out of range (allowed: 1 B..64 MiB)");
          continue;
        }
        if (!seen.add((int) b)) errors.error(item, ProbeKeys.SIZES.path(), v + " is listed twice");
      }
      sizes.addAll(seen);
    }
    String attempts = value(u, ProbeKeys.ATTEMPTS);
    String stall = value(u, ProbeKeys.STALL_OVER);
    String tolerance = value(u, ProbeKeys.BISECT_TOLERANCE);
    String timeout = value(u, ProbeKeys.ATTEMPT_TIMEOUT);
    return new ProbeScenario.Upload(
        List.copyOf(sizes),
        Integer.parseInt(attempts),
        Units.parseDurationNanos(stall),
        Double.parseDouble(ProbeKeys.BISECT_TOLERANCE.check(tolerance)),
        Units.parseDurationNanos(timeout));
  }

  private ProbeScenario.KeepAlive keepAlive(YamlNode root) {
    YamlNode k = section(root, Keys.KEEPALIVE_SECTION, Key.Section.KEEPALIVE);
    String clients = value(k, ProbeKeys.KA_CLIENT_NODELAY);
    List<Boolean> noDelay =
        clients.equals("both") ? List.of(true, false) : List.of(clients.equals("on"));
    return new ProbeScenario.KeepAlive(
        Integer.parseInt(value(k, ProbeKeys.KA_REQUESTS)),
        (int) Units.parseBytes(value(k, ProbeKeys.KA_BODY)),
        noDelay,
        Units.parseDurationNanos(value(k, ProbeKeys.KA_STALL_OVER)));
  }

  private List<ProbeScenario.Server> servers(
      YamlNode root, NetworkPath.Kind defaultPath, int defaultMtu) {
    List<ProbeScenario.Server> out = new ArrayList<>();
    YamlNode list = root.map.get(Keys.SERVERS.name());
    if (list == null) {
      errors.errorAtKey(
          root,
          "servers",
          "servers",
          "required: a list of the lab's upload servers, e.g. - {name: stock}");
      return out;
    }
    if (list.kind != YamlNode.Kind.LIST || list.list.isEmpty()) {
      errors.error(list, "servers", "must be a non-empty list of servers, e.g. - {name: stock}");
      return out;
    }
    Set<String> names = new LinkedHashSet<>();
    for (int i = 0; i < list.list.size(); i++) {
      YamlNode s = list.list.get(i);
      String p = "servers[" + i + "]";
      if (!errors.isMap(s, p)) continue;
      errors.onlyKnown(s, p + ".", Keys.names(Key.Section.SERVER));
      if (!s.map.containsKey("name")) {
        errors.error(s, p + ".name", "required (a short name for the tables)");
        continue;
      }
      String name = errors.checked(ProbeKeys.SERVER_NAME, s.map.get("name"), p + ".name");
      if (name == null) continue;
      if (!names.add(name))
        errors.error(s.map.get("name"), p + ".name", "'" + name + "' is used by another server");
      String rcvbuf =
          s.map.containsKey("rcvbuf")
              ? errors.checked(ProbeKeys.SERVER_RCVBUF, s.map.get("rcvbuf"), p + ".rcvbuf")
              : null;
      String delay =
          s.map.containsKey("read_delay")
              ? errors.checked(
                  ProbeKeys.SERVER_READ_DELAY, s.map.get("read_delay"), p + ".read_delay")
              : ProbeKeys.SERVER_READ_DELAY.defaultValue();
      String noDelay =
          s.map.containsKey("nodelay")
              ? errors.checked(ProbeKeys.SERVER_NODELAY, s.map.get("nodelay"), p + ".nodelay")
              : ProbeKeys.SERVER_NODELAY.defaultValue();
      NetworkPath.Kind kind =
          s.map.containsKey("path")
              ? NetworkPath.Kind.named(
                  errors.checked(ProbeKeys.SERVER_PATH, s.map.get("path"), p + ".path"))
              : defaultPath;
      Integer mtu = kind == NetworkPath.Kind.VETH ? Integer.valueOf(defaultMtu) : null;
      if (s.map.containsKey("mtu")) {
        String m = errors.checked(ProbeKeys.SERVER_MTU, s.map.get("mtu"), p + ".mtu");
        mtu = m == null ? null : Integer.valueOf(m);
      }
      NetworkPath path =
          kind == null ? null : errors.networkPath(s.map.getOrDefault("mtu", s), p, kind, mtu);
      if (delay == null
          || noDelay == null
          || path == null
          || (s.map.containsKey("rcvbuf") && rcvbuf == null)) continue;
      out.add(
          new ProbeScenario.Server(
              name,
              rcvbuf == null ? 0 : (int) Units.parseBytes(rcvbuf),
              Units.parseDurationNanos(delay),
              noDelay.equals("true"),
              path));
    }
    return out;
  }
}
