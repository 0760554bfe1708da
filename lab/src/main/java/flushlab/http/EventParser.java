package flushlab.http;

/**
 * What turns a stream's body bytes into events, fed as they arrive: SSE's blank-line events, or
 * NDJSON's lines.
 */
public interface EventParser {
  void feed(byte[] b, int off, int len);
}
