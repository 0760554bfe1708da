package flushlab.relay.shaper;

import java.util.List;

/**
 * Releases what it holds once at least N bytes are held; the remainder at the end of the response.
 * Models a proxy that flushes when an output buffer fills. With {@code split=true} it writes
 * exactly N bytes each time N are held and keeps the rest, splitting the frame that filled the
 * buffer, as nginx's proxy buffers do: its releases then all weigh N, whatever the frame size, and
 * the frame split across two releases waits for the second.
 */
public final class ByteThreshold extends HoldingShaper {
  public static final Param BYTES =
      Param.size("bytes", null, 1, 64L << 20, "release when at least this many bytes are held");

  public static final Param SPLIT =
      Param.bool(
          "split",
          "false",
          "write exactly N bytes each time N are held, keeping the rest (nginx's proxy buffers); false: everything held");

  public static final ShaperType TYPE =
      new ShaperType(
          "byte-threshold",
          false,
          "a proxy that flushes its output buffer when it holds N bytes, and at the end of the response",
          List.of(BYTES, SPLIT, CAP, X_ACCEL),
          "byte-threshold=2KiB",
          p -> () -> new ByteThreshold(p));

  private final long thresholdBytes;
  private final boolean split;

  ByteThreshold(Params p) {
    super(p);
    requireReachable(p, BYTES, "byte-threshold");
    this.thresholdBytes = p.get(BYTES);
    this.split = p.bool(SPLIT);
  }

  @Override
  protected void afterHold(int heldBytes) {
    if (!split) {
      if (heldBytes >= thresholdBytes) release("threshold");
      return;
    }
    for (int held = heldBytes; held >= thresholdBytes; held -= (int) thresholdBytes)
      releaseFirst((int) thresholdBytes);
  }
}
