package flushlab.report.page;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The charts of a probe scenario's folder: for an upload probe, the time to the response head
 * against the request size, one series per server (sweep and bisection together), the verdict as
 * subtitle; for a keep-alive probe, each setting's p50, p99 and max request time per server.
 */
public final class ProbeCharts {
  private ProbeCharts() {}

  public static List<Chart> of(JsonNode probe) {
    List<Chart> charts = new ArrayList<>();
    JsonNode servers = probe.path("servers");
    if ("upload".equals(probe.path("probe").asText())) {
      ObjectNode o =
          Options.base("time to the response head against the request size", verdicts(servers));
      o.set("xAxis", Options.valueAxis("request body, bytes", null, null, "log"));
      o.set("yAxis", Options.yAxis("ms (p50 of the attempts)", 0.0, null, "value"));
      ArrayNode series = o.putArray("series");
      List<String> names = new ArrayList<>();
      int i = 0;
      for (JsonNode s : servers) {
        List<double[]> pts = new ArrayList<>();
        for (String part : new String[] {"sweep", "bisection"}) {
          for (JsonNode row : s.path("upload").path(part)) {
            if (row.path("p50_ms").isNumber())
              pts.add(
                  new double[] {row.path("body_bytes").asDouble(), row.path("p50_ms").asDouble()});
          }
        }
        pts.sort((a, b) -> Double.compare(a[0], b[0]));
        ArrayNode data = Options.F.arrayNode();
        for (double[] p : pts) Options.point(data, p[0], p[1]);
        ObjectNode line =
            Options.line(s.path("name").asText(), Options.colour(i++), data, false, null);
        line.put("showSymbol", true);
        series.add(line);
        names.add(s.path("name").asText());
      }
      o.set("legend", Options.legend(names));
      o.with("grid").put("top", 100);
      o.with("tooltip").put("trigger", "axis");
      charts.add(new Chart("chart0", "probe", "", "upload", o, false));
    } else {
      int i = 0;
      for (JsonNode s : servers) {
        ObjectNode o =
            Options.base(
                s.path("name").asText() + ": request time on one kept-alive connection", null);
        ArrayNode cats = Options.F.arrayNode();
        ArrayNode p50 = Options.F.arrayNode();
        ArrayNode p99 = Options.F.arrayNode();
        ArrayNode max = Options.F.arrayNode();
        for (JsonNode row : s.path("keepalive").path("rows")) {
          cats.add("client TCP_NODELAY " + (row.path("client_nodelay").asBoolean() ? "on" : "off"));
          p50.add(row.path("p50_ms").asDouble());
          p99.add(row.path("p99_ms").asDouble());
          max.add(row.path("max_ms").asDouble());
        }
        ObjectNode x = Options.F.objectNode().put("type", "category");
        x.set("data", cats);
        o.set("xAxis", x);
        o.set("yAxis", Options.yAxis("ms", 0.0, null, "value"));
        ArrayNode series = o.putArray("series");
        String[] names = {"p50", "p99", "max"};
        ArrayNode[] values = {p50, p99, max};
        for (int k = 0; k < 3; k++) {
          ObjectNode bar =
              series
                  .addObject()
                  .put("name", names[k])
                  .put("type", "bar")
                  .put("color", Options.colour(k));
          bar.set("data", values[k]);
        }
        o.set("legend", Options.legend(List.of(names)));
        charts.add(new Chart("chart" + i++, "probe", "", s.path("name").asText(), o, false));
      }
    }
    return charts;
  }

  private static String verdicts(JsonNode servers) {
    List<String> v = new ArrayList<>();
    for (JsonNode s : servers) {
      String text =
          s.has("error") ? s.path("error").asText() : s.path("upload").path("verdict").asText();
      v.add(s.path("name").asText() + ": " + text);
    }
    return String.join("\n", v);
  }
}
