package flushlab.relay.shaper;

/**
 * Where a response's head ends in the bytes a relay forwards: after {@link
 * Chunk.Kind#RESPONSE_START} the head runs to the first blank line (CRLF CRLF), which may be split
 * across reads. For the shapers that treat the head and the body apart; allocation-free.
 */
final class HeadBoundary {
  private boolean inHead;
  private int matched;

  /** A response starts: its head comes first. */
  void start() {
    inHead = true;
    matched = 0;
  }

  boolean inHead() {
    return inHead;
  }

  /**
   * How many of these bytes belong to the head (all of them while it has not ended); after the
   * call, {@link #inHead} says whether it still runs on.
   */
  int headBytes(Chunk c) {
    if (!inHead) return 0;
    int n = c.length();
    for (int i = 0; i < n; i++) {
      byte b = c.bytes.getByte(i);
      boolean want = (matched % 2 == 0) ? b == '\r' : b == '\n';
      matched = want ? matched + 1 : (b == '\r' ? 1 : 0);
      if (matched == 4) {
        inHead = false;
        return i + 1;
      }
    }
    return n;
  }
}
