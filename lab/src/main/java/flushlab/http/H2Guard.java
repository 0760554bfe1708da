package flushlab.http;

/**
 * The protections Netty's HTTP/2 codec carries against the published HTTP/2 floods, for the lab's
 * hand-written HTTP/2 servers (the emitter's, the relay's edge), which must write each frame
 * themselves to keep one frame one {@code send()}. One per connection, confined to its loop; each
 * check answers null (carry on) or why the connection is to end with GOAWAY ENHANCE_YOUR_CALM.
 *
 * <ul>
 *   <li>Control answers (SETTINGS and PING acknowledgements) written while the connection's
 *       outbound buffer is backed up, because the client does not read: at most {@link
 *       #MAX_QUEUED_CONTROL_FRAMES} in a row (CVE-2019-9512, -9515: each answer queued).
 *   <li>Streams the client resets: at most {@link #MAX_RESETS_PER_WINDOW} per {@link
 *       #RESET_WINDOW_NANOS} (rapid reset, CVE-2023-44487).
 *   <li>Empty DATA frames without END_STREAM, and empty CONTINUATIONs: at most {@link
 *       #MAX_EMPTY_FRAMES} in a row (CVE-2019-9518; the CONTINUATION flood of 2024).
 *   <li>CONTINUATION frames in one header block: at most {@link #MAX_CONTINUATIONS}.
 * </ul>
 *
 * The numbers are Netty's defaults where it has one.
 */
public final class H2Guard {
  public static final int MAX_QUEUED_CONTROL_FRAMES = 10_000;
  public static final int MAX_RESETS_PER_WINDOW = 200;
  public static final long RESET_WINDOW_NANOS = 30_000_000_000L;
  public static final int MAX_EMPTY_FRAMES = 2;
  public static final int MAX_CONTINUATIONS = 64;

  private int queuedControl;
  private int resets;
  private long resetWindowStart;
  private int emptyInARow;

  /**
   * A control answer was just written; {@code backedUp}: the connection's outbound buffer holds
   * unsent bytes.
   */
  public String controlAnswered(boolean backedUp) {
    if (!backedUp) {
      queuedControl = 0;
      return null;
    }
    return ++queuedControl > MAX_QUEUED_CONTROL_FRAMES
        ? "the client sent "
            + MAX_QUEUED_CONTROL_FRAMES
            + " PINGs or SETTINGS whose answers it does not read"
        : null;
  }

  /** The client reset a stream (RST_STREAM). */
  public String streamReset(long nowNanos) {
    if (resets == 0 || nowNanos - resetWindowStart > RESET_WINDOW_NANOS) {
      resetWindowStart = nowNanos;
      resets = 0;
    }
    return ++resets > MAX_RESETS_PER_WINDOW
        ? "the client reset more than "
            + MAX_RESETS_PER_WINDOW
            + " streams within "
            + RESET_WINDOW_NANOS / 1_000_000_000L
            + " s (rapid reset)"
        : null;
  }

  /**
   * A DATA frame of {@code length} bytes arrived whole; empty ones without END_STREAM are counted.
   */
  public String dataFrame(int length, boolean endStream) {
    if (length > 0 || endStream) {
      emptyInARow = 0;
      return null;
    }
    return ++emptyInARow > MAX_EMPTY_FRAMES ? "the client sent empty DATA frames in a row" : null;
  }

  /**
   * A CONTINUATION of {@code length} bytes, the {@code index}-th of its header block (1 for the
   * first).
   */
  public String continuation(int length, int index) {
    if (index > MAX_CONTINUATIONS)
      return "a header block in more than " + MAX_CONTINUATIONS + " CONTINUATION frames";
    if (length > 0) {
      emptyInARow = 0;
      return null;
    }
    return ++emptyInARow > MAX_EMPTY_FRAMES
        ? "the client sent empty CONTINUATION frames in a row"
        : null;
  }
}
