package flushlab.scenario;

import flushlab.core.HostPort;
import flushlab.core.Units;
import flushlab.relay.shaper.ShaperRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads and checks a scenario file. Every mistake gives one message naming the file, line,
 * column, the key, and what is allowed; all mistakes are reported together; nothing runs and
 * nothing is written until the file is clean.
 */
public final class ScenarioLoader {
  public static final int MAX_CELLS = 1000;
  /** A scenario is a page of YAML; anything near this is a mistake (or an attack on the parser). */
  public static final long MAX_FILE_BYTES = 1L << 20;
  /** A config template is a page of proxy config. */
  public static final long MAX_TEMPLATE_BYTES = 256L << 10;
  public static final Set<String> TOP_KEYS = Set.of("name", "description", "emitter", "client", "targets", "sweep",
      "runs", "guards", "flush_trigger_map", "adaptive");
  static final List<String> TOP_ORDER = List.of("name", "description", "emitter", "client", "targets", "sweep",
      "runs", "guards", "flush_trigger_map", "adaptive");
  static final List<String> TARGET_KEYS = List.of("name", "kind", "shapers", "pool_upstream", "address", "external", "reason", "proxy", "config");
  static final List<String> GUARD_KEYS = List.of("pacing_tolerance", "certify");
  static final List<String> CERTIFY_KEYS = List.of("runs", "max_frames_per_read", "frames", "frame_size", "interval");
  static final List<String> ADAPTIVE_KEYS = List.of("target", "parameter", "low", "high", "tolerance", "coalescing_above", "max_cells");

  private final String file;
  private final Path scenarioPath;
  private HostPort emitterListen = new HostPort("127.0.0.1", 0);
  private final List<String> errors = new ArrayList<>();
  private String firstCellEndpoint;

  private ScenarioLoader(Path path) {
    this.file = path.toString();
    this.scenarioPath = path;
  }

  public static Scenario load(Path path) throws ScenarioError {
    String text;
    try {
      long size = Files.size(path);
      if (size > MAX_FILE_BYTES) {
        throw new ScenarioError(List.of(path + ": the scenario is " + size + " bytes (allowed: at most " + MAX_FILE_BYTES
            + " bytes); nothing was read"));
      }
      text = Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ScenarioError(List.of(path + ": cannot read the scenario: " + flushlab.core.IoErrors.describe(e)));
    }
    return parse(path, text);
  }

  public static Scenario parse(Path path, String text) throws ScenarioError {
    ScenarioLoader l = new ScenarioLoader(path);
    YamlNode root;
    try {
      root = YamlNode.parse(text);
    } catch (YamlNode.SyntaxError e) {
      throw new ScenarioError(List.of(path + ":" + e.line + ":" + e.column + ": " + e.getMessage()));
    }
    Scenario s = l.build(path, text, root);
    if (!l.errors.isEmpty()) throw new ScenarioError(l.errors);
    return s;
  }

  private void error(YamlNode at, String key, String message) {
    errors.add(file + ":" + at.line + ":" + at.column + ": " + key + ": " + message);
  }

  private void errorAtKey(YamlNode map, String key, String path, String message) {
    int[] pos = map.keyPositions.get(key);
    errors.add(file + ":" + (pos == null ? map.line : pos[0]) + ":" + (pos == null ? map.column : pos[1]) + ": " + path + ": " + message);
  }

  /** Unknown keys in a map: each named at its own line, with the known ones. */
  private void onlyKnown(YamlNode map, String prefix, List<String> known) {
    for (String k : map.map.keySet()) {
      if (!known.contains(k)) {
        errorAtKey(map, k, prefix + k, "unknown key (allowed here: " + String.join(", ", known) + ")");
      }
    }
  }

  private boolean isMap(YamlNode n, String key) {
    if (n.kind != YamlNode.Kind.MAP) {
      error(n, key, "must be a map of key: value lines");
      return false;
    }
    return true;
  }

