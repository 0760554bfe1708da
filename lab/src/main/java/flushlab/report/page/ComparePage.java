package flushlab.report.page;

import static flushlab.report.page.Page.esc;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * {@code flushlab compare A B}: two results folders (before and after a change) on one page. The
 * same charts with both drawn (B dashed or hollow), and a table of differences in which only those
 * beyond the noise floor are highlighted:
 *
 * <ul>
 *   <li>frames per read: beyond the larger run-to-run spread (max - min over kept runs) of the
 *       direct path in either folder and of the target itself in the cell, and at least 0.02;
 *   <li>times (TTFT p50, gap p99, emit->recv p99): beyond the larger run-to-run spread of that
 *       target in that cell in either folder; with fewer than two kept runs on a side there is no
 *       spread to judge by, and the difference is shown but not highlighted.
 * </ul>
 */
public final class ComparePage {
  static final double MIN_FRAMES_PER_READ_FLOOR = 0.02;

  private ComparePage() {}

  /** One compared value of one target in one cell. */
  public record Difference(
      String cell,
      String target,
      String measure,
      double a,
      double b,
      double floor,
      boolean judged) {
    public boolean beyondNoise() {
      return judged && Math.abs(b - a) > floor;
    }
  }

  public static String render(String labelA, JsonNode a, String labelB, JsonNode b) {
    Page page = new Page("flushlab compare: " + labelA + " vs " + labelB, "compare");
    page.html(
        "<header><h1>flushlab compare</h1>\n<p class=\"meta\"><b>A</b> "
            + esc(labelA)
            + " ("
            + esc(a.path("scenario").asText())
            + ", "
            + esc(a.path("started_utc").asText())
            + ") &middot; <b>B</b> "
            + esc(labelB)
            + " ("
            + esc(b.path("scenario").asText())
            + ", "
            + esc(b.path("started_utc").asText())
            + ")</p>\n"
            + "<p class=\"meta\">B is drawn dashed, or hollow, beside A.</p></header>");
    page.html(differencesTable(differences(a, b)));
    page.html(
        "<h2>Flush triggers</h2>"
            + ReportPage.triggers(a).replace("<h2>Flush triggers</h2>", "<h3>A</h3>")
            + ReportPage.triggers(b).replace("<h2>Flush triggers</h2>", "<h3>B</h3>"));
    page.charts(
        RunCharts.of(List.of(new RunCharts.Source("A", a), new RunCharts.Source("B", b))),
        ReportPage.runSections());
    page.details("A: summary", Tables.summary(a), false);
    page.details("B: summary", Tables.summary(b), false);
    return page.render();
  }

  public static List<Difference> differences(JsonNode a, JsonNode b) {
    double directFloor = Math.max(directSpread(a), directSpread(b));
    List<Difference> out = new ArrayList<>();
    for (JsonNode ra : a.path("cells")) {
      JsonNode rb = find(b, ra.path("cell_label").asText(), ra.path("target").asText());
      if (rb == null
          || ra.path("metrics").path("streams_ok").asInt() == 0
          || rb.path("metrics").path("streams_ok").asInt() == 0) {
        continue;
      }
      String cell = ra.path("cell_label").asText();
      String target = ra.path("target").asText();
      double fprFloor =
          Math.max(
              MIN_FRAMES_PER_READ_FLOOR,
              Math.max(
                  directFloor,
                  Math.max(
                      spread(ra, m -> m.path("frames_per_read").asDouble()),
                      spread(rb, m -> m.path("frames_per_read").asDouble()))));
      out.add(
          new Difference(
              cell,
              target,
              "frames per read",
              ra.path("metrics").path("frames_per_read").asDouble(),
              rb.path("metrics").path("frames_per_read").asDouble(),
              fprFloor,
              true));
      time(out, cell, target, "TTFT p50 ms", ra, rb, "ttft_ms", "p50");
      time(out, cell, target, "gap p99 ms", ra, rb, "gap_ms", "p99");
      time(out, cell, target, "emit->recv p99 ms", ra, rb, "emit_to_recv_ms", "p99");
    }
    return out;
  }

