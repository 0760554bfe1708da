package flushlab.relay.shaper;

import java.util.List;

/** Waits D before connecting upstream (a slow DNS lookup, a far or busy backend). */
public final class ConnectDelay extends Shaper {
  public static final Param DELAY =
      Param.duration("delay", null, 0, 600_000_000_000L, "before the upstream connect starts");

  public static final ShaperType TYPE =
      new ShaperType(
          "connect-delay",
          true,
          "a slow upstream connect (a fresh connection to a far or busy backend)",
          List.of(DELAY),
          "connect-delay=100ms",
          p -> () -> new ConnectDelay(p));

  private final long delayNanos;

  ConnectDelay(Params p) {
    this.delayNanos = p.get(DELAY);
  }

  @Override
  public long connectDelayNanos() {
    return delayNanos;
  }
}