  private String scalar(YamlNode n, String key) {
    if (n.kind != YamlNode.Kind.SCALAR) {
      error(n, key, "must be a single value, not " + (n.kind == YamlNode.Kind.NULL ? "empty" : n.kind.toString().toLowerCase()));
      return null;
    }
    return n.text;
  }

  private Scenario build(Path path, String text, YamlNode root) {
    if (root.kind != YamlNode.Kind.MAP) {
      error(root, "(document)", "a scenario must be a map with at least name: and targets:");
      return null;
    }
    onlyKnown(root, "", TOP_ORDER);
    String name = null;
    if (root.map.containsKey("name")) {
      name = scalar(root.map.get("name"), "name");
      if (name != null && !name.matches("[A-Za-z0-9._-]{1,64}")) {
        error(root.map.get("name"), "name", "'" + name + "' must be 1-64 letters, digits, '.', '_' or '-' (it names the results folder)");
      }
    } else {
      errorAtKey(root, "name", "name", "required (the scenario's name, e.g. name: quickstart)");
    }
    String description = root.map.containsKey("description") ? scalar(root.map.get("description"), "description") : "";

    Map<String, String> base = new LinkedHashMap<>();
    for (SettingKey k : SettingKey.ALL) if (k.defaultValue() != null) base.put(k.name(), k.defaultValue());
    Map<String, String> headers = new LinkedHashMap<>();
    for (String section : List.of("emitter", "client")) {
      YamlNode sec = root.map.get(section);
      if (sec == null || !isMap(sec, section)) continue;
      List<String> known = new ArrayList<>(SettingKey.names(section));
      if (section.equals("emitter")) known.add("listen");
      onlyKnown(sec, section + ".", known);
      if (section.equals("emitter") && sec.map.containsKey("listen")) {
        String v = scalar(sec.map.get("listen"), "emitter.listen");
        if (v != null) {
          try {
            emitterListen = HostPort.parse("emitter.listen", v, true);
          } catch (IllegalArgumentException ex) {
            error(sec.map.get("listen"), "emitter.listen", "'" + v + "' is not host:port (e.g. 127.0.0.1:8090)");
          }
        }
      }
      for (Map.Entry<String, YamlNode> e : sec.map.entrySet()) {
        SettingKey k = SettingKey.byName(e.getKey());
        if (k == null || !k.section().equals(section)) continue;
        String where = section + "." + e.getKey();
        if (k.type() == SettingKey.Type.HEADERS) {
          readHeaders(e.getValue(), where, headers);
          continue;
        }
        String v = scalar(e.getValue(), where);
        if (v == null) continue;
        try {
          base.put(k.name(), k.check(v));
        } catch (IllegalArgumentException ex) {
          error(e.getValue(), where, ex.getMessage() + "; expected " + k.allowed());
        }
      }
    }

    // sweep: setting -> list of values; the cells are the cross product
    LinkedHashMap<String, List<String>> sweep = new LinkedHashMap<>();
    YamlNode sw = root.map.get("sweep");
    if (sw != null && isMap(sw, "sweep")) {
      List<String> sweepable = new ArrayList<>();
      for (SettingKey k : SettingKey.ALL) if (k.type() != SettingKey.Type.HEADERS) sweepable.add(k.name());
      onlyKnown(sw, "sweep.", sweepable);
      for (Map.Entry<String, YamlNode> e : sw.map.entrySet()) {
        SettingKey k = SettingKey.byName(e.getKey());
        if (k == null || k.type() == SettingKey.Type.HEADERS) continue;
        String where = "sweep." + e.getKey();
        YamlNode list = e.getValue();
        if (list.kind != YamlNode.Kind.LIST || list.list.isEmpty()) {
          error(list, where, "must be a non-empty list of values, e.g. [60B, 1100B]");
          continue;
        }
        List<String> values = new ArrayList<>();
        for (YamlNode item : list.list) {
          String v = scalar(item, where);
          if (v == null) continue;
          try {
            values.add(k.check(v));
          } catch (IllegalArgumentException ex) {
            error(item, where, ex.getMessage() + "; expected " + k.allowed());
          }
        }
        if (new LinkedHashSet<>(values).size() != values.size()) error(list, where, "a value is listed twice");
        sweep.put(k.name(), values);
      }
    }
    // The size of the cross product is known before it is built: a 3000 x 3000 sweep is refused
    // here, not after allocating nine million cells.
    double cellCount = 1;
    for (List<String> values : sweep.values()) cellCount *= values.size();
    List<Cell> cells = List.of();
    if (cellCount > MAX_CELLS) {
      error(sw, "sweep", String.format("makes %.0f cells (allowed: at most %d)", cellCount, MAX_CELLS));
    } else {
      cells = crossProduct(base, headers, sweep);
      for (Cell c : cells) checkCell(c, root);
      checkEndpointSettings(cells, sweep, root);
    }

    List<TargetSpec> targets = readTargets(root);
    int runs = 3;
    if (root.map.containsKey("runs")) runs = intValue(root.map.get("runs"), "runs", 1, 1000, 3);
    Scenario.Guards guards = readGuards(root.map.get("guards"), base, headers);
    boolean map = cells.size() > 1;
    if (root.map.containsKey("flush_trigger_map")) {
      String v = scalar(root.map.get("flush_trigger_map"), "flush_trigger_map");
      if (v != null && !v.equals("true") && !v.equals("false")) {
        error(root.map.get("flush_trigger_map"), "flush_trigger_map", "'" + v + "' is not true or false");
      } else if (v != null) {
        map = v.equals("true");
      }
    }
    firstCellEndpoint = cells.isEmpty() ? null : cells.get(0).get("endpoint");
    Scenario.Adaptive adaptive = readAdaptive(root.map.get("adaptive"), targets);
    if (!errors.isEmpty()) return null;
    Map<String, Object> resolved = new LinkedHashMap<>();
    resolved.put("base", base);
    resolved.put("headers", headers);
    resolved.put("sweep", sweep);
    resolved.put("runs", runs);
    return new Scenario(name, description == null ? "" : description, path, text, resolved, cells,
        new ArrayList<>(sweep.keySet()), targets, runs, guards, map, adaptive, emitterListen);
  }

