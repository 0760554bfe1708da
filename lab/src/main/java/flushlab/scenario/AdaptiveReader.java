package flushlab.scenario;

import flushlab.core.Units;
import flushlab.targets.Target;
import java.util.List;

/** The adaptive bisection: which target, which setting, between which values, until how close. */
final class AdaptiveReader {
  final Scenario.Adaptive adaptive;

  AdaptiveReader(YamlNode root, List<Target> targets, List<Cell> cells, ErrorCollector errors) {
    adaptive = read(root.map.get(Keys.ADAPTIVE_SECTION.name()), targets, cells, errors);
  }

  private static Scenario.Adaptive read(
      YamlNode a, List<Target> targets, List<Cell> cells, ErrorCollector errors) {
    if (a == null || !errors.isMap(a, "adaptive")) return null;
    errors.onlyKnown(a, "adaptive.", Keys.names(Key.Section.ADAPTIVE));
    String target =
        a.map.containsKey("target") ? errors.scalar(a.map.get("target"), "adaptive.target") : null;
    if (target == null) {
      errors.error(a, "adaptive.target", "required: the name of a target to bisect");
    } else if (targets.stream().noneMatch(t -> t.name().equals(target))) {
      errors.error(
          a.map.get("target"),
          "adaptive.target",
          "'" + target + "' is not a target of this scenario");
    }
    String param =
        a.map.containsKey("parameter")
            ? errors.scalar(a.map.get("parameter"), "adaptive.parameter")
            : null;
    if (param == null || !ProbeKeys.PARAMETER.choices().contains(param)) {
      errors.error(
          a.map.getOrDefault("parameter", a),
          "adaptive.parameter",
          "must be " + String.join(" or ", ProbeKeys.PARAMETER.choices()));
      return null;
    }
    Setting setting = Setting.named(param);
    Key k = setting.key();
    if (setting == Setting.FRAME_SIZE
        && !cells.isEmpty()
        && cells.get(0).stream().endpoint().isOpenAi()) {
      errors.error(
          a.map.get("parameter"),
          "adaptive.parameter",
          "frame_size does nothing for endpoint: chat; bisect interval instead");
    }
    String low = bound(a, ProbeKeys.LOW, k, errors);
    String high = bound(a, ProbeKeys.HIGH, k, errors);
    double tolerance = Double.parseDouble(errors.value(a, ProbeKeys.TOLERANCE));
    double above = Double.parseDouble(errors.value(a, ProbeKeys.COALESCING_ABOVE));
    int max = Integer.parseInt(errors.value(a, ProbeKeys.MAX_CELLS));
    if (low != null && high != null && !errors.any()) {
      boolean size = setting == Setting.FRAME_SIZE;
      double l = size ? Units.parseBytes(low) : Units.parseDurationNanos(low);
      double h = size ? Units.parseBytes(high) : Units.parseDurationNanos(high);
      if (l >= h)
        errors.error(a.map.get("low"), "adaptive.low", low + " must be below high (" + high + ")");
    }
    return new Scenario.Adaptive(target, setting, low, high, tolerance, above, max);
  }

  /** low or high: required, and a value of the setting bisected. */
  private static String bound(YamlNode a, Key bound, Key setting, ErrorCollector errors) {
    YamlNode n = a.map.get(bound.name());
    if (n == null) {
      errors.error(a, bound.path(), "required: " + setting.allowed());
      return null;
    }
    return errors.checked(setting, n, bound.path());
  }
}
