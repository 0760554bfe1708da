package flushlab.core;

import java.util.concurrent.locks.LockSupport;

/**
 * Waits, for a bounded time, until this host has been quiet: before a run this host spoiled is
 * measured once more, so that its one second measurement is not taken in the same burst of the
 * host's other work (beside two other test classes on 2 cores, a map's cell was spoiled twice in a
 * row, its loops kept 660 ms from a core over a 1.2 s run, and the map had to answer inconclusive).
 * Quiet means that over the last {@link #WINDOW_NANOS} no host stall was logged by the hiccup meter
 * and this process's event loops together waited under a twentieth of it for a core. It is never a
 * retry: the run is still measured once more, once, quiet or not.
 */
public final class HostQuiet {
  /** How long the host must have been quiet. */
  public static final long WINDOW_NANOS = 250_000_000L;

  /**
   * The longest it waits: on a host that is never quiet the second measurement goes ahead after
   * this.
   */
  public static final long MAX_WAIT_NANOS = 2_000_000_000L;

  private static final long POLL_NANOS = 10_000_000L;

  private HostQuiet() {}

  /** What waiting found: how long it waited, and whether the host was quiet by then. */
  public record Wait(long waitedNanos, boolean quiet) {
    /**
     * "once this host had been quiet for 250 ms (after 0.62 s)" or "this host was not quiet for 250
     * ms within 2.0 s".
     */
    public String text() {
      return quiet
          ? String.format(
              "once this host had been quiet for %d ms (after %.2f s)",
              WINDOW_NANOS / 1_000_000, waitedNanos / 1e9)
          : String.format(
              "though this host was not quiet for %d ms within %.1f s",
              WINDOW_NANOS / 1_000_000, MAX_WAIT_NANOS / 1e9);
    }
  }

  /** Waits until {@code meter} saw this host quiet, at most {@link #MAX_WAIT_NANOS}. */
  public static Wait await(HiccupMeter meter) {
    return await(meter, WINDOW_NANOS, MAX_WAIT_NANOS);
  }

  static Wait await(HiccupMeter meter, long windowNanos, long maxWaitNanos) {
    long start = System.nanoTime();
    while (true) {
      long now = System.nanoTime();
      if (quiet(meter, now - windowNanos, now)) return new Wait(now - start, true);
      if (now - start >= maxWaitNanos) return new Wait(now - start, false);
      LockSupport.parkNanos(POLL_NANOS);
      if (Thread.currentThread().isInterrupted()) return new Wait(System.nanoTime() - start, false);
    }
  }

  /** No host stall over (from, to], and the loops' run-queue wait in it under a twentieth of it. */
  static boolean quiet(HiccupMeter meter, long fromNanos, long toNanos) {
    return meter.host().coveredNanos(fromNanos, toNanos) == 0
        && meter.loopWaits().totalNanos(fromNanos, toNanos) < (toNanos - fromNanos) / 20;
  }
}
