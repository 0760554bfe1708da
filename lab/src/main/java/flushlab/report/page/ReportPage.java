package flushlab.report.page;

import static flushlab.report.page.Page.esc;

import com.fasterxml.jackson.databind.JsonNode;
import flushlab.core.Json;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code report.html}: one results folder as a page a person opens from disk. Built from the
 * folder's results.json as written (a tree, so `flushlab report DIR` regenerates it from the file
 * alone): the charts first, then the summary, guards, exclusions, environment, proxies and the
 * scenario, folded.
 */
public final class ReportPage {
  private ReportPage() {}

  /** The sections of a run's page, in order: heading and how to read it. */
  static Map<String, String[]> runSections() {
    Map<String, String[]> s = new LinkedHashMap<>();
    s.put(
        "heatmap",
        new String[] {
          "Frames per read",
          "Each target over the swept frame sizes and intervals: 1.00 means every frame arrived on its own read; more means the"
              + " path held frames and released them together. The inferred flush trigger is written under the target's name."
        });
    s.put(
        "staircase",
        new String[] {
          "Arrival staircase",
          "One stream per cell and target, on the same axes: frame number against the time it was received (solid) and emitted"
              + " (dashed grey). A clean path draws a straight line on its dashed twin; a buffering one, a staircase to its right."
        });
    s.put(
        "latency",
        new String[] {
          "Latency distributions",
          "Percentile curves (HdrHistogram's style: the axis is 1/(1-p) on a log scale, so the tail gets room), targets overlaid."
        });
    s.put(
        "releases",
        new String[] {
          "Releases",
          "Each release of the sampled stream (one burst from the path, however many reads it took): its bytes against the time"
              + " since the one before. A byte threshold lines up horizontally, a timer vertically. The first and last release are"
              + " left out (the response head, the end-of-stream flush)."
        });
    return s;
  }

  public static String render(JsonNode results) {
    if ("probe".equals(results.path("kind").asText())) return probe(results);
    Page page = new Page("flushlab: " + results.path("scenario").asText(), "run");
    page.html(header(results));
    page.html(triggers(results));
    page.charts(RunCharts.of(results), runSections());
    page.details("Summary: every cell and target", Tables.summary(results), true);
    page.details("Guards and exclusions", Tables.guards(results), false);
    page.details("Targets, proxy versions and configs", Tables.targets(results), false);
    page.details(
        "Environment", "<pre>" + esc(Json.pretty(results.path("environment"))) + "</pre>", false);
    page.details(
        "Scenario", "<pre>" + esc(results.path("scenario_text").asText()) + "</pre>", false);
    return page.render();
  }

  static String header(JsonNode r) {
    StringBuilder b = new StringBuilder();
    b.append("<header><h1>flushlab: ").append(esc(r.path("scenario").asText())).append("</h1>\n");
    b.append("<p class=\"meta\">")
        .append(esc(r.path("status").asText()))
        .append(" &middot; started ")
        .append(esc(r.path("started_utc").asText()))
        .append(" &middot; ")
        .append(r.path("elapsed_s").asDouble())
        .append(" s")
        .append(" &middot; direct path ")
        .append(
            r.path("certification").path("certified").asBoolean() ? "certified" : "NOT certified")
        .append(" (")
        .append(r.path("certification").path("direct_frames_per_read").asDouble())
        .append(" frames per read)</p>\n");
    b.append("<p class=\"meta\"><code>")
        .append(esc(r.path("command").asText()))
        .append("</code></p>\n");
    if (!r.path("description").asText().isEmpty())
      b.append("<p>").append(esc(r.path("description").asText())).append("</p>\n");
    return b.append("</header>").toString();
  }

  /** The flush-trigger map's answer per target, when the run made one. */
  static String triggers(JsonNode r) {
    JsonNode map = r.path("flush_trigger_map");
    if (map.size() == 0) return "";
    StringBuilder b = new StringBuilder("<section id=\"triggers\"><h2>Flush triggers</h2>\n");
    map.fields()
        .forEachRemaining(
            e ->
                b.append("<p class=\"verdict\"><b>")
                    .append(esc(e.getKey()))
                    .append("</b> ")
                    .append(esc(e.getValue().path("verdict").asText()))
                    .append("</p>\n"));
    return b.append("</section>").toString();
  }

  private static String probe(JsonNode r) {
    Page page = new Page("flushlab probe: " + r.path("scenario").asText(), "probe");
    page.html(
        "<header><h1>flushlab probe "
            + esc(r.path("probe").asText())
            + ": "
            + esc(r.path("scenario").asText())
            + "</h1>\n"
            + "<p class=\"meta\">started "
            + esc(r.path("started").asText())
            + " &middot; "
            + r.path("seconds").asDouble()
            + " s"
            + (r.path("interrupted").asBoolean() ? " &middot; interrupted" : "")
            + "</p>\n"
            + "<p class=\"meta\"><code>"
            + esc(r.path("command_line").asText())
            + "</code></p></header>");
    Map<String, String[]> sections = new LinkedHashMap<>();
    sections.put(
        "probe",
        new String[] {
          "upload".equals(r.path("probe").asText())
              ? "Time to the response head"
              : "Kept-alive requests",
          "upload".equals(r.path("probe").asText())
              ? "Per server, the median time from sending a request of that size to the response head: a jump is where the"
                  + " receive buffer or a lost tail starts to cost a retransmit."
              : "Per server and client setting: request times on one connection; Nagle meeting delayed ACKs shows as a tail."
        });
    page.charts(ProbeCharts.of(r), sections);
    page.details(
        "Servers and results", "<pre>" + esc(Json.pretty(r.path("servers"))) + "</pre>", true);
    page.details(
        "Environment", "<pre>" + esc(Json.pretty(r.path("environment"))) + "</pre>", false);
    page.details("Scenario", "<pre>" + esc(r.path("scenario_text").asText()) + "</pre>", false);
    return page.render();
  }
}
