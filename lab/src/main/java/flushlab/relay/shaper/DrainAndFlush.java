package flushlab.relay.shaper;

import java.util.List;

/**
 * Holds the whole response until upstream ends it, then writes it in one go: the validation relay
 * that proves the frames-per-read metric detects coalescing (every frame lands in one read).
 */
public final class DrainAndFlush extends HoldingShaper {

  public static final ShaperType TYPE =
      new ShaperType(
          "drain-and-flush",
          false,
          "a proxy that buffers the entire response and sends it when upstream finishes (the metric-validation relay)",
          List.of(CAP, X_ACCEL),
          "drain-and-flush,cap=8MiB",
          p -> () -> new DrainAndFlush(p));

  DrainAndFlush(Params p) {
    super(p);
  }
}
