package flushlab.http;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Newline-delimited JSON, one event per line: the lab's emitter writes each frame as <code>
 * {"data":"SEQ EMITNS CRC PAD"}</code> and a line in that shape hands its data value on, as an SSE
 * event's data; any other non-empty line is handed on whole (the decoder judges it). A line longer
 * than the cap is an error, as an SSE event is.
 */
public final class NdjsonParser implements EventParser {
  private static final byte[] OPEN = "{\"data\":\"".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] CLOSE = "\"}".getBytes(StandardCharsets.US_ASCII);

  private final SseEventParser.Listener listener;
  private final int maxLineBytes;
  private byte[] line = new byte[256];
  private int len;

  public NdjsonParser(SseEventParser.Listener listener) {
    this(listener, SseEventParser.DEFAULT_MAX_EVENT_BYTES);
  }

  public NdjsonParser(SseEventParser.Listener listener, int maxLineBytes) {
    this.listener = listener;
    this.maxLineBytes = maxLineBytes;
  }

  @Override
  public void feed(byte[] b, int off, int n) {
    for (int i = off; i < off + n; i++) {
      byte x = b[i];
      if (x == '\n') {
        endLine();
        continue;
      }
      if (len == line.length) {
        if (len >= maxLineBytes)
          throw new HttpParseException("NDJSON line larger than " + maxLineBytes + " bytes", false);
        line = Arrays.copyOf(line, Math.min(maxLineBytes, len * 2));
      }
      line[len++] = x;
    }
  }

  private void endLine() {
    int n = len;
    len = 0;
    if (n > 0 && line[n - 1] == '\r') n--;
    if (n == 0) return;
    if (n >= OPEN.length + CLOSE.length && startsWith(OPEN) && endsWith(n, CLOSE)) {
      int data = n - OPEN.length - CLOSE.length;
      System.arraycopy(line, OPEN.length, line, 0, data);
      listener.onEvent(line, data);
    } else {
      listener.onEvent(line, n);
    }
  }

  private boolean startsWith(byte[] p) {
    for (int i = 0; i < p.length; i++) if (line[i] != p[i]) return false;
    return true;
  }

  private boolean endsWith(int n, byte[] p) {
    for (int i = 0; i < p.length; i++) if (line[n - p.length + i] != p[i]) return false;
    return true;
  }
}
