package flushlab.report.page;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The charts of a run or map results folder (results.json as written), or of two overlaid ({@code
 * flushlab compare}): frames-per-read heatmaps, arrival staircases, latency percentile curves and
 * the releases behind the map. Targets keep one colour across a page; with two sources the second
 * is drawn dashed (or hollow) and its series are prefixed with its label.
 */
public final class RunCharts {
  /** Cells drawn per section; the summary table below the charts has them all. */
  static final int MAX_CELLS_DRAWN = 8;

  /** One results folder's JSON with the label its series carry on a compare page. */
  public record Source(String label, JsonNode results) {}

  private final List<Source> sources;
  private final List<String> targets = new ArrayList<>();
  private final List<String> cellLabels = new ArrayList<>();
  private final List<Chart> charts = new ArrayList<>();
  private int nextId;

  private RunCharts(List<Source> sources) {
    this.sources = sources;
    Set<String> t = new LinkedHashSet<>();
    Set<String> c = new LinkedHashSet<>();
    for (Source s : sources) {
      for (JsonNode target : s.results().path("targets")) t.add(target.path("name").asText());
      for (JsonNode row : s.results().path("cells")) c.add(row.path("cell_label").asText());
    }
    targets.addAll(t);
    cellLabels.addAll(c);
  }

  public static List<Chart> of(JsonNode results) {
    return of(List.of(new Source("", results)));
  }

  public static List<Chart> of(List<Source> sources) {
    RunCharts r = new RunCharts(sources);
    r.heatmaps();
    r.staircases();
    r.latencies();
    r.releases();
    return r.charts;
  }

  /** The cells of the page in order (drawn sections take the first {@link #MAX_CELLS_DRAWN}). */
  public static List<String> cellLabels(List<Source> sources) {
    return new RunCharts(sources).cellLabels;
  }

  private String id() {
    return "chart" + (nextId++);
  }

  private String seriesName(Source s, String target) {
    return sources.size() == 1 ? target : s.label() + " " + target;
  }

  private boolean second(Source s) {
    return sources.size() > 1 && s == sources.get(1);
  }

  private JsonNode row(Source s, String cellLabel, String target) {
    for (JsonNode row : s.results().path("cells")) {
      if (row.path("cell_label").asText().equals(cellLabel)
          && row.path("target").asText().equals(target)) return row;
    }
    return null;
  }

  /**
   * Frames per read over the swept frame size x interval, per target, with the inferred trigger as
   * its subtitle.
   */
  private void heatmaps() {
    for (Source s : sources) {
      JsonNode cells = s.results().path("cells");
      String[] axes = axes(cells);
      String xKey = axes[0];
      String yKey = axes[1];
      List<String> xs = new ArrayList<>();
      List<String> ys = new ArrayList<>();
      for (JsonNode row : cells) {
        String x = axisValue(row, xKey, true);
        String y = axisValue(row, yKey, false);
        if (!xs.contains(x)) xs.add(x);
        if (!ys.contains(y)) ys.add(y);
      }
      for (String target : targets) {
        ArrayNode data = Options.F.arrayNode();
        double top = 1;
        Map<String, Boolean> seen = new LinkedHashMap<>();
        for (JsonNode row : cells) {
          if (!row.path("target").asText().equals(target)) continue;
          String x = axisValue(row, xKey, true);
          String y = axisValue(row, yKey, false);
          if (seen.putIfAbsent(x + "\u0000" + y, true) != null)
            continue; // another swept key: the first cell stands for them
          double fpr = row.path("metrics").path("frames_per_read").asDouble();
          if (row.path("metrics").path("streams_ok").asInt() == 0) continue;
          top = Math.max(top, fpr);
          data.addArray().add(xs.indexOf(x)).add(ys.indexOf(y)).add(fpr);
        }
        JsonNode trigger = s.results().path("flush_trigger_map").path(target);
        String sub = trigger.isMissingNode() ? "" : trigger.path("verdict").asText();
        ObjectNode o = Options.base(seriesName(s, target), sub);
        o.set("xAxis", categoryAxis(xKey == null ? "(not swept)" : xKey, xs));
        o.set("yAxis", categoryAxis(yKey == null ? "(not swept)" : yKey, ys));
        ObjectNode vm =
            o.putObject("visualMap")
                .put("min", 1)
                .put("max", Math.max(2, Options.niceCeiling(top)))
                .put("calculable", false)
                .put("orient", "horizontal")
                .put("left", "center")
                .put("bottom", 0)
                .put("itemHeight", 120);
        vm.putObject("inRange").putArray("color").add("#f2f7fd").add("#6baed6").add("#08306b");
        o.with("grid").put("bottom", 70);
        ObjectNode series =
            o.putArray("series")
                .addObject()
                .put("name", seriesName(s, target))
                .put("type", "heatmap");
        series.set("data", data);
        series.putObject("label").put("show", true);
        charts.add(new Chart(id(), "heatmap", "", seriesName(s, target), o, false));
      }
    }
  }

