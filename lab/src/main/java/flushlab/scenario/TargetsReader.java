package flushlab.scenario;

import flushlab.core.HostPort;
import flushlab.core.Named;
import flushlab.netpath.NetworkPath;
import flushlab.proxy.ProxyKind;
import flushlab.relay.shaper.ShaperRegistry;
import flushlab.targets.Target;
import flushlab.targets.TargetKind;
import flushlab.tls.ClientTls;
import flushlab.tls.LabCertificate;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The targets list: one {@link Target} record per entry, each kind taking only the keys the
 * registry gives it ({@link Keys#targetKeys}); a key of another kind is refused by name.
 */
final class TargetsReader {
  /** Targets one scenario may list: each relay and proxy it starts runs for the whole scenario. */
  static final int MAX_TARGETS = 64;

  private final ErrorCollector errors;
  private final Path scenarioPath;
  private final NetworkPath.Kind defaultPath;
  private final int defaultMtu;

  /**
   * The scenario's own path: the direct path's and certification's, and every target's without its
   * own.
   */
  final NetworkPath path;

  final List<Target> targets = new ArrayList<>();

  TargetsReader(YamlNode root, Path scenarioPath, ErrorCollector errors) {
    this.errors = errors;
    this.scenarioPath = scenarioPath;
    this.defaultPath = NetworkPath.Kind.named(errors.value(root, Keys.PATH));
    this.defaultMtu = Integer.parseInt(errors.value(root, Keys.MTU));
    this.path =
        errors.networkPath(
            root, "", defaultPath, defaultPath == NetworkPath.Kind.VETH ? defaultMtu : null);
    YamlNode list = root.map.get(Keys.TARGETS.name());
    if (list == null) {
      errors.errorAtKey(
          root,
          "targets",
          "targets",
          "required: a list of targets, e.g. - {name: direct, kind: direct}");
      return;
    }
    if (list.kind != YamlNode.Kind.LIST || list.list.isEmpty()) {
      errors.error(list, "targets", "must be a non-empty list of targets");
      return;
    }
    if (list.list.size() > MAX_TARGETS) {
      // each target is a relay or a proxy process started for the whole run: a long list is a
      // mistake, or an attack on the host
      errors.error(
          list,
          "targets",
          list.list.size()
              + " targets (allowed: at most "
              + MAX_TARGETS
              + "; each relay or proxy runs for "
              + "the whole scenario: split the list over scenarios)");
      return;
    }
    Set<String> names = new LinkedHashSet<>();
    for (int i = 0; i < list.list.size(); i++) {
      Target t = read(list.list.get(i), "targets[" + i + "]", names);
      if (t != null) targets.add(t);
    }
  }

  private Target read(YamlNode t, String p, Set<String> names) {
    if (!errors.isMap(t, p)) return null;
    errors.onlyKnown(t, p + ".", Keys.names(Key.Section.TARGET));
    if (!t.map.containsKey("name")) {
      errors.error(t, p + ".name", "required (a short name for the tables)");
      return null;
    }
    String name = errors.checked(TargetKeys.TARGET_NAME, t.map.get("name"), p + ".name");
    if (name == null) return null;
    if (!names.add(name))
      errors.error(t.map.get("name"), p + ".name", "'" + name + "' is used by another target");
    if (!t.map.containsKey("kind")) {
      errors.error(t, p + ".kind", "required: direct, relay, process or external");
      return null;
    }
    String kindName = errors.scalar(t.map.get("kind"), p + ".kind");
    if (kindName == null) return null;
    TargetKind kind =
        TargetKeys.KIND.choices().contains(kindName)
            ? Named.parse(TargetKind.class, kindName)
            : null;
    if (kind == null) {
      errors.error(
          t.map.get("kind"),
          p + ".kind",
          "'" + kindName + "' is not one of " + String.join(", ", TargetKeys.KIND.choices()));
      return null;
    }
    List<String> mine = Keys.targetKeys(kind);
    for (String k : t.map.keySet()) {
      if (Keys.names(Key.Section.TARGET).contains(k) && !mine.contains(k)) {
        errors.errorAtKey(
            t,
            k,
            p + "." + k,
            "does not apply to kind "
                + kind.text()
                + (kind == TargetKind.RELAY ? " (a relay always fronts the lab's emitter)" : ""));
      }
    }
    NetworkPath path = kind == TargetKind.EXTERNAL ? null : targetPath(t, p);
    return switch (kind) {
      case DIRECT ->
          path == null ? null : new Target.Direct(name, path, flag(t, p, TargetKeys.TLS));
      case RELAY -> relay(t, p, name, path);
      case PROCESS -> process(t, p, name, path);
      case EXTERNAL -> external(t, p, name);
    };
  }

  /**
   * The target's own path and MTU, else the scenario's; an MTU on a loopback target is refused by
   * name.
   */
  private NetworkPath targetPath(YamlNode t, String p) {
    NetworkPath.Kind kindOfPath =
        t.map.containsKey("path")
            ? NetworkPath.Kind.named(
                errors.checked(TargetKeys.TARGET_PATH, t.map.get("path"), p + ".path"))
            : defaultPath;
    if (kindOfPath == null) return null;
    Integer mtu = null;
    if (t.map.containsKey("mtu")) {
      String v = errors.checked(TargetKeys.TARGET_MTU, t.map.get("mtu"), p + ".mtu");
      if (v == null) return null;
      mtu = Integer.parseInt(v);
    } else if (kindOfPath == NetworkPath.Kind.VETH) {
      mtu = defaultMtu;
    }
    return errors.networkPath(t.map.getOrDefault("mtu", t), p, kindOfPath, mtu);
  }

  private Target relay(YamlNode t, String p, String name, NetworkPath path) {
    List<ShaperRegistry.Spec> specs = new ArrayList<>();
    YamlNode sh = t.map.get(TargetKeys.SHAPERS.name());
    if (sh == null || sh.kind != YamlNode.Kind.LIST || sh.list.isEmpty()) {
      errors.error(
          sh == null ? t : sh,
          p + ".shapers",
          "required for kind relay: a list such as [byte-threshold=2KiB]");
    } else {
      for (YamlNode item : sh.list) {
        String spec = errors.scalar(item, p + ".shapers");
        if (spec == null) continue;
        try {
          specs.addAll(ShaperRegistry.parseChain(spec));
        } catch (IllegalArgumentException e) {
          errors.error(item, p + ".shapers", e.getMessage());
        }
      }
    }
    YamlNode pool = t.map.get(TargetKeys.POOL_UPSTREAM.name());
    String pooled =
        pool == null
            ? TargetKeys.POOL_UPSTREAM.defaultValue()
            : errors.checked(TargetKeys.POOL_UPSTREAM, pool, p + ".pool_upstream");
    return path == null
        ? null
        : new Target.Relay(
            name, List.copyOf(specs), "true".equals(pooled), path, flag(t, p, TargetKeys.TLS));
  }

  private Target external(YamlNode t, String p, String name) {
    YamlNode addressNode = t.map.get(TargetKeys.ADDRESS.name());
    if (addressNode == null)
      errors.error(t, p + ".address", "required for kind external: host:port");
    String address =
        addressNode == null
            ? null
            : errors.checked(TargetKeys.ADDRESS, addressNode, p + ".address");
    YamlNode markNode = t.map.get(TargetKeys.EXTERNAL.name());
    boolean marked =
        markNode != null
            && "true".equals(errors.checked(TargetKeys.EXTERNAL, markNode, p + ".external"));
    String reason =
        t.map.containsKey("reason") ? errors.scalar(t.map.get("reason"), p + ".reason") : null;
    if (!marked) {
      errors.error(
          t.map.getOrDefault("external", t),
          p + ".external",
          "the lab measures only servers it started; to measure "
              + (address == null ? "this address" : address)
              + " anyway, mark it external: true and say why in reason:");
    } else if (reason == null || reason.isBlank()) {
      errors.error(
          t.map.getOrDefault("reason", t),
          p + ".reason",
          "required with external: true (why measuring a server the lab did not start is right)");
    }
    ClientTls tls = externalTls(t, p);
    if (address == null || !marked || reason == null || reason.isBlank()) return null;
    return new Target.External(name, HostPort.parse(p + ".address", address, false), reason, tls);
  }

  /** A boolean target key, its default when absent (errors are collected; false after one). */
  private boolean flag(YamlNode t, String p, Key key) {
    YamlNode n = t.map.get(key.name());
    String v = n == null ? key.defaultValue() : errors.checked(key, n, p + "." + key.name());
    return "true".equals(v);
  }

  /** tls, ca_file and insecure of an external target: null for plain TCP. */
  private ClientTls externalTls(YamlNode t, String p) {
    boolean tls = flag(t, p, TargetKeys.TLS);
    boolean insecure = flag(t, p, TargetKeys.INSECURE);
    YamlNode caNode = t.map.get(TargetKeys.CA_FILE.name());
    if (!tls) {
      for (Key k : List.of(TargetKeys.CA_FILE, TargetKeys.INSECURE)) {
        if (t.map.containsKey(k.name()))
          errors.errorAtKey(t, k.name(), p + "." + k.name(), "applies only with tls: true");
      }
      return null;
    }
    if (caNode != null && insecure) {
      errors.errorAtKey(
          t,
          TargetKeys.INSECURE.name(),
          p + ".insecure",
          "contradicts ca_file: give one (a CA to check against) or the other (no check)");
      return null;
    }
    if (insecure) return ClientTls.insecure();
    if (caNode == null) return ClientTls.system();
    String ca = errors.scalar(caNode, p + ".ca_file");
    if (ca == null) return null;
    Path file = scenarioPath.toAbsolutePath().getParent().resolve(ca).normalize();
    try {
      LabCertificate.readPem(p + ".ca_file", file);
    } catch (IllegalArgumentException e) {
      errors.error(
          caNode, p + ".ca_file", e.getMessage().replaceFirst("^\\Q" + p + ".ca_file\\E:? ?", ""));
      return null;
    }
    return ClientTls.caFile(file);
  }

  private Target process(YamlNode t, String p, String name, NetworkPath path) {
    String proxyName =
        t.map.containsKey("proxy") ? errors.scalar(t.map.get("proxy"), p + ".proxy") : null;
    ProxyKind proxy = proxyName == null ? null : ProxyKind.of(proxyName);
    if (proxy == null) {
      errors.error(
          t.map.getOrDefault("proxy", t),
          p + ".proxy",
          (proxyName == null ? "required" : "'" + proxyName + "' is not one")
              + " of "
              + String.join(", ", TargetKeys.PROXY.choices()));
    }
    String cfg =
        t.map.containsKey("config") ? errors.scalar(t.map.get("config"), p + ".config") : null;
    Path config = null;
    if (cfg == null) {
      errors.error(
          t.map.getOrDefault("config", t),
          p + ".config",
          "required: a config template, relative to this file (e.g. proxies/haproxy-stock.cfg)");
    } else {
      // a path with a mistake of its own is reported by itself; the template is then read as for
      // loopback, which asks the least of it
      config =
          templateInScenarioFolder(
              t.map.get("config"), p + ".config", cfg, path == null ? NetworkPath.LOOPBACK : path);
    }
    return proxy == null || config == null || path == null
        ? null
        : new Target.Process(name, proxy, config, path);
  }

  private Path templateInScenarioFolder(YamlNode at, String key, String cfg, NetworkPath path) {
    try {
      return ConfigTemplate.resolve(scenarioPath.toAbsolutePath().getParent(), cfg, path);
    } catch (IllegalArgumentException e) {
      errors.error(at, key, e.getMessage());
      return null;
    }
  }
}