  private static void time(
      List<Difference> out,
      String cell,
      String target,
      String measure,
      JsonNode ra,
      JsonNode rb,
      String metric,
      String stat) {
    ToDoubleFunction<JsonNode> pick = m -> m.path(metric).path(stat).asDouble();
    boolean judged = keptRuns(ra) >= 2 && keptRuns(rb) >= 2;
    double floor = Math.max(spread(ra, pick), spread(rb, pick));
    out.add(
        new Difference(
            cell,
            target,
            measure,
            pick.applyAsDouble(ra.path("metrics")),
            pick.applyAsDouble(rb.path("metrics")),
            floor,
            judged));
  }

  private static JsonNode find(JsonNode results, String cell, String target) {
    for (JsonNode r : results.path("cells")) {
      if (r.path("cell_label").asText().equals(cell) && r.path("target").asText().equals(target))
        return r;
    }
    return null;
  }

  private static int keptRuns(JsonNode row) {
    int n = 0;
    for (JsonNode run : row.path("runs"))
      if (!run.path("excluded").asBoolean() && run.path("metrics").path("streams_ok").asInt() > 0)
        n++;
    return n;
  }

  /** Max - min of a per-run value over a row's kept runs; 0 with fewer than two. */
  private static double spread(JsonNode row, ToDoubleFunction<JsonNode> pick) {
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    int n = 0;
    for (JsonNode run : row.path("runs")) {
      if (run.path("excluded").asBoolean() || run.path("metrics").path("streams_ok").asInt() == 0)
        continue;
      double v = pick.applyAsDouble(run.path("metrics"));
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
      n++;
    }
    return n < 2 ? 0 : hi - lo;
  }

  /**
   * The direct path's run-to-run spread of frames per read, over every cell and the certification.
   */
  private static double directSpread(JsonNode results) {
    double s = 0;
    for (JsonNode row : results.path("cells")) {
      if (isDirect(results, row.path("target").asText()))
        s = Math.max(s, spread(row, m -> m.path("frames_per_read").asDouble()));
    }
    return Math.max(
        s, spread(results.path("certification"), m -> m.path("frames_per_read").asDouble()));
  }

  private static boolean isDirect(JsonNode results, String target) {
    for (JsonNode t : results.path("targets")) {
      if (t.path("name").asText().equals(target)) return "direct".equals(t.path("kind").asText());
    }
    return false;
  }

  static String differencesTable(List<Difference> diffs) {
    StringBuilder b =
        new StringBuilder(
                "<section id=\"differences\"><h2>Differences (B - A)</h2>\n<p class=\"explain\">")
            .append(
                esc(
                    "Highlighted: beyond the noise floor. Frames per read: beyond the larger run-to-run spread of the direct path"
                        + " in either folder and of the target in that cell, and at least "
                        + MIN_FRAMES_PER_READ_FLOOR
                        + ". Times: beyond the"
                        + " larger run-to-run spread of that target in that cell in either folder; with fewer than two kept runs on a side"
                        + " there is no spread to judge by, so nothing is highlighted (\"1 run\")."))
            .append(
                "</p>\n<table><tr><th>cell</th><th>target</th><th>measure</th><th>A</th><th>B</th><th>B - A</th><th>noise floor</th></tr>\n");
    for (Difference d : diffs) {
      b.append("<tr><td>")
          .append(esc(d.cell()))
          .append("</td><td class=\"text\">")
          .append(esc(d.target()))
          .append("</td><td class=\"text\">")
          .append(esc(d.measure()))
          .append("</td><td>")
          .append(String.format("%.3f", d.a()))
          .append("</td><td>")
          .append(String.format("%.3f", d.b()))
          .append("</td><td")
          .append(d.beyondNoise() ? " class=\"beyond\"" : "")
          .append(">")
          .append(String.format("%+.3f", d.b() - d.a()))
          .append("</td><td>")
          .append(d.judged() ? String.format("%.3f", d.floor()) : "1 run")
          .append("</td></tr>\n");
    }
    return b.append("</table></section>").toString();
  }
}
