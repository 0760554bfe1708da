package flushlab.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
import flushlab.core.FrameCodec;
import java.io.IOException;
import java.util.zip.CRC32C;

/**
 * Recognises the data of one SSE event: a plain flushlab frame, an OpenAI chat chunk or Responses
 * API event (with or without flushlab's pi_seq/pi_ts; parsed as JSON), a finish chunk, or [DONE].
 *
 * <p>One decoder reads one stream, and its JSON events go through one non-blocking parser fed event
 * by event, so a frame allocates next to nothing. A parser made per event cost about 850 B of
 * garbage per frame (a client reading 100 streams of 200 OpenAI chunks: 17 of the 28 MB it
 * allocated over the measured second), which put a young collection of 30-47 ms in the middle of
 * most such runs: a stall of the lab's own reader, merging frames as a proxy would.
 */
final class FrameDecoder {
  private static final JsonFactory JSON = new JsonFactory();

  /**
   * Fed one event at a time; replaced after an event it could not read to its end (its state is
   * then mid-value).
   */
  private JsonParser json;

  private final CRC32C crc = new CRC32C();
  private final FrameCodec.Decoded decoded = new FrameCodec.Decoded();
  long seq;
  long emitEpochNanos;

  FrameKind decode(byte[] data, int len) {
    if (len == 0) return FrameKind.CONTROL;
    byte first = data[0];
    if (first >= '0' && first <= '9') {
      FrameCodec.decode(data, 0, len, decoded, crc);
      if (!decoded.valid) return FrameKind.CORRUPT;
      seq = decoded.seq;
      emitEpochNanos = decoded.emitEpochNanos;
      return FrameKind.FRAME;
    }
    if (first == '['
        && len == 6
        && data[1] == 'D'
        && data[2] == 'O'
        && data[3] == 'N'
        && data[4] == 'E'
        && data[5] == ']') {
      return FrameKind.DONE;
    }
    if (first == '{') return decodeJson(data, len);
    return FrameKind.CORRUPT;
  }

  /**
   * An OpenAI event (a chat chunk, or a Responses API event) read as JSON, as a gateway may have
   * re-serialised it: keys in any order, any whitespace, extra fields. pi_seq and pi_ts are taken
   * from the top level only, so text that merely contains "pi_seq" is not mistaken for them.
   */
  private FrameKind decodeJson(byte[] data, int len) {
    long s = -1;
    long t = -1;
    boolean piMangled = false;
    boolean token = false;
    boolean textDelta = false;
    String type = null;
    try {
      if (json == null) json = JSON.createNonBlockingByteArrayParser();
      JsonParser p = json;
      ((ByteArrayFeeder) p.getNonBlockingInputFeeder()).feedInput(data, 0, len);
      if (p.nextToken() != JsonToken.START_OBJECT) return corrupt();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken v = p.nextToken();
        switch (name) {
          case "pi_seq":
            if (v == JsonToken.VALUE_NUMBER_INT && p.getLongValue() >= 0) s = p.getLongValue();
            else piMangled = true;
            break;
          case "pi_ts":
            if (v == JsonToken.VALUE_NUMBER_INT && p.getLongValue() >= 0) t = p.getLongValue();
            else piMangled = true;
            break;
          case "choices":
            if (v == JsonToken.START_ARRAY) token |= choicesCarryContent(p);
            else p.skipChildren();
            break;
          case "delta": // the Responses API: a text delta is a string at the top level
            if (v == JsonToken.VALUE_STRING && p.getTextLength() > 0) textDelta = true;
            else p.skipChildren();
            break;
          case "type":
            if (v == JsonToken.VALUE_STRING) type = p.getText();
            break;
          default:
            p.skipChildren();
        }
      }
      // the event's object must have closed (an event cut short leaves the parser waiting for more)
      if (p.currentToken() != JsonToken.END_OBJECT || !p.getParsingContext().inRoot())
        return corrupt();
      dropUnlessConsumed(p);
    } catch (IOException | RuntimeException e) {
      return corrupt(); // not JSON
    }
    if (textDelta && (type == null || type.endsWith("output_text.delta"))) token = true;
    if (s >= 0 && t >= 0) {
      seq = s;
      emitEpochNanos = t;
      return FrameKind.FRAME;
    }
    if (s >= 0 || t >= 0 || piMangled)
      return FrameKind.CORRUPT; // one of the pair is missing or mangled
    return token ? FrameKind.UNCHECKED_FRAME : FrameKind.CONTROL;
  }

  /**
   * Nothing of an event may be left in the parser when the next is fed. What follows its object
   * (another value, or bytes that are not JSON) is ignored, as a parser made for the event would
   * have ignored it, and the parser is replaced.
   */
  private void dropUnlessConsumed(JsonParser p) {
    try {
      if (p.nextToken() != JsonToken.NOT_AVAILABLE) json = null;
    } catch (IOException | RuntimeException e) {
      json = null;
    }
  }

  private FrameKind corrupt() {
    json = null;
    return FrameKind.CORRUPT;
  }

  /** True when a choice's delta has non-empty content; leaves the parser after the array. */
  private static boolean choicesCarryContent(JsonParser p) throws IOException {
    boolean content = false;
    while (p.nextToken() == JsonToken.START_OBJECT) {
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken v = p.nextToken();
        if (name.equals("delta") && v == JsonToken.START_OBJECT) {
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken dv = p.nextToken();
            if (field.equals("content") && dv == JsonToken.VALUE_STRING && p.getTextLength() > 0)
              content = true;
            else p.skipChildren();
          }
        } else {
          p.skipChildren();
        }
      }
    }
    return content;
  }
}
