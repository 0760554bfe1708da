package flushlab.core;

import java.util.List;

/**
 * What one watcher's stalls over a span came to: how many lasted more than 5, 20 and 50 ms, the
 * longest and when it began (ms from the span's start; -1 with no stall). Stalls shorter than
 * {@link HiccupMeter#LOGGED_NANOS} are not logged and count nowhere.
 */
public record StallFigures(int over5Ms, int over20Ms, int over50Ms, double maxMs, double maxAtMs) {
  public static final StallFigures NONE = new StallFigures(0, 0, 0, 0, -1);

  public static StallFigures of(List<StallLog.Stall> stalls, long spanStartNanos) {
    int o5 = 0;
    int o20 = 0;
    int o50 = 0;
    StallLog.Stall longest = null;
    for (StallLog.Stall s : stalls) {
      long n = s.nanos();
      if (n > 5_000_000L) o5++;
      if (n > 20_000_000L) o20++;
      if (n > 50_000_000L) o50++;
      if (longest == null || n > longest.nanos()) longest = s;
    }
    return longest == null
        ? NONE
        : new StallFigures(
            o5,
            o20,
            o50,
            longest.nanos() / 1e6,
            Math.max(0, longest.fromNanos() - spanStartNanos) / 1e6);
  }

  /** "none", or "3 over 5 ms, 1 over 20 ms, longest 48.2 ms at 1.23 s". */
  public String describe() {
    if (maxAtMs < 0) return "none";
    return String.format(
        "%d over 5 ms, %d over 20 ms, %d over 50 ms, longest %.1f ms at %.2f s",
        over5Ms, over20Ms, over50Ms, maxMs, maxAtMs / 1000);
  }
}
