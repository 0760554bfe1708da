package flushlab.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
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
    String chunk =
        "{ \"pi_ts\" : 1764460800123456789 ,\n \"choices\" : [ { \"finish_reason\" : null , \"delta\" : { \"content\" : \"moss \" } ,"
            + " \"index\" : 0 } ] , \"model\" : \"m\" , \"id\" : \"x\" , \"pi_seq\" :  42 , \"x_gateway\" : { \"route\" : \"a\" } }";
    assertThat(decode(chunk)).isEqualTo(FrameKind.FRAME);
    assertThat(decoder.seq).isEqualTo(42);
    assertThat(decoder.emitEpochNanos).isEqualTo(1764460800123456789L);
  }

  @Test
  void aTokenWhosePiFieldsWereDroppedIsCountedAsUnchecked() {
    assertThat(
            decode(
                "{\"id\":\"x\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"moss \"},\"finish_reason\":null}]}"))
        .isEqualTo(FrameKind.UNCHECKED_FRAME);
    assertThat(
            decode(
                "{\"type\":\"response.output_text.delta\",\"delta\":\"moss \",\"sequence_number\":7}"))
        .isEqualTo(FrameKind.UNCHECKED_FRAME);
  }

  @Test
  void eventsWithoutTextAreControl() {
    assertThat(decode("{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}"))
        .isEqualTo(FrameKind.CONTROL);
    assertThat(decode("{\"choices\":[],\"usage\":{\"completion_tokens\":3}}"))
        .isEqualTo(FrameKind.CONTROL);
    assertThat(decode("{\"type\":\"response.created\",\"response\":{\"output\":[]}}"))
        .isEqualTo(FrameKind.CONTROL);
    assertThat(decode("{\"type\":\"response.output_text.done\",\"text\":\"moss reed\"}"))
        .isEqualTo(FrameKind.CONTROL);
  }

  @Test
  void textThatMentionsPiFieldsIsNotTakenForThem() {
    assertThat(
            decode(
                "{\"choices\":[{\"delta\":{\"content\":\"\\\"pi_seq\\\":5,\\\"pi_ts\\\":9\"}}]}"))
        .isEqualTo(FrameKind.UNCHECKED_FRAME);
  }

  @Test
  void halfAPairOrAMangledValueIsCorrupt() {
    assertThat(decode("{\"pi_seq\":3,\"choices\":[]}")).isEqualTo(FrameKind.CORRUPT);
    assertThat(decode("{\"pi_seq\":\"3\",\"pi_ts\":5}")).isEqualTo(FrameKind.CORRUPT);
    assertThat(decode("{\"pi_seq\":3,\"pi_ts\":")).isEqualTo(FrameKind.CORRUPT);
  }

  private static String chunk(long seq) {
    return "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1764460800,\"model\":\"m\","
        + "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"moss \"},\"finish_reason\":null}],\"pi_seq\":"
        + seq
        + ",\"pi_ts\":"
        + (1764460800000000000L + seq)
        + "}";
  }

  /**
   * One decoder reads a whole stream: an event it could not read to its end never spoils the next.
   */
  @Test
  void aBadEventLeavesTheNextOneReadable() {
    String[] spoilers = {
      "{\"pi_seq\":3,\"pi_ts\":",
      "{\"choices\":[{\"delta\":{\"content\":\"mo",
      "{not json}",
      "{\"a\":1}}}",
      "{\"a\":1} trailing words",
      "{\"a\":1}{\"b\":",
      "{\"type\":\"x\"] "
    };
    long seq = 0;
    for (String spoiler : spoilers) {
      assertThat(decode(chunk(seq))).as("before " + spoiler).isEqualTo(FrameKind.FRAME);
      assertThat(decoder.seq).isEqualTo(seq++);
      FrameKind k = decode(spoiler);
      assertThat(k).as(spoiler).isIn(FrameKind.CORRUPT, FrameKind.CONTROL);
      assertThat(decode(chunk(seq))).as("after " + spoiler).isEqualTo(FrameKind.FRAME);
      assertThat(decoder.seq).isEqualTo(seq++);
      assertThat(decoder.emitEpochNanos).isEqualTo(1764460800000000000L + seq - 1);
    }
    assertThat(decode("{\"pi_seq\":3,\"pi_ts\":"))
        .as("an event cut short")
        .isEqualTo(FrameKind.CORRUPT);
    assertThat(decode("{\"a\":1} trailing words"))
        .as("what follows the object is ignored")
        .isEqualTo(FrameKind.CONTROL);
  }

  /**
   * The client decodes every OpenAI chunk on its event loop; garbage there is a collection in the
   * middle of a measurement (a parser per event was about 850 B a frame, and 100 streams of 200
   * chunks met a 30-47 ms young pause mid-run in most runs).
   */
  @Test
  void decodingAChunkAllocatesAlmostNothing() {
    byte[][] chunks = new byte[2000][];
    for (int i = 0; i < chunks.length; i++) chunks[i] = chunk(i).getBytes(StandardCharsets.UTF_8);
    for (byte[] c : chunks)
      decoder.decode(c, c.length); // loads the classes, sizes the parser's buffers
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = threads.getCurrentThreadAllocatedBytes();
    int frames = 0;
    for (byte[] c : chunks) if (decoder.decode(c, c.length) == FrameKind.FRAME) frames++;
    long perChunk = (threads.getCurrentThreadAllocatedBytes() - before) / chunks.length;
    assertThat(frames).isEqualTo(chunks.length);
    System.out.println("decoding one OpenAI chunk allocated " + perChunk + " B");
    assertThat(perChunk).as("bytes allocated per chunk decoded").isLessThan(64);
  }
}
