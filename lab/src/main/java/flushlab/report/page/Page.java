package flushlab.report.page;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import flushlab.core.Json;
import flushlab.core.Resources;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One self-contained HTML page: its style, ECharts (from the WebJar on the class path), the chart
 * options as JSON and the script that draws them, all inline, so the file opens from disk with no
 * network. Sections of charts come first, folded details after.
 */
public final class Page {
  /** Where the ECharts WebJar keeps its build, versioned like the dependency. */
  public static final String ECHARTS = Resources.ECHARTS;

  private final StringBuilder body = new StringBuilder();
  private final String title;
  private final String kind;
  private List<Chart> charts = List.of();

  Page(String title, String kind) {
    this.title = title;
    this.kind = kind;
  }

  Page html(String raw) {
    body.append(raw).append('\n');
    return this;
  }

  /**
   * The charts, grouped by section and then by group (a cell), each section with its heading and a
   * line that says how to read it.
   */
  Page charts(List<Chart> all, Map<String, String[]> sections) {
    this.charts = all;
    for (Map.Entry<String, String[]> section : sections.entrySet()) {
      List<Chart> in = all.stream().filter(c -> c.section().equals(section.getKey())).toList();
      if (in.isEmpty()) continue;
      body.append("<section id=\"")
          .append(section.getKey())
          .append("\"><h2>")
          .append(esc(section.getValue()[0]))
          .append("</h2>\n");
      body.append("<p class=\"explain\">").append(esc(section.getValue()[1])).append("</p>\n");
      Map<String, StringBuilder> groups = new LinkedHashMap<>();
      for (Chart c : in) {
        groups
            .computeIfAbsent(c.group(), g -> new StringBuilder())
            .append("<div class=\"chart\" id=\"")
            .append(c.id())
            .append("\" data-section=\"")
            .append(c.section())
            .append("\"></div>\n");
      }
      for (Map.Entry<String, StringBuilder> g : groups.entrySet()) {
        if (!g.getKey().isEmpty())
          body.append("<h3>cell ").append(esc(g.getKey())).append("</h3>\n");
        body.append("<div class=\"charts\">\n").append(g.getValue()).append("</div>\n");
      }
      body.append("</section>\n");
    }
    return this;
  }

  Page details(String summary, String innerHtml, boolean open) {
    body.append("<details")
        .append(open ? " open" : "")
        .append("><summary>")
        .append(esc(summary))
        .append("</summary>\n")
        .append(innerHtml)
        .append("\n</details>\n");
    return this;
  }

  String render() {
    ArrayNode specs = Json.MAPPER.createArrayNode();
    for (Chart c : charts) {
      ObjectNode s = specs.addObject().put("id", c.id()).put("percentile_axis", c.percentileAxis());
      s.set("option", c.option());
    }
    // "</" inside a script element would end it early: JSON allows "<\/" for "</".
    String data = Json.write(specs).replace("</", "<\\/");
    return "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        + "<title>"
        + esc(title)
        + "</title>\n<style>\n"
        + resource("flushlab/report/page/report.css")
        + "</style>\n</head>\n"
        + "<body data-page=\""
        + kind
        + "\">\n"
        + body
        + "<script>\n"
        + resource(ECHARTS)
        + "\n</script>\n"
        + "<script type=\"application/json\" id=\"flushlab-charts\">"
        + data
        + "</script>\n"
        + "<script>\n"
        + resource("flushlab/report/page/report.js")
        + "</script>\n</body></html>\n";
  }

  /** A text file from the jar (the pages' scripts and styles). */
  public static String resource(String path) {
    return Resources.text(path);
  }

  static String esc(String s) {
    if (s == null) return "";
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }
}
