package flushlab.client;

import flushlab.coding.ContentCoding;
import flushlab.core.Named;
import flushlab.stream.StreamSpec;
import java.util.Set;

/**
 * What a 200 answer's head must say for the meter to read its body as a stream: a type it reads,
 * and a content coding the request accepted and the client decodes.
 */
final class AnswerChecks {
  private AnswerChecks() {}

  /**
   * Why a body of this Content-Type is not read as a stream, or null: it is SSE, NDJSON, or the
   * type the emitter was asked to label its SSE with ({@code askedType}).
   */
  static String notAStream(String type, boolean ndjson, String askedType) {
    boolean asked = ndjson || type != null && type.trim().equalsIgnoreCase(askedType);
    if (asked || type != null && type.toLowerCase().startsWith("text/event-stream")) return null;
    return "Content-Type is "
        + (type == null ? "missing" : "'" + type + "'")
        + ", not text/event-stream"
        + (askedType.equals(StreamSpec.DEFAULT_CONTENT_TYPE)
            ? ""
            : " nor the '" + askedType + "' asked for")
        + " (NDJSON is read too)";
  }

  /** A body's coding as the client takes it: the coding to decode, or why the stream fails. */
  record Decoding(ContentCoding coding, StreamError refused, String why) {}

  /**
   * The body arrives in {@code encoding}: decoded if the request accepted it and the client can,
   * else the stream fails.
   */
  static Decoding decoding(String encoding, Set<ContentCoding> accepted) {
    ContentCoding coding = encoding.contains(",") ? null : ContentCoding.named(encoding);
    if (coding == null)
      return new Decoding(
          null,
          StreamError.ENCODING_UNKNOWN,
          "Content-Encoding is '"
              + encoding
              + "', which this client does not decode (it decodes "
              + String.join(", ", Named.texts(ContentCoding.class))
              + ")");
    if (!accepted.contains(coding))
      return new Decoding(
          null,
          StreamError.ENCODING_NOT_ASKED,
          "the body is "
              + coding.text()
              + ", which the request did not accept ("
              + (accepted.isEmpty() ? "it sent no Accept-Encoding" : "it accepted " + accepted)
              + ")");
    return new Decoding(coding, null, null);
  }
}