  private void readHeaders(YamlNode n, String where, Map<String, String> into) {
    if (n.kind != YamlNode.Kind.MAP) {
      error(n, where, "must be a map of header name to value, e.g. {X-Accel-Buffering: \"no\"}");
      return;
    }
    for (Map.Entry<String, YamlNode> e : n.map.entrySet()) {
      if (!e.getKey().matches("[A-Za-z0-9!#$%&'*+.^_`|~-]+")) {
        errorAtKey(n, e.getKey(), where + "." + e.getKey(), "is not a valid header name");
        continue;
      }
      String v = scalar(e.getValue(), where + "." + e.getKey());
      if (v != null) into.put(e.getKey(), v);
    }
  }

  private static List<Cell> crossProduct(Map<String, String> base, Map<String, String> headers, LinkedHashMap<String, List<String>> sweep) {
    List<Cell> cells = new ArrayList<>();
    cells.add(new Cell(0, new LinkedHashMap<>(), new LinkedHashMap<>(base), headers));
    for (Map.Entry<String, List<String>> e : sweep.entrySet()) {
      List<Cell> next = new ArrayList<>();
      for (Cell c : cells) for (String v : e.getValue()) next.add(c.with(e.getKey(), v));
      cells = next;
    }
    List<Cell> indexed = new ArrayList<>();
    for (int i = 0; i < cells.size(); i++) indexed.add(cells.get(i).withIndex(i));
    return indexed;
  }

  /** Combinations that are each fine alone but impossible together. */
  private void checkCell(Cell c, YamlNode root) {
    long streamNanos = c.nanos("think") + c.nanos("interval") * (long) (c.integer("frames") - 1);
    if (streamNanos > 3_600_000_000_000L) {
      error(where(root, "interval"), "emitter.interval", "think + interval x frames is over one hour in cell " + c.label());
    }
  }

