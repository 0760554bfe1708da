package flushlab.report.page;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The ECharts option shapes the pages use: line, scatter, heatmap; no animation (print and
 * screenshots show the final state).
 */
final class Options {
  static final JsonNodeFactory F = JsonNodeFactory.instance;

  /** One colour per target, in target order, the same on every chart of a page. */
  static final String[] PALETTE = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#7f7f7f"
  };

  private Options() {}

  static String colour(int targetIndex) {
    return PALETTE[Math.floorMod(targetIndex, PALETTE.length)];
  }

  static ObjectNode base(String title, String subtitle) {
    ObjectNode o = F.objectNode();
    o.put("animation", false);
    ObjectNode t = o.putObject("title").put("text", title).put("left", "center");
    t.putObject("textStyle").put("fontSize", 14);
    if (subtitle != null && !subtitle.isEmpty()) {
      t.put("subtext", subtitle);
      t.putObject("subtextStyle")
          .put("fontSize", 11)
          .put("lineHeight", 14)
          .put("width", 520)
          .put("overflow", "break");
    }
    o.putObject("tooltip").put("trigger", "item");
    ObjectNode grid =
        o.putObject("grid")
            .put("left", 72)
            .put("right", 24)
            .put("bottom", 48)
            .put("containLabel", false);
    grid.put("top", subtitle != null && !subtitle.isEmpty() ? 84 : 56);
    return o;
  }

  static ObjectNode valueAxis(String name, Double min, Double max, String type) {
    ObjectNode a =
        F.objectNode()
            .put("type", type)
            .put("name", name)
            .put("nameLocation", "middle")
            .put("nameGap", 30);
    if (min != null) a.put("min", min);
    if (max != null) a.put("max", max);
    a.putObject("splitLine").put("show", true);
    return a;
  }

  /** A vertical value axis: its name further out, clear of tick labels such as "2,500". */
  static ObjectNode yAxis(String name, Double min, Double max, String type) {
    return valueAxis(name, min, max, type).put("nameGap", 48);
  }

  static ObjectNode legend(List<String> names) {
    ObjectNode l = F.objectNode().put("top", 24).put("type", "scroll");
    ArrayNode data = l.putArray("data");
    names.forEach(data::add);
    return l;
  }

  static ObjectNode line(
      String name, String colour, ArrayNode points, boolean dashed, String step) {
    ObjectNode s =
        F.objectNode()
            .put("name", name)
            .put("type", "line")
            .put("showSymbol", false)
            .put("color", colour);
    if (step != null) s.put("step", step);
    s.putObject("lineStyle")
        .put("width", dashed ? 1.5 : 2)
        .put("type", dashed ? "dashed" : "solid");
    s.set("data", points);
    return s;
  }

  static ObjectNode scatter(String name, String colour, ArrayNode points) {
    ObjectNode s =
        F.objectNode()
            .put("name", name)
            .put("type", "scatter")
            .put("symbolSize", 7)
            .put("color", colour);
    s.set("data", points);
    return s;
  }

  static ArrayNode point(ArrayNode into, double x, double y) {
    into.addArray().add(x).add(y);
    return into;
  }

  static double max(JsonNode values, double floor) {
    double m = floor;
    for (JsonNode v : values) m = Math.max(m, v.asDouble());
    return m;
  }

  /**
   * A round axis end at or just above v (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 or 10 times a power of
   * ten).
   */
  static double niceCeiling(double v) {
    if (v <= 0) return 1;
    double p = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10})
      if (m * p >= v * 0.9999) return m * p;
    return 10 * p;
  }
}
