package flushlab.run;

import flushlab.map.TriggerKind;
import flushlab.stream.ResponseShape;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What `flushlab map --shapes` writes: one map of the target per response shape, and whether the
 * target treats the shapes alike. A proxy that decides by the response's headers (Go's ReverseProxy
 * streams an event stream and holds a body with a Content-Length) answers differently per shape;
 * the verdict names each.
 *
 * @param decidesByShape the shapes' answers differ (by kind or model); false when they agree or
 *     when any shape has no answer (then the verdict says which)
 */
public record ShapesAnswer(
    String target, List<ShapeAnswer> shapes, boolean decidesByShape, String verdict) {

  /** One shape and the map's answer for it. */
  public record ShapeAnswer(ResponseShape response, MapAnswer answer) {
    /** "byte-threshold (byte-threshold=4096B)", or the kind alone when there is no model. */
    public String brief() {
      String chain = answer.model() == null ? null : answer.model().chain();
      return answer.kind().text() + (chain == null ? "" : " (" + chain + ")");
    }
  }

  public static ShapesAnswer of(String target, List<ShapeAnswer> shapes) {
    List<String> missing = new ArrayList<>();
    List<String> unnamed = new ArrayList<>();
    Set<String> named = new LinkedHashSet<>();
    for (ShapeAnswer s : shapes) {
      if (!s.answer().certified())
        missing.add(s.response().describe() + ": " + s.answer().verdict());
      else if (s.answer().kind() == TriggerKind.INCONCLUSIVE) unnamed.add(s.response().describe());
      else named.add(s.brief());
    }
    if (!missing.isEmpty()) {
      return new ShapesAnswer(
          target,
          List.copyOf(shapes),
          false,
          "not every shape was mapped: " + String.join("; ", missing));
    }
    if (named.size() > 1) {
      // only answers that name a mechanism tell the shapes apart: an inconclusive one is listed,
      // never counted as different
      List<String> each = new ArrayList<>();
      for (ShapeAnswer s : shapes) each.add(s.response().describe() + ": " + s.brief());
      return new ShapesAnswer(
          target,
          List.copyOf(shapes),
          true,
          "decides by the response's shape: " + String.join("; ", each));
    }
    if (unnamed.isEmpty()) {
      return new ShapesAnswer(
          target,
          List.copyOf(shapes),
          false,
          "the same for every shape: " + named.iterator().next());
    }
    return new ShapesAnswer(
        target,
        List.copyOf(shapes),
        false,
        (named.isEmpty()
                ? ""
                : "the same for the shapes it could name (" + named.iterator().next() + "); ")
            + "inconclusive for "
            + String.join(", ", unnamed)
            + " (see each shape's answer)");
  }
}