  /** sse-only settings that would silently do nothing where every cell is a chat stream (or a swept one is). */
  private void checkEndpointSettings(List<Cell> cells, Map<String, List<String>> sweep, YamlNode root) {
    boolean anyChat = cells.stream().anyMatch(c -> c.get("endpoint").equals("chat"));
    boolean allChat = anyChat && cells.stream().allMatch(c -> c.get("endpoint").equals("chat"));
    if (!anyChat) return;
    for (String key : SSE_ONLY) {
      if (sweep.containsKey(key)) {
        error(where(root, key), "sweep." + key, "does nothing for endpoint: chat (chat events are sized by their JSON and "
            + "always chunked); sweep it with endpoint: sse, or sweep frames or interval");
      } else if (allChat && setIn(root, "emitter", key)) {
        error(where(root, key), "emitter." + key, "does nothing for endpoint: chat; remove it, or use endpoint: sse");
      }
    }
  }

  static final List<String> SSE_ONLY = List.of("frame_size", "transfer", "total", "x_accel_buffering", "headers");

  private static boolean setIn(YamlNode root, String section, String key) {
    YamlNode sec = root.map.get(section);
    return sec != null && sec.kind == YamlNode.Kind.MAP && sec.map.containsKey(key);
  }

  /** Where a setting was written: its value in sweep or emitter/client, else the document. */
  private static YamlNode where(YamlNode root, String key) {
    for (String section : List.of("sweep", "emitter", "client")) {
      YamlNode sec = root.map.get(section);
      if (sec != null && sec.kind == YamlNode.Kind.MAP && sec.map.containsKey(key)) return sec.map.get(key);
    }
    return root;
  }

