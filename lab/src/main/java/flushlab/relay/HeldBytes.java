package flushlab.relay;

/**
 * What all connections of one relay hold at once: response bytes in buffering shapers and request
 * bytes waiting for an upstream connection. Each shaper has its own per-connection cap; this bounds
 * their sum, so a thousand clients of a buffering relay cannot hold a thousand caps' worth of
 * memory. Confined to the relay's event loop (every connection runs there).
 */
public final class HeldBytes {
  private final long capBytes;
  private long held;

  public HeldBytes(long capBytes) {
    this.capBytes = capBytes;
  }

  /** Takes n more bytes; false (and nothing taken) when that would pass the cap. */
  public boolean take(long n) {
    if (held + n > capBytes) return false;
    held += n;
    return true;
  }

  public void give(long n) {
    held -= n;
  }

  public long held() {
    return held;
  }

  public long capBytes() {
    return capBytes;
  }
}