  /**
   * The heatmap's axes: interval across and frame size up when they were swept; otherwise the next
   * swept keys in their order; null for an axis with nothing left (one column or row). Other swept
   * keys share the cells: the first of each position stands for them.
   */
  private static String[] axes(JsonNode cells) {
    List<String> keys = new ArrayList<>();
    for (JsonNode row : cells)
      row.path("swept")
          .fieldNames()
          .forEachRemaining(
              k -> {
                if (!keys.contains(k)) keys.add(k);
              });
    String x = keys.contains("interval") ? "interval" : null;
    String y = keys.contains("frame_size") ? "frame_size" : null;
    List<String> rest = new ArrayList<>(keys);
    rest.remove("interval");
    rest.remove("frame_size");
    if (x == null && !rest.isEmpty()) x = rest.remove(0);
    if (y == null && !rest.isEmpty()) y = rest.remove(0);
    return new String[] {x, y};
  }

  /**
   * The cell's value of a swept key. With no key for the axis: one column (or row) for all cells,
   * except that a run with nothing swept shows its one cell's label on the x axis.
   */
  private static String axisValue(JsonNode row, String key, boolean x) {
    if (key == null)
      return x && row.path("swept").size() == 0 ? row.path("cell_label").asText() : "";
    return row.path("swept").path(key).asText("");
  }

  private static ObjectNode categoryAxis(String name, List<String> values) {
    ObjectNode a =
        Options.F.objectNode()
            .put("type", "category")
            .put("name", name)
            .put("nameLocation", "middle")
            .put("nameGap", 28);
    ArrayNode d = a.putArray("data");
    values.forEach(d::add);
    return a;
  }

  /**
   * Per cell, one chart per target on the same axes: frame number against the time it was received
   * (solid), and against the time it was emitted (dashed). A held-and-released burst is a
   * staircase; a clean stream, a line on top of its dashed twin.
   */
  private void staircases() {
    for (String cell : cellLabels.subList(0, Math.min(MAX_CELLS_DRAWN, cellLabels.size()))) {
      double xMax = 1;
      double yMax = 1;
      for (Source s : sources) {
        for (String target : targets) {
          JsonNode row = row(s, cell, target);
          if (row == null) continue;
          xMax = Math.max(xMax, Options.max(row.path("arrivals").path("recv_ms"), 0));
          yMax = Math.max(yMax, row.path("arrivals").path("recv_ms").size());
        }
      }
      double xTop = Options.niceCeiling(xMax);
      for (String target : targets) {
        int colour = targets.indexOf(target);
        ObjectNode o = Options.base(target, null);
        o.with("tooltip").put("trigger", "axis");
        o.set("xAxis", Options.valueAxis("ms since the request", 0.0, xTop, "value"));
        o.set("yAxis", Options.yAxis("frame", 0.0, yMax, "value"));
        ArrayNode series = o.putArray("series");
        List<String> legend = new ArrayList<>();
        for (Source s : sources) {
          JsonNode row = row(s, cell, target);
          JsonNode a = row == null ? null : row.path("arrivals");
          ArrayNode recv = Options.F.arrayNode();
          ArrayNode emit = Options.F.arrayNode();
          if (a != null) {
            for (int i = 0; i < a.path("recv_ms").size(); i++)
              Options.point(recv, a.path("recv_ms").get(i).asDouble(), i + 1);
            for (int i = 0; i < a.path("emit_ms").size(); i++)
              Options.point(emit, a.path("emit_ms").get(i).asDouble(), i + 1);
          }
          String prefix = sources.size() == 1 ? "" : s.label() + " ";
          String c = second(s) ? "#555555" : Options.colour(colour);
          ObjectNode received = Options.line(prefix + "received", c, recv, second(s), "end");
          if (a != null && a.path("host_stalls_ms").size() > 0)
            received.set("markArea", hostStalls(a.path("host_stalls_ms")));
          series.add(received);
          series.add(Options.line(prefix + "emitted", "#9e9e9e", emit, true, null));
          legend.add(prefix + "received");
          legend.add(prefix + "emitted");
        }
        o.set("legend", Options.legend(legend));
        charts.add(new Chart(id(), "staircase", cell, target, o, false));
      }
    }
  }

