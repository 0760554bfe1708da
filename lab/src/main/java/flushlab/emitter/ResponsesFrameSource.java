package flushlab.emitter;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import flushlab.core.Json;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * OpenAI's Responses API stream ({@code POST /v1/responses}, {@code stream: true}): with the head,
 * response.created, response.in_progress, response.output_item.added and
 * response.content_part.added; then one response.output_text.delta per token on the pacing clock,
 * each with pi_seq and pi_ts like the chat chunks; then output_text.done, content_part.done,
 * output_item.done and response.completed (status "incomplete" when max_output_tokens cut it),
 * which repeat the whole text, as OpenAI's do.
 */
public final class ResponsesFrameSource implements FrameSource {
  /**
   * The closing events repeat the text four times and go out in one write with the last token:
   * about 24 B per token must fit the emitter's write buffer.
   */
  public static final int MAX_TOKENS = 2000;

  private final int tokens;
  private final byte[] preamble;
  private final byte[] head;
  private final byte[] seqField;
  private final byte[] piSeqField;
  private final byte[] tail;
  private final byte[] trailer;
  private final int firstDeltaSequence;

  ResponsesFrameSource(long streamId, ChatRequestSpec spec, long createdEpochSeconds) {
    if (spec.tokens() > MAX_TOKENS) {
      throw OpenAiError.invalid(
          "pi_tokens",
          "bad field 'pi_tokens': "
              + spec.tokens()
              + " for /v1/responses (allowed: at most "
              + MAX_TOKENS
              + ": its closing events repeat the whole text; stream longer texts through /v1/chat/completions)");
    }
    this.tokens = spec.tokens();
    String responseId = "resp_flushlab_" + streamId;
    String itemId = "msg_flushlab_" + streamId;
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < tokens; i++) text.append(ChatFrameSource.word(i)).append(' ');

    int seq = 0;
    StringBuilder pre = new StringBuilder();
    ObjectNode response = response(responseId, spec, createdEpochSeconds, "in_progress");
    pre.append(event("response.created", seq++, o -> o.set("response", response.deepCopy())));
    pre.append(event("response.in_progress", seq++, o -> o.set("response", response.deepCopy())));
    pre.append(
        event(
            "response.output_item.added",
            seq++,
            o -> o.put("output_index", 0).set("item", item(itemId, "in_progress", null))));
    pre.append(
        event(
            "response.content_part.added",
            seq++,
            o ->
                o.put("item_id", itemId)
                    .put("output_index", 0)
                    .put("content_index", 0)
                    .set("part", part(""))));
    this.preamble = pre.toString().getBytes(StandardCharsets.UTF_8);
    this.firstDeltaSequence = seq;
    seq += tokens;

    // A delta, written by hand on the hot path: event line, then the JSON with the word and pi
    // fields last.
    this.head =
        ("event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"item_id\":\""
                + itemId
                + "\",\"output_index\":0,\"content_index\":0,\"logprobs\":[],\"delta\":\"")
            .getBytes(StandardCharsets.US_ASCII);
    this.seqField = "\",\"sequence_number\":".getBytes(StandardCharsets.US_ASCII);
    this.piSeqField = ",\"pi_seq\":".getBytes(StandardCharsets.US_ASCII);
    this.tail = "}\n\n".getBytes(StandardCharsets.US_ASCII);

