package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * stream-if's three presets against seven response shapes, through a real relay: each shape is
 * streamed (one frame per read) or held to its end (otherwise=drain) exactly as the rule it follows
 * says, cell by cell.
 */
class StreamIfTest extends ShaperTestBase {
  record Shape(String query, boolean go, boolean cloudflared, boolean springCloudGateway) {}

  static final List<Shape> SHAPES =
      List.of(
          new Shape("", true, true, true),
          new Shape("content_type=text/event-stream;%20charset=utf-8", true, true, true),
          new Shape("content_type=application/x-ndjson", true, false, false),
          new Shape("content_type=application/x-ndjson&transfer=length", false, false, false),
          new Shape("transfer=length", true, true, true),
          new Shape("content_type=text/plain&transfer=close", true, false, false),
          new Shape("content_type=application/stream%2Bjson", true, false, true));

  @Test
  void eachPresetStreamsExactlyTheShapesItsRuleNames() throws Exception {
    List<String> wrong = new ArrayList<>();
    for (Shape s : SHAPES) {
      // 50 ms apart: the pacing guard then allows a 25 ms host stall, and 21 sequential streams
      // give a stall many chances; streamed or held needs no faster pace than this.
      String query =
          "frames=10&size=60&interval=50ms" + (s.query().isEmpty() ? "" : "&" + s.query());
      check(wrong, query, "go", s.go());
      check(wrong, query, "cloudflared", s.cloudflared());
      check(wrong, query, "spring-cloud-gateway", s.springCloudGateway());
    }
    assertThat(wrong).isEmpty();
  }

  private void check(List<String> wrong, String query, String preset, boolean streams)
      throws Exception {
    BatchResult r = whole(through(query, "stream-if,preset=" + preset + ",otherwise=drain"), 10);
    boolean streamed = r.framesPerRead() <= 1.2;
    boolean held = r.framesPerRead() >= 9;
    System.out.printf(
        "StreamIfTest: %s, %s: %.2f frames per read%n", preset, query, r.framesPerRead());
    if (streams ? !streamed : !held) wrong.add(preset + " " + query + ": " + r.oneLine());
  }
}
