package flushlab.report.page;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * One chart of a page: where it goes, and its ECharts option (built here, in Java, so a test can
 * check what each chart will draw without a browser). {@code percentileAxis} asks the page's script
 * to label a log axis of 1/(1-p) as percentiles (a formatter is a function, which JSON cannot
 * carry).
 *
 * @param section the page section ("heatmap", "staircase", "latency", "releases", "probe")
 * @param group the sub-heading it sits under (a cell's label), or "" for none
 */
public record Chart(
    String id,
    String section,
    String group,
    String title,
    ObjectNode option,
    boolean percentileAxis) {

  /** The series names with at least one data point. */
  public List<String> seriesWithData() {
    List<String> out = new ArrayList<>();
    for (JsonNode s : option.path("series")) {
      if (s.path("data").size() > 0) out.add(s.path("name").asText(title));
    }
    return out;
  }

  /** Every series name, drawn or not. */
  public List<String> seriesNames() {
    List<String> out = new ArrayList<>();
    for (JsonNode s : option.path("series")) out.add(s.path("name").asText(title));
    return out;
  }
}
