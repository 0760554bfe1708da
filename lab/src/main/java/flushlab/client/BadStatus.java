package flushlab.client;

/**
 * A non-200 answer: its status line, and its body's first line (of the first 300 bytes) collected
 * for the error message, as an operator would want to read it ("HTTP 502 Bad Gateway: upstream
 * timed out").
 */
final class BadStatus {
  private static final int BODY_CHARS = 300;

  private final String statusLine;
  private final StringBuilder body = new StringBuilder();

  BadStatus(int status, String reason) {
    this.statusLine = "HTTP " + status + " " + reason;
  }

  void body(byte[] b, int off, int len) {
    for (int i = off; i < off + len && body.length() < BODY_CHARS; i++)
      body.append((char) (b[i] & 0xff));
  }

  String message() {
    String first = body.toString().trim();
    int nl = first.indexOf('\n');
    if (nl >= 0) first = first.substring(0, nl).trim();
    return statusLine + (first.isEmpty() ? "" : ": " + first);
  }
}
