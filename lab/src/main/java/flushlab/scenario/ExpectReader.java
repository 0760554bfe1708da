package flushlab.scenario;

import flushlab.map.ModelExpectation;
import flushlab.targets.Target;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code expect:} block: each key a target of this scenario, each value a kind or a model `map
 * --shape` takes.
 */
final class ExpectReader {
  final Expectations expectations;

  ExpectReader(
      YamlNode root,
      List<Target> targets,
      boolean flushTriggerMap,
      boolean onAgents,
      ErrorCollector errors) {
    expectations = read(root, targets, flushTriggerMap, onAgents, errors);
  }

  private static Expectations read(
      YamlNode root,
      List<Target> targets,
      boolean flushTriggerMap,
      boolean onAgents,
      ErrorCollector errors) {
    YamlNode e = root.map.get(Keys.EXPECT.name());
    double tolerance = Double.parseDouble(errors.value(root, Keys.EXPECT_TOLERANCE));
    if (e == null) {
      if (root.map.containsKey(Keys.EXPECT_TOLERANCE.name())) {
        errors.errorAtKey(
            root,
            Keys.EXPECT_TOLERANCE.name(),
            Keys.EXPECT_TOLERANCE.name(),
            "applies only with an expect: block");
      }
      return Expectations.NONE;
    }
    if (!errors.isMap(e, "expect")) return Expectations.NONE;
    if (e.map.isEmpty()) {
      errors.error(
          e,
          "expect",
          "names no target: write each as `target name: kind or model`, e.g. `relay: byte-threshold=4KiB`");
      return Expectations.NONE;
    }
    if (!flushTriggerMap) {
      errors.errorAtKey(
          root,
          "expect",
          "expect",
          "needs the flush-trigger map, which is off for this scenario (set flush_trigger_map: "
              + "true; it is on by default only with more than one cell)");
    }
    if (onAgents) {
      errors.errorAtKey(
          root,
          "expect",
          "expect",
          "not with a cluster: section yet (a run on agents infers no flush-trigger map)");
    }
    List<String> names = targets.stream().map(Target::name).toList();
    Map<String, ModelExpectation> byTarget = new LinkedHashMap<>();
    for (Map.Entry<String, YamlNode> entry : e.map.entrySet()) {
      String where = "expect." + entry.getKey();
      if (!names.contains(entry.getKey())) {
        errors.errorAtKey(
            e,
            entry.getKey(),
            where,
            "'"
                + entry.getKey()
                + "' is not a target of this scenario (targets: "
                + String.join(", ", names)
                + ")");
        continue;
      }
      String text = errors.scalar(entry.getValue(), where);
      if (text == null) continue;
      try {
        byTarget.put(entry.getKey(), ModelExpectation.parse(text, tolerance));
      } catch (IllegalArgumentException ex) {
        errors.error(entry.getValue(), where, ex.getMessage());
      }
    }
    return new Expectations(byTarget);
  }
}