  private List<TargetSpec> readTargets(YamlNode root) {
    List<TargetSpec> out = new ArrayList<>();
    YamlNode list = root.map.get("targets");
    if (list == null) {
      errorAtKey(root, "targets", "targets", "required: a list of targets, e.g. - {name: direct, kind: direct}");
      return out;
    }
    if (list.kind != YamlNode.Kind.LIST || list.list.isEmpty()) {
      error(list, "targets", "must be a non-empty list of targets");
      return out;
    }
    Set<String> names = new LinkedHashSet<>();
    for (int i = 0; i < list.list.size(); i++) {
      YamlNode t = list.list.get(i);
      String p = "targets[" + i + "]";
      if (!isMap(t, p)) continue;
      onlyKnown(t, p + ".", TARGET_KEYS);
      String name = t.map.containsKey("name") ? scalar(t.map.get("name"), p + ".name") : null;
      if (name == null) {
        if (!t.map.containsKey("name")) error(t, p + ".name", "required (a short name for the tables)");
        continue;
      }
      if (!name.matches("[A-Za-z0-9._()-]{1,48}")) {
        error(t.map.get("name"), p + ".name", "'" + name + "' must be 1-48 letters, digits or . _ - ( )");
      }
      if (!names.add(name)) error(t.map.get("name"), p + ".name", "'" + name + "' is used by another target");
      String kind = t.map.containsKey("kind") ? scalar(t.map.get("kind"), p + ".kind") : null;
      if (kind == null) {
        if (!t.map.containsKey("kind")) error(t, p + ".kind", "required: direct, relay, process or external");
        continue;
      }
      switch (kind) {
        case "direct":
          for (String k : List.of("shapers", "pool_upstream", "address", "external", "reason", "proxy", "config")) {
            if (t.map.containsKey(k)) errorAtKey(t, k, p + "." + k, "does not apply to kind direct");
          }
          out.add(TargetSpec.direct(name));
          break;
        case "relay": {
          for (String k : List.of("address", "external", "reason", "proxy", "config")) {
            if (t.map.containsKey(k)) errorAtKey(t, k, p + "." + k, "does not apply to kind relay (a relay always fronts the lab's emitter)");
          }
          List<ShaperRegistry.Spec> specs = new ArrayList<>();
          YamlNode sh = t.map.get("shapers");
          if (sh == null || sh.kind != YamlNode.Kind.LIST || sh.list.isEmpty()) {
            error(sh == null ? t : sh, p + ".shapers", "required for kind relay: a list such as [byte-threshold=2KiB]");
          } else {
            for (YamlNode item : sh.list) {
              String spec = scalar(item, p + ".shapers");
              if (spec == null) continue;
              try {
                specs.add(ShaperRegistry.parse(spec));
              } catch (IllegalArgumentException e) {
                error(item, p + ".shapers", e.getMessage());
              }
            }
          }
          boolean pool = t.map.containsKey("pool_upstream") && boolValue(t.map.get("pool_upstream"), p + ".pool_upstream");
          out.add(new TargetSpec(name, TargetSpec.Kind.RELAY, specs, pool, null, 0, null, null, null));
          break;
        }
        case "external": {
          String address = t.map.containsKey("address") ? scalar(t.map.get("address"), p + ".address") : null;
          if (address == null && !t.map.containsKey("address")) error(t, p + ".address", "required for kind external: host:port");
          boolean marked = t.map.containsKey("external") && boolValue(t.map.get("external"), p + ".external");
          String reason = t.map.containsKey("reason") ? scalar(t.map.get("reason"), p + ".reason") : null;
          if (!marked) {
            error(t.map.getOrDefault("external", t), p + ".external",
                "the lab measures only servers it started; to measure " + (address == null ? "this address" : address)
                    + " anyway, mark it external: true and say why in reason:");
          } else if (reason == null || reason.isBlank()) {
            error(t.map.getOrDefault("reason", t), p + ".reason", "required with external: true (why measuring a server the lab did not start is right)");
          }
          HostPort hp = null;
          if (address != null) {
            try {
              hp = HostPort.parse(p + ".address", address, false);
            } catch (IllegalArgumentException e) {
              error(t.map.get("address"), p + ".address", "'" + address + "' is not host:port");
            }
          }
          if (hp != null && marked && reason != null) {
            out.add(new TargetSpec(name, TargetSpec.Kind.EXTERNAL, List.of(), false, hp.host(), hp.port(), reason, null, null));
          }
          break;
        }
        case "process": {
          for (String k : List.of("shapers", "pool_upstream", "address", "external", "reason")) {
            if (t.map.containsKey(k)) errorAtKey(t, k, p + "." + k, "does not apply to kind process");
          }
          String proxyName = t.map.containsKey("proxy") ? scalar(t.map.get("proxy"), p + ".proxy") : null;
          flushlab.proxy.ProxyKind proxy = proxyName == null ? null : flushlab.proxy.ProxyKind.of(proxyName);
          if (proxy == null) {
            error(t.map.getOrDefault("proxy", t), p + ".proxy", (proxyName == null ? "required" : "'" + proxyName + "' is not one")
                + " of nginx, haproxy, caddy");
          }
          String cfg = t.map.containsKey("config") ? scalar(t.map.get("config"), p + ".config") : null;
          Path config = null;
          if (cfg == null) {
            error(t.map.getOrDefault("config", t), p + ".config", "required: a config template, relative to this file (e.g. proxies/haproxy-stock.cfg)");
          } else {
            config = templateInScenarioFolder(t.map.get("config"), p + ".config", cfg);
          }
          if (proxy != null && config != null) {
            out.add(new TargetSpec(name, TargetSpec.Kind.PROCESS, List.of(), false, null, 0, null, proxy, config));
          }
          break;
        }
        default:
          error(t.map.get("kind"), p + ".kind", "'" + kind + "' is not one of direct, relay, process, external");
      }
    }
    return out;
  }

