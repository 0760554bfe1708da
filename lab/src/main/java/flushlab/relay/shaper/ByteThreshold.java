package flushlab.relay.shaper;

import java.util.List;

/**
 * Releases what it holds once at least N bytes are held; the remainder at the end of the
 * response. Models a proxy that flushes when an output buffer fills.
 */
public final class ByteThreshold extends HoldingShaper {
  public static final Param BYTES = Param.size("bytes", null, 1, 64L << 20, "release when at least this many bytes are held");

  public static final ShaperType TYPE = new ShaperType("byte-threshold", false,
      "a proxy that flushes its output buffer when it holds N bytes, and at the end of the response",
      List.of(BYTES, CAP, X_ACCEL),
      "byte-threshold=2KiB", p -> () -> new ByteThreshold(p));

  private final long thresholdBytes;

  ByteThreshold(Params p) {
    super(p);
    requireReachable(p, BYTES, "byte-threshold");
    this.thresholdBytes = p.get(BYTES);
  }

  @Override
  protected void afterHold(int heldBytes) {
    if (heldBytes >= thresholdBytes) release("threshold");
  }
}
