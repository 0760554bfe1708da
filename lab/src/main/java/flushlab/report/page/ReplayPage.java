package flushlab.report.page;

import static flushlab.report.page.Page.esc;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import flushlab.client.Staircase;
import flushlab.run.MapAnswer;
import flushlab.run.ReplayedCell;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The `map --repro` bundle's {@code report.html}: each cell the model was replayed on, as one
 * arrival staircase with the target's stream and the model's overlaid (frame number against the
 * time it was received), and the frames as the emitter sent them. Where the model reproduces the
 * target the two staircases lie on each other; where it does not, the chart's subtitle says what
 * differed. A vendor sees, without running anything, that the lab's relay does what the proxy did.
 */
public final class ReplayPage {
  static final String TARGET_COLOUR = Options.colour(0);
  static final String MODEL_COLOUR = Options.colour(1);

  private ReplayPage() {}

  /** The page of {@code answer}'s replay; null when nothing was replayed. */
  public static String render(MapAnswer answer) {
    if (answer.replayedCells() == null || answer.replayedCells().isEmpty()) return null;
    Page page = new Page("flushlab map: " + answer.target() + ", replayed", "replay");
    String model =
        answer.model() == null || answer.model().chain() == null
            ? "(no model)"
            : answer.model().chain();
    page.html(
        "<header><h1>flushlab map: "
            + esc(answer.target())
            + "</h1>\n<p class=\"meta\">the answer: "
            + esc(answer.verdict())
            + "</p>\n<p class=\"meta\">the model <code>"
            + esc(model)
            + "</code>, replayed as a built-in relay on the target's path: "
            + esc(answer.replay() == null ? "not replayed" : answer.replay())
            + "</p></header>");
    page.charts(charts(answer), sections());
    return page.render();
  }

  static Map<String, String[]> sections() {
    Map<String, String[]> s = new LinkedHashMap<>();
    s.put(
        "staircase",
        new String[] {
          "The target and its model, cell by cell",
          "One stream of each cell through the target (solid) and through the lab's relay running the model (dashed), on the same"
              + " axes: frame number against the time it was received; the grey dashed line is when the emitter sent each frame to the"
              + " target. Where the model reproduces the target the two staircases lie on each other."
        });
    return s;
  }

  /** One chart a cell, in the order replayed. */
  static List<Chart> charts(MapAnswer answer) {
    List<Chart> out = new ArrayList<>();
    int id = 0;
    for (ReplayedCell c : answer.replayedCells()) {
      double xMax = Math.max(1, Math.max(last(c.target()), last(c.model())));
      double yMax = Math.max(1, Math.max(frames(c.target()), frames(c.model())));
      ObjectNode o =
          Options.base(
              c.label(),
              c.difference() == null ? "the model agrees" : "differs: " + c.difference());
      o.with("tooltip").put("trigger", "axis");
      o.set(
          "xAxis",
          Options.valueAxis("ms since the request", 0.0, Options.niceCeiling(xMax), "value"));
      o.set("yAxis", Options.yAxis("frame", 0.0, yMax, "value"));
      ArrayNode series = o.putArray("series");
      series.add(
          Options.line(
              "target received",
              TARGET_COLOUR,
              points(c.target() == null ? null : c.target().recvMs()),
              false,
              "end"));
      series.add(
          Options.line(
              "model received",
              MODEL_COLOUR,
              points(c.model() == null ? null : c.model().recvMs()),
              true,
              "end"));
      series.add(
          Options.line(
              "emitted",
              "#9e9e9e",
              points(c.target() == null ? null : c.target().emitMs()),
              true,
              null));
      // below the subtitle (what agreed or differed), clear of it
      o.set(
          "legend",
          Options.legend(List.of("target received", "model received", "emitted")).put("top", 56));
      o.with("grid").put("top", 92);
      out.add(new Chart("chart" + id++, "staircase", "", c.label(), o, false));
    }
    return out;
  }

  private static ArrayNode points(List<Double> times) {
    ArrayNode pts = Options.F.arrayNode();
    if (times != null)
      for (int i = 0; i < times.size(); i++) Options.point(pts, times.get(i), i + 1);
    return pts;
  }

  private static double last(Staircase s) {
    return s == null || s.recvMs().isEmpty() ? 0 : s.recvMs().get(s.recvMs().size() - 1);
  }

  private static int frames(Staircase s) {
    return s == null ? 0 : s.recvMs().size();
  }
}
