package flushlab.scenario;

import flushlab.emitter.ResponsesFrameSource;
import flushlab.stream.Endpoint;
import flushlab.stream.StreamSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The sweep and the cells it makes: setting -> list of values, the cells their cross product over
 * the base settings. The number of cells is the product of the list lengths, known (and checked
 * against {@link ScenarioLoader#MAX_CELLS}) before any cell is built. Cells that are fine one
 * setting at a time but impossible together are refused here too.
 */
final class SweepReader {
  /**
   * Settings that do nothing for a chat stream (its events are sized by their JSON, always
   * chunked).
   */
  static final List<Key> SSE_ONLY =
      List.of(
          SettingKeys.FRAME_SIZE,
          SettingKeys.TRANSFER,
          SettingKeys.TOTAL,
          SettingKeys.X_ACCEL_BUFFERING,
          SettingKeys.ENCODING,
          SettingKeys.FLUSH,
          SettingKeys.CACHE_CONTROL,
          SettingKeys.HEADERS);

  /**
   * The swept settings in the order written (it orders the cells), each with its values as checked.
   */
  final LinkedHashMap<Setting, List<String>> sweep = new LinkedHashMap<>();

  final List<Cell> cells;

  SweepReader(YamlNode root, SettingsReader settings, ErrorCollector errors) {
    YamlNode sw = root.map.get(Keys.SWEEP.name());
    if (sw != null && errors.isMap(sw, "sweep")) {
      errors.onlyKnown(sw, "sweep.", Keys.sweepable().stream().map(Key::name).toList());
      for (Map.Entry<String, YamlNode> e :
          sw.map.entrySet()) { // in the order written: it orders the cells
        Setting setting = Setting.named(e.getKey());
        if (setting != null) readList(setting, e.getValue(), errors);
      }
    }
    double cellCount = 1;
    for (List<String> values : sweep.values()) cellCount *= values.size();
    if (cellCount > ScenarioLoader.MAX_CELLS) {
      errors.error(
          sw,
          "sweep",
          String.format(
              "makes %.0f cells (allowed: at most %d)", cellCount, ScenarioLoader.MAX_CELLS));
      cells = List.of();
      return;
    }
    cells = crossProduct(settings.base);
    for (Cell c : cells) checkCell(c, root, errors);
    checkEndpointSettings(root, errors);
  }

  private void readList(Setting setting, YamlNode list, ErrorCollector errors) {
    Key k = setting.key();
    String where = "sweep." + k.name();
    if (list.kind != YamlNode.Kind.LIST || list.list.isEmpty()) {
      errors.error(list, where, "must be a non-empty list of values, e.g. [60B, 1100B]");
      return;
    }
    List<String> values = new ArrayList<>();
    for (YamlNode item : list.list) {
      String v = errors.checked(k, item, where);
      if (v != null) values.add(v);
    }
    if (new LinkedHashSet<>(values).size() != values.size())
      errors.error(list, where, "a value is listed twice");
    sweep.put(setting, values);
  }

  /** The sweep by setting name, as results record it. */
  Map<String, List<String>> byName() {
    Map<String, List<String>> m = new LinkedHashMap<>();
    sweep.forEach((setting, values) -> m.put(setting.key().name(), values));
    return m;
  }

  private List<Cell> crossProduct(Cell base) {
    List<Cell> all = new ArrayList<>();
    all.add(base);
    for (Map.Entry<Setting, List<String>> e : sweep.entrySet()) {
      List<Cell> next = new ArrayList<>();
      for (Cell c : all) for (String v : e.getValue()) next.add(c.with(e.getKey(), v));
      all = next;
    }
    List<Cell> indexed = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) indexed.add(all.get(i).withIndex(i));
    return indexed;
  }

  /** Combinations that are each fine alone but impossible together. */
  private static void checkCell(Cell c, YamlNode root, ErrorCollector errors) {
    if (c.stream().streamNanos() > StreamSpec.MAX_STREAM_NANOS) {
      errors.error(
          where(root, "interval"),
          "emitter.interval",
          "think + interval x frames is over one hour in cell " + c.label());
    }
  }

  /**
   * sse-only settings that would silently do nothing where every cell is a chat stream (or a swept
   * one is).
   */
  private void checkEndpointSettings(YamlNode root, ErrorCollector errors) {
    boolean anyChat = cells.stream().anyMatch(c -> c.stream().endpoint().isOpenAi());
    boolean allChat = anyChat && cells.stream().allMatch(c -> c.stream().endpoint().isOpenAi());
    for (Cell c : cells) {
      if (c.stream().endpoint() == Endpoint.RESPONSES
          && c.stream().frames() > ResponsesFrameSource.MAX_TOKENS) {
        errors.error(
            where(root, "frames"),
            "emitter.frames",
            c.stream().frames()
                + " frames with endpoint: responses in cell "
                + c.label()
                + " (allowed: at most "
                + ResponsesFrameSource.MAX_TOKENS
                + ": the Responses API's closing events repeat the whole text; use endpoint: chat for longer streams)");
        break;
      }
    }
    if (!anyChat) return;
    for (Key sseOnly : SSE_ONLY) {
      String key = sseOnly.name();
      if (sweep.containsKey(Setting.named(key)) && Setting.named(key).key() == sseOnly) {
        errors.error(
            where(root, key),
            "sweep." + key,
            "does nothing for endpoint: chat or responses (their events are sized by "
                + "their JSON and always chunked); sweep it with endpoint: sse, or sweep frames or interval");
      } else if (allChat && setIn(root, "emitter", key)) {
        errors.error(
            where(root, key),
            "emitter." + key,
            "does nothing for endpoint: chat or responses; remove it, or use endpoint: sse");
      }
    }
  }

  private static boolean setIn(YamlNode root, String section, String key) {
    YamlNode sec = root.map.get(section);
    return sec != null && sec.kind == YamlNode.Kind.MAP && sec.map.containsKey(key);
  }

  /** Where a setting was written: its value in sweep or emitter/client, else the document. */
  private static YamlNode where(YamlNode root, String key) {
    for (String section : List.of("sweep", "emitter", "client")) {
      YamlNode sec = root.map.get(section);
      if (sec != null && sec.kind == YamlNode.Kind.MAP && sec.map.containsKey(key))
        return sec.map.get(key);
    }
    return root;
  }
}
