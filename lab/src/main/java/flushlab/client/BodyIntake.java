package flushlab.client;

import flushlab.coding.BodyDecoder;
import flushlab.coding.ByteSink;
import flushlab.coding.ContentCoding;

/**
 * A response body on its way to the event parser: counted as it came (after de-chunking), and
 * decoded first when it has a content coding, so the parser sees the body as it was before the
 * coding. Confined to the stream's event loop.
 */
final class BodyIntake {
  private final ByteSink events;

  /** Undoes the body's Content-Encoding, when it has one; null for a body as sent. */
  private BodyDecoder decoder;

  private long wireBytes;
  private long plainBytes;

  BodyIntake(ByteSink events) {
    this.events = events;
  }

  /** The body comes in this coding: decoded from now on. */
  void decodeAs(ContentCoding coding) {
    decoder = BodyDecoder.of(coding);
  }

  /** Body bytes as they came; a corrupt coding throws. */
  void feed(byte[] b, int off, int len) throws BodyDecoder.Corrupt {
    wireBytes += len;
    if (decoder == null) {
      plainBytes += len;
      events.accept(b, off, len);
    } else {
      decoder.feed(b, off, len, events);
    }
  }

  /** The body ended: a coding cut short throws. */
  void finish() throws BodyDecoder.Corrupt {
    if (decoder != null) decoder.finish();
  }

  /** The decoder's native memory, at once. */
  void close() {
    if (decoder != null) decoder.close();
  }

  /** Body bytes as they came (after de-chunking, before decoding). */
  long wireBytes() {
    return wireBytes;
  }

  /** Body bytes as the event parser saw them (decoded, when the body had a content coding). */
  long decodedBytes() {
    return decoder == null ? plainBytes : decoder.decodedBytes();
  }
}