  private Scenario.Guards readGuards(YamlNode g, Map<String, String> base, Map<String, String> headers) {
    long tolerance = 5_000_000L;
    int runs = 3;
    double ceiling = 1.10;
    Map<String, String> cert = new LinkedHashMap<>(base);
    cert.put("endpoint", "sse");
    cert.put("frames", "41");
    cert.put("frame_size", "60B");
    cert.put("interval", "50ms");
    cert.put("think", "0ms");
    cert.put("transfer", "chunked");
    cert.remove("total");
    cert.put("slow_reader", "0ms");
    cert.put("requests", "1");
    cert.put("concurrency", "1");
    if (g != null && isMap(g, "guards")) {
      onlyKnown(g, "guards.", GUARD_KEYS);
      if (g.map.containsKey("pacing_tolerance")) {
        String v = scalar(g.map.get("pacing_tolerance"), "guards.pacing_tolerance");
        if (v != null) {
          try {
            tolerance = Units.parseDurationNanos(v);
            if (tolerance < 10_000 || tolerance > 10_000_000_000L) throw new IllegalArgumentException(v + " is out of range");
          } catch (IllegalArgumentException e) {
            error(g.map.get("pacing_tolerance"), "guards.pacing_tolerance", e.getMessage() + "; expected a duration 10us..10s");
          }
        }
      }
      YamlNode c = g.map.get("certify");
      if (c != null && isMap(c, "guards.certify")) {
        onlyKnown(c, "guards.certify.", CERTIFY_KEYS);
        if (c.map.containsKey("runs")) runs = intValue(c.map.get("runs"), "guards.certify.runs", 1, 100, 3);
        if (c.map.containsKey("max_frames_per_read")) {
          String v = scalar(c.map.get("max_frames_per_read"), "guards.certify.max_frames_per_read");
          try {
            ceiling = Double.parseDouble(v);
            if (ceiling < 1.0 || ceiling > 100) throw new NumberFormatException();
          } catch (RuntimeException e) {
            error(c.map.get("max_frames_per_read"), "guards.certify.max_frames_per_read", "'" + v + "' is not a number 1.0..100");
          }
        }
        for (String k : List.of("frames", "frame_size", "interval")) {
          if (!c.map.containsKey(k)) continue;
          String v = scalar(c.map.get(k), "guards.certify." + k);
          if (v == null) continue;
          try {
            cert.put(k, SettingKey.byName(k).check(v));
          } catch (IllegalArgumentException e) {
            error(c.map.get(k), "guards.certify." + k, e.getMessage() + "; expected " + SettingKey.byName(k).allowed());
          }
        }
      }
    }
    return new Scenario.Guards(tolerance, runs, ceiling, new Cell(-1, Map.of(), cert, Map.of()));
  }

  private Scenario.Adaptive readAdaptive(YamlNode a, List<TargetSpec> targets) {
    if (a == null || !isMap(a, "adaptive")) return null;
    onlyKnown(a, "adaptive.", ADAPTIVE_KEYS);
    String target = a.map.containsKey("target") ? scalar(a.map.get("target"), "adaptive.target") : null;
    if (target == null) {
      error(a, "adaptive.target", "required: the name of a target to bisect");
    } else if (targets.stream().noneMatch(t -> t.name().equals(target))) {
      error(a.map.get("target"), "adaptive.target", "'" + target + "' is not a target of this scenario");
    }
    String param = a.map.containsKey("parameter") ? scalar(a.map.get("parameter"), "adaptive.parameter") : null;
    if (param == null || !(param.equals("frame_size") || param.equals("interval"))) {
      error(a.map.getOrDefault("parameter", a), "adaptive.parameter", "must be frame_size or interval");
      return null;
    }
    SettingKey k = SettingKey.byName(param);
    if (param.equals("frame_size") && firstCellEndpoint != null && firstCellEndpoint.equals("chat")) {
      error(a.map.get("parameter"), "adaptive.parameter", "frame_size does nothing for endpoint: chat; bisect interval instead");
    }
    String low = a.map.containsKey("low") ? scalar(a.map.get("low"), "adaptive.low") : null;
    String high = a.map.containsKey("high") ? scalar(a.map.get("high"), "adaptive.high") : null;
    for (String[] lh : new String[][] {{"low", low}, {"high", high}}) {
      if (lh[1] == null) {
        error(a, "adaptive." + lh[0], "required: " + k.allowed());
        continue;
      }
      try {
        k.check(lh[1]);
      } catch (IllegalArgumentException e) {
        error(a.map.get(lh[0]), "adaptive." + lh[0], e.getMessage() + "; expected " + k.allowed());
      }
    }
    double tolerance = 0.10;
    if (a.map.containsKey("tolerance")) {
      String v = scalar(a.map.get("tolerance"), "adaptive.tolerance");
      try {
        tolerance = Double.parseDouble(v.endsWith("%") ? v.substring(0, v.length() - 1) : v) / (v.endsWith("%") ? 100 : 1);
        if (tolerance <= 0 || tolerance >= 1) throw new NumberFormatException();
      } catch (RuntimeException e) {
        error(a.map.get("tolerance"), "adaptive.tolerance", "'" + v + "' is not a fraction such as 10% (between 0% and 100%)");
      }
    }
    double above = 1.5;
    if (a.map.containsKey("coalescing_above")) {
      String v = scalar(a.map.get("coalescing_above"), "adaptive.coalescing_above");
      try {
        above = Double.parseDouble(v);
        if (above <= 1.0) throw new NumberFormatException();
      } catch (RuntimeException e) {
        error(a.map.get("coalescing_above"), "adaptive.coalescing_above", "'" + v + "' is not a number above 1.0 (frames per read)");
      }
    }
    int max = a.map.containsKey("max_cells") ? intValue(a.map.get("max_cells"), "adaptive.max_cells", 2, 64, 12) : 12;
    if (low != null && high != null && errors.isEmpty()) {
      double l = param.equals("frame_size") ? Units.parseBytes(low) : Units.parseDurationNanos(low);
      double h = param.equals("frame_size") ? Units.parseBytes(high) : Units.parseDurationNanos(high);
      if (l >= h) error(a.map.get("low"), "adaptive.low", low + " must be below high (" + high + ")");
    }
    return new Scenario.Adaptive(target, param, low, high, tolerance, above, max);
  }

