package flushlab.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** OpenAI events as gateways re-serialise them: the decoder reads JSON, not byte patterns. */
class FrameDecoderJsonTest {
  private final FrameDecoder decoder = new FrameDecoder();

  private FrameKind decode(String data) {
    byte[] b = data.getBytes(StandardCharsets.UTF_8);
    return decoder.decode(b, b.length);
  }

  @Test
  void reorderedKeysAndExtraSpacesStillYieldSequenceAndTimestamp() {
    String chunk = "{ \"pi_ts\" : 1764460800123456789 ,\n \"choices\" : [ { \"finish_reason\" : null , \"delta\" : { \"content\" : \"moss \" } ,"
        + " \"index\" : 0 } ] , \"model\" : \"m\" , \"id\" : \"x\" , \"pi_seq\" :  42 , \"x_gateway\" : { \"route\" : \"a\" } }";
    assertThat(decode(chunk)).isEqualTo(FrameKind.FRAME);
    assertThat(decoder.seq).isEqualTo(42);
    assertThat(decoder.emitEpochNanos).isEqualTo(1764460800123456789L);
  }

  @Test
  void aTokenWhosePiFieldsWereDroppedIsCountedAsUnchecked() {
    assertThat(decode("{\"id\":\"x\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"moss \"},\"finish_reason\":null}]}"))
        .isEqualTo(FrameKind.UNCHECKED_FRAME);
    assertThat(decode("{\"type\":\"response.output_text.delta\",\"delta\":\"moss \",\"sequence_number\":7}"))
        .isEqualTo(FrameKind.UNCHECKED_FRAME);
  }

  @Test
  void eventsWithoutTextAreControl() {
    assertThat(decode("{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}")).isEqualTo(FrameKind.CONTROL);
    assertThat(decode("{\"choices\":[],\"usage\":{\"completion_tokens\":3}}")).isEqualTo(FrameKind.CONTROL);
    assertThat(decode("{\"type\":\"response.created\",\"response\":{\"output\":[]}}")).isEqualTo(FrameKind.CONTROL);
    assertThat(decode("{\"type\":\"response.output_text.done\",\"text\":\"moss reed\"}")).isEqualTo(FrameKind.CONTROL);
  }

  @Test
  void textThatMentionsPiFieldsIsNotTakenForThem() {
    assertThat(decode("{\"choices\":[{\"delta\":{\"content\":\"\\\"pi_seq\\\":5,\\\"pi_ts\\\":9\"}}]}")).isEqualTo(FrameKind.UNCHECKED_FRAME);
  }

  @Test
  void halfAPairOrAMangledValueIsCorrupt() {
    assertThat(decode("{\"pi_seq\":3,\"choices\":[]}")).isEqualTo(FrameKind.CORRUPT);
    assertThat(decode("{\"pi_seq\":\"3\",\"pi_ts\":5}")).isEqualTo(FrameKind.CORRUPT);
    assertThat(decode("{\"pi_seq\":3,\"pi_ts\":")).isEqualTo(FrameKind.CORRUPT);
  }
}
