package flushlab.emitter;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.nio.charset.StandardCharsets;

/**
 * OpenAI {@code chat.completion.chunk} events, one short word per chunk, in the layout OpenAI
 * streams (system_fingerprint, logprobs null, usage null when the usage chunk was asked for). Each
 * carries pi_ts (emit time, epoch ns) and pi_seq (its index) as extra fields; then the finish
 * chunk, the usage chunk ({@code choices: []}) when stream_options.include_usage asked, and {@code
 * [DONE]}.
 */
public final class ChatFrameSource implements FrameSource {
  static final String[] WORDS = {
    "lorem", "ipsum", "dolor", "sit", "amet", "tide", "lamp", "wren", "pike", "gale",
    "moss", "reed", "fern", "glow", "dune", "mist", "cove", "oak", "iron", "salt"
  };
  static final byte[][] WORD_BYTES = new byte[WORDS.length][];

  static {
    for (int i = 0; i < WORDS.length; i++) {
      WORD_BYTES[i] = (WORDS[i] + " ").getBytes(StandardCharsets.US_ASCII);
    }
  }

  private final int tokens;
  private final byte[] head;
  private final byte[] firstDelta;
  private final byte[] middle;
  private final byte[] seqField;
  private final byte[] tsField;
  private final byte[] tail;
  private final byte[] trailer;

  static final String SYSTEM_FINGERPRINT = "fp_flushlab";

  ChatFrameSource(long streamId, ChatRequestSpec spec, long createdEpochSeconds) {
    this.tokens = spec.tokens();
    String model = spec.model();
    String id = "chatcmpl-flushlab-" + streamId;
    // Jackson's encoder escapes everything JSON requires (quotes, backslash, CR, LF, every control
    // character), so no model name can end an SSE event early or inject one.
    String safeModel = new String(JsonStringEncoder.getInstance().quoteAsString(model));
    String common =
        "{\"id\":\""
            + id
            + "\",\"object\":\"chat.completion.chunk\",\"created\":"
            + createdEpochSeconds
            + ",\"model\":\""
            + safeModel
            + "\",\"system_fingerprint\":\""
            + SYSTEM_FINGERPRINT
            + "\",\"choices\":[{\"index\":0,\"delta\":{";
    String usageNull = spec.includeUsage() ? ",\"usage\":null" : "";
    this.head = ("data: " + common).getBytes(StandardCharsets.UTF_8);
    this.firstDelta = "\"role\":\"assistant\",".getBytes(StandardCharsets.US_ASCII);
    this.middle = "\"content\":\"".getBytes(StandardCharsets.US_ASCII);
    this.seqField =
        ("\"},\"logprobs\":null,\"finish_reason\":null}]" + usageNull + ",\"pi_seq\":")
            .getBytes(StandardCharsets.US_ASCII);
    this.tsField = ",\"pi_ts\":".getBytes(StandardCharsets.US_ASCII);
    this.tail = "}\n\n".getBytes(StandardCharsets.US_ASCII);
    String usageChunk = "";
    if (spec.includeUsage()) {
      String usageHead = common.substring(0, common.lastIndexOf("\"choices\":"));
      usageChunk =
          "data: "
              + usageHead
              + "\"choices\":[],\"usage\":{\"prompt_tokens\":"
              + spec.promptTokens()
              + ",\"completion_tokens\":"
              + tokens
              + ",\"total_tokens\":"
              + (spec.promptTokens() + tokens)
              + "}}\n\n";
    }
    this.trailer =
        ("data: "
                + common
                + "},\"logprobs\":null,\"finish_reason\":\""
                + spec.finishReason()
                + "\"}]"
                + usageNull
                + "}\n\n"
                + usageChunk
                + "data: [DONE]\n\n")
            .getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The word the chat stream sends as token {@code index} (the console shows tokens by their
   * count).
   */
  public static String word(int index) {
    return WORDS[index % WORDS.length];
  }

  @Override
  public int frames() {
    return tokens;
  }

  @Override
  public int maxEventBytes() {
    return head.length
        + firstDelta.length
        + middle.length
        + 16
        + seqField.length
        + 20
        + tsField.length
        + 20
        + tail.length;
  }

  @Override
  public int write(int index, long emitEpochNanos, byte[] out, int off) {
    int p = off;
    p = put(head, out, p);
    if (index == 0) p = put(firstDelta, out, p);
    p = put(middle, out, p);
    p = put(WORD_BYTES[index % WORD_BYTES.length], out, p);
    p = put(seqField, out, p);
    p = putDecimal(index, out, p);
    p = put(tsField, out, p);
    p = putDecimal(emitEpochNanos, out, p);
    p = put(tail, out, p);
    return p - off;
  }

  @Override
  public byte[] trailer() {
    return trailer;
  }

  static int put(byte[] src, byte[] out, int p) {
    System.arraycopy(src, 0, out, p, src.length);
    return p + src.length;
  }

  static int putDecimal(long v, byte[] out, int p) {
    int start = p;
    do {
      out[p++] = (byte) ('0' + (v % 10));
      v /= 10;
    } while (v > 0);
    for (int i = start, j = p - 1; i < j; i++, j--) {
      byte t = out[i];
      out[i] = out[j];
      out[j] = t;
    }
    return p;
  }
}
