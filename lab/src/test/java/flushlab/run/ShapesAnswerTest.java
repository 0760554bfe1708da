package flushlab.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flushlab.map.ShaperModel;
import flushlab.map.TriggerKind;
import flushlab.stream.ResponseShape;
import flushlab.stream.Transfer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * `map --shapes`: when the answers say the target decides by the response's shape, and the list the
 * flag takes.
 */
class ShapesAnswerTest {
  static final ResponseShape SSE = ResponseShape.EVENT_STREAM;
  static final ResponseShape NDJSON_LENGTH =
      new ResponseShape("application/x-ndjson", Transfer.LENGTH);

  static MapAnswer answer(boolean certified, TriggerKind kind, String chain) {
    return new MapAnswer(
        "relay",
        certified,
        kind,
        null,
        null,
        null,
        null,
        kind.text() + " ...",
        5,
        4,
        List.of(),
        List.of(),
        List.of(),
        null,
        chain == null ? ShaperModel.none("no model") : new ShaperModel(chain, null),
        null,
        null,
        null,
        null,
        List.of());
  }

  static ShapesAnswer.ShapeAnswer shape(ResponseShape s, TriggerKind kind, String chain) {
    return new ShapesAnswer.ShapeAnswer(s, answer(true, kind, chain));
  }

  @Test
  void differentMechanismsPerShapeMeanTheTargetDecidesByTheShape() {
    ShapesAnswer a =
        ShapesAnswer.of(
            "relay",
            List.of(
                shape(SSE, TriggerKind.NONE, "passthrough"),
                shape(NDJSON_LENGTH, TriggerKind.BYTE_THRESHOLD, "byte-threshold=4096B")));
    assertThat(a.decidesByShape()).isTrue();
    assertThat(a.verdict())
        .isEqualTo(
            "decides by the response's shape: text/event-stream, chunked: none (passthrough); "
                + "application/x-ndjson with a Content-Length: byte-threshold (byte-threshold=4096B)");
  }

  @Test
  void theSameAnswerForEveryShapeIsSaidOnce() {
    ShapesAnswer a =
        ShapesAnswer.of(
            "relay",
            List.of(
                shape(SSE, TriggerKind.TIMER, "timer=100ms"),
                shape(NDJSON_LENGTH, TriggerKind.TIMER, "timer=100ms")));
    assertThat(a.decidesByShape()).isFalse();
    assertThat(a.verdict()).isEqualTo("the same for every shape: timer (timer=100ms)");
  }

  /**
   * No answer from missing data: an inconclusive shape is listed, never taken for a different
   * mechanism.
   */
  @Test
  void anInconclusiveShapeIsNotADifference() {
    ShapesAnswer a =
        ShapesAnswer.of(
            "relay",
            List.of(
                shape(SSE, TriggerKind.NONE, "passthrough"),
                shape(NDJSON_LENGTH, TriggerKind.INCONCLUSIVE, null)));
    assertThat(a.decidesByShape()).isFalse();
    assertThat(a.verdict())
        .isEqualTo(
            "the same for the shapes it could name (none (passthrough)); inconclusive for application/x-ndjson with a "
                + "Content-Length (see each shape's answer)");
    ShapesAnswer uncertified =
        ShapesAnswer.of(
            "relay",
            List.of(
                shape(SSE, TriggerKind.NONE, "passthrough"),
                new ShapesAnswer.ShapeAnswer(
                    NDJSON_LENGTH, answer(false, TriggerKind.INCONCLUSIVE, null))));
    assertThat(uncertified.decidesByShape()).isFalse();
    assertThat(uncertified.verdict())
        .startsWith("not every shape was mapped: application/x-ndjson with a Content-Length: ");
  }

  @Test
  void theShapesFlagTakesTheMatrixOrAList() {
    assertThat(ResponseShape.parseList("matrix"))
        .isEqualTo(ResponseShape.DETECTION_MATRIX)
        .hasSize(4)
        .startsWith(SSE);
    assertThat(
            ResponseShape.parseList(
                " transfer=length ; content_type=application/x-ndjson,transfer=length "))
        .containsExactly(new ResponseShape("text/event-stream", Transfer.LENGTH), NDJSON_LENGTH);
    assertThatThrownBy(
            () ->
                ResponseShape.parseList(
                    "transfer=length;".repeat(1)
                        + "transfer=chunked;transfer=close;transfer=chunked-always;"
                        + "content_type=a/b;content_type=a/c;content_type=a/d;content_type=a/e;content_type=a/f"))
        .hasMessageContaining("at most 8");
    assertThatThrownBy(() -> ResponseShape.parseList("")).hasMessageContaining("is not key=value");
  }
}