    String full = text.toString();
    StringBuilder post = new StringBuilder();
    post.append(
        event(
            "response.output_text.done",
            seq++,
            o ->
                o.put("item_id", itemId)
                    .put("output_index", 0)
                    .put("content_index", 0)
                    .put("text", full)
                    .putArray("logprobs")));
    post.append(
        event(
            "response.content_part.done",
            seq++,
            o ->
                o.put("item_id", itemId)
                    .put("output_index", 0)
                    .put("content_index", 0)
                    .set("part", part(full))));
    ObjectNode doneItem = item(itemId, "completed", full);
    post.append(
        event(
            "response.output_item.done",
            seq++,
            o -> o.put("output_index", 0).set("item", doneItem.deepCopy())));
    ObjectNode completed =
        response(
            responseId, spec, createdEpochSeconds, spec.cutByLimit() ? "incomplete" : "completed");
    if (spec.cutByLimit())
      completed.putObject("incomplete_details").put("reason", "max_output_tokens");
    ((ArrayNode) completed.get("output")).add(doneItem);
    ObjectNode usage =
        completed
            .putObject("usage")
            .put("input_tokens", spec.promptTokens())
            .put("output_tokens", tokens)
            .put("total_tokens", spec.promptTokens() + tokens);
    usage.putObject("input_tokens_details").put("cached_tokens", 0).put("cache_write_tokens", 0);
    usage.putObject("output_tokens_details").put("reasoning_tokens", 0);
    post.append(
        event(
            spec.cutByLimit() ? "response.incomplete" : "response.completed",
            seq++,
            o -> o.set("response", completed)));
    this.trailer = post.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The response object with every field OpenAI's SDKs require, at the values a plain text request
   * gets.
   */
  private static ObjectNode response(String id, ChatRequestSpec spec, long created, String status) {
    ObjectNode r =
        Json.MAPPER
            .createObjectNode()
            .put("id", id)
            .put("object", "response")
            .put("created_at", created)
            .put("status", status)
            .put("model", spec.model());
    r.putNull("error");
    r.putNull("incomplete_details");
    r.putNull("instructions");
    r.putObject("metadata");
    r.putArray("output");
    r.put("parallel_tool_calls", true);
    r.put("temperature", 1.0);
    r.put("tool_choice", "auto");
    r.putArray("tools");
    r.put("top_p", 1.0);
    r.putObject("text").putObject("format").put("type", "text");
    r.put("truncation", "disabled");
    r.putNull("usage");
    return r;
  }

  private static ObjectNode item(String id, String status, String text) {
    ObjectNode item =
        Json.MAPPER
            .createObjectNode()
            .put("id", id)
            .put("type", "message")
            .put("status", status)
            .put("role", "assistant");
    ArrayNode content = item.putArray("content");
    if (text != null) content.add(part(text));
    return item;
  }

  private static ObjectNode part(String text) {
    ObjectNode p = Json.MAPPER.createObjectNode().put("type", "output_text").put("text", text);
    p.putArray("annotations");
    return p;
  }

  private static String event(String type, int sequence, Consumer<ObjectNode> fields) {
    ObjectNode o =
        Json.MAPPER.createObjectNode().put("type", type).put("sequence_number", sequence);
    fields.accept(o);
    return "event: " + type + "\ndata: " + o + "\n\n";
  }

  @Override
  public int frames() {
    return tokens;
  }

  @Override
  public int maxEventBytes() {
    return head.length
        + 16
        + seqField.length
        + 20
        + piSeqField.length
        + 20
        + ",\"pi_ts\":".length()
        + 20
        + tail.length;
  }

  @Override
  public int write(int index, long emitEpochNanos, byte[] out, int off) {
    int p = off;
    p = ChatFrameSource.put(head, out, p);
    p =
        ChatFrameSource.put(
            ChatFrameSource.WORD_BYTES[index % ChatFrameSource.WORD_BYTES.length], out, p);
    p = ChatFrameSource.put(seqField, out, p);
    p = ChatFrameSource.putDecimal(firstDeltaSequence + index, out, p);
    p = ChatFrameSource.put(piSeqField, out, p);
    p = ChatFrameSource.putDecimal(index, out, p);
    p = ChatFrameSource.put(PI_TS, out, p);
    p = ChatFrameSource.putDecimal(emitEpochNanos, out, p);
    p = ChatFrameSource.put(tail, out, p);
    return p - off;
  }

  private static final byte[] PI_TS = ",\"pi_ts\":".getBytes(StandardCharsets.US_ASCII);

  @Override
  public byte[] preamble() {
    return preamble;
  }

  @Override
  public byte[] trailer() {
    return trailer;
  }
}