  /**
   * A config template: relative to the scenario file and inside its folder (symbolic links
   * resolved), a regular file of at most {@link #MAX_TEMPLATE_BYTES}, with the placeholders the
   * lab fills in. A scenario cannot make the lab read, start a proxy with, and copy into its
   * results a file from elsewhere on the machine. Null (and an error) otherwise.
   */
  private Path templateInScenarioFolder(YamlNode at, String key, String cfg) {
    Path dir = scenarioPath.toAbsolutePath().getParent();
    Path config = dir.resolve(cfg).normalize();
    if (!Files.isRegularFile(config)) {
      error(at, key, "no file " + config + " (paths are relative to the scenario file)");
      return null;
    }
    try {
      Path realDir = dir.toRealPath();
      Path real = config.toRealPath();
      if (!real.startsWith(realDir)) {
        error(at, key, "'" + cfg + "' is outside the scenario's folder " + realDir + " (allowed: a template in that folder or below it, "
            + "e.g. proxies/haproxy-stock.cfg)");
        return null;
      }
      long size = Files.size(real);
      if (size > MAX_TEMPLATE_BYTES) {
        error(at, key, config + " is " + size + " bytes (allowed: at most " + MAX_TEMPLATE_BYTES + ")");
        return null;
      }
      String text = Files.readString(real, StandardCharsets.UTF_8);
      if (!text.contains("{{listen_port}}") || !text.contains("{{upstream_port}}")) {
        error(at, key, config + " must contain {{listen_port}} and {{upstream_port}} for the lab to fill in");
        return null;
      }
      return real;
    } catch (IOException e) {
      error(at, key, "cannot read " + config + ": " + flushlab.core.IoErrors.describe(e));
      return null;
    }
  }

  private int intValue(YamlNode n, String key, int min, int max, int def) {
    String v = scalar(n, key);
    if (v == null) return def;
    try {
      int i = Integer.parseInt(v.trim());
      if (i < min || i > max) throw new NumberFormatException();
      return i;
    } catch (NumberFormatException e) {
      error(n, key, "'" + v + "' is not a whole number " + min + ".." + max);
      return def;
    }
  }

  private boolean boolValue(YamlNode n, String key) {
    String v = scalar(n, key);
    if (v == null) return false;
    if (!v.equals("true") && !v.equals("false")) {
      error(n, key, "'" + v + "' is not true or false");
      return false;
    }
    return v.equals("true");
  }
}