  /**
   * This host's stalls while the stream ran, shaded across the staircase at their times: frames
   * read together at the end of one were merged by the host, not by the target.
   */
  private static ObjectNode hostStalls(JsonNode spans) {
    ObjectNode area = Options.F.objectNode().put("silent", true);
    area.putObject("itemStyle").put("color", "rgba(214, 39, 40, 0.18)");
    area.putObject("label")
        .put("show", true)
        .put("position", "insideTop")
        .put("fontSize", 10)
        .put("color", "#a33")
        .put("formatter", "host stall");
    ArrayNode data = area.putArray("data");
    for (JsonNode span : spans) {
      ArrayNode pair = data.addArray();
      pair.addObject().put("xAxis", span.get(0).asDouble());
      pair.addObject().put("xAxis", span.get(1).asDouble());
    }
    return area;
  }

  /** How one series of a chart is drawn from its points: the source and target it belongs to. */
  private interface SeriesMaker {
    ObjectNode make(Source s, String target, String name, ArrayNode points);
  }

  /**
   * One series per source and target of a cell, each filled by {@code fill} from its row (empty
   * where the row is missing), drawn by {@code maker}; sets the series and the legend on {@code o}.
   */
  private void seriesPerTarget(
      ObjectNode o, String cell, BiConsumer<JsonNode, ArrayNode> fill, SeriesMaker maker) {
    ArrayNode series = o.putArray("series");
    List<String> legend = new ArrayList<>();
    for (Source s : sources) {
      for (String target : targets) {
        JsonNode row = row(s, cell, target);
        ArrayNode pts = Options.F.arrayNode();
        if (row != null) fill.accept(row, pts);
        String name = seriesName(s, target);
        series.add(maker.make(s, target, name, pts));
        legend.add(name);
      }
    }
    o.set("legend", Options.legend(legend));
  }

  /** Per cell: TTFT, gaps and emit->recv as percentile curves, every target on one chart. */
  private void latencies() {
    String[][] metrics = {
      {"ttft_ms", "time to first token"},
      {"gap_ms", "gap between frames"},
      {"emit_to_recv_ms", "emit -> receive"}
    };
    for (String cell : cellLabels.subList(0, Math.min(MAX_CELLS_DRAWN, cellLabels.size()))) {
      for (String[] m : metrics) {
        ObjectNode o = Options.base(m[1], null);
        o.with("tooltip").put("trigger", "item");
        o.set("xAxis", Options.valueAxis("percentile", 1.0, null, "log"));
        o.set("yAxis", Options.yAxis("ms", 0.0, null, "value"));
        seriesPerTarget(
            o,
            cell,
            (row, pts) -> {
              double lastX = 1;
              for (JsonNode p : row.path("metrics").path("percentile_curves").path(m[0])) {
                double pct = p.get(0).asDouble();
                // 100 % is at infinity on this axis: draw it one decade past the last point
                double x =
                    pct >= 100
                        ? Math.pow(10, Math.ceil(Math.log10(lastX)) + 1)
                        : 1 / (1 - pct / 100);
                lastX = x;
                Options.point(pts, x, p.get(1).asDouble());
              }
            },
            (s, target, name, pts) -> {
              ObjectNode line =
                  Options.line(name, Options.colour(targets.indexOf(target)), pts, second(s), null);
              return line.put("showSymbol", true).put("symbolSize", 4);
            });
        o.with("grid").put("top", 64);
        charts.add(new Chart(id(), "latency", cell, m[1], o, true));
      }
    }
  }

  /**
   * Per cell: each release of the sampled stream as a point, time since the release before against
   * its bytes. A byte threshold is a horizontal band, a timer a vertical one, a clean stream one
   * point per frame at its interval. The first release (it carries the response head) and the last
   * (the end-of-stream flush) are left out, as in the map.
   */
  private void releases() {
    for (String cell : cellLabels.subList(0, Math.min(MAX_CELLS_DRAWN, cellLabels.size()))) {
      ObjectNode o = Options.base("releases: bytes against the time since the one before", null);
      o.set("xAxis", Options.valueAxis("ms since the release before", 0.0, null, "value"));
      o.set("yAxis", Options.yAxis("bytes", 0.0, null, "value"));
      seriesPerTarget(
          o,
          cell,
          (row, pts) -> {
            JsonNode a = row.path("arrivals");
            for (int i = 0; i < a.path("release_gap_ms").size(); i++) {
              Options.point(
                  pts,
                  a.path("release_gap_ms").get(i).asDouble(),
                  a.path("release_bytes").get(i).asDouble());
            }
          },
          (s, target, name, pts) -> {
            ObjectNode sc = Options.scatter(name, Options.colour(targets.indexOf(target)), pts);
            return second(s) ? sc.put("symbol", "emptyCircle") : sc;
          });
      o.with("grid").put("top", 64);
      charts.add(new Chart(id(), "releases", cell, "releases", o, false));
    }
  }
}
