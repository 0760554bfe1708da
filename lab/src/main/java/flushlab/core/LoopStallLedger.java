package flushlab.core;

import java.util.ArrayList;
import java.util.List;

/**
 * The event loops' stalls with what each loop's thread did over them, newest 4096 kept: how long it
 * ran (the lab's own code on the loop), how long it waited for a core (the host's other work), how
 * much of it the watcher thread stalled too (the JVM or the host stopped every thread), and how
 * long it slept in its poller past its tick (the kernel woke it late: {@link PollerWait}). What is
 * left, neither running nor runnable, is the thread blocked or the core taken from the whole VM.
 * Kept by loop, so that a late write can be set against its own loop's ticks: an emitter late by 35
 * ms with no host stall logged said nothing of why until this. Written by the loops' ticks (rarely:
 * only stalls), read by whoever judges a run.
 *
 * <p>How long the JVM stood over a stall is read from the watcher's log when the stall is asked
 * for, not only when the tick logged it: a loop released from a safepoint often runs its tick
 * before the watcher, released with it, has woken to log its own stall. A map's replay saw a GC
 * pause of 21 ms hold an emitter's loop (perf: the loop blocked in SafepointSynchronize::block, the
 * watcher woke 0.1 ms after it), logged "stood with the JVM 0.0 ms, neither 25.3 ms", and the late
 * frame was blamed on the lab.
 */
public final class LoopStallLedger {
  /**
   * One loop's stall: its tick was due at {@code fromNanos} and ran at {@code toNanos}. The
   * thread's figures cover the whole gap between the two ticks ({@code sinceNanos} to {@code
   * toNanos}), each -1 where the kernel does not say.
   */
  public record LoopStall(
      Object loop,
      long sinceNanos,
      long fromNanos,
      long toNanos,
      long ranNanos,
      long waitedNanos,
      long jvmStoppedNanos,
      long oversleptNanos) {
    public long nanos() {
      return toNanos - fromNanos;
    }

    /** Stalled only for the time the host took from it: {@link HiccupMeter#keptOffCpuByTheHost}. */
    public boolean hosts() {
      return HiccupMeter.keptOffCpuByTheHost(nanos(), waitedNanos, jvmStoppedNanos, oversleptNanos);
    }

    /**
     * "stalled 36 ms (over the 46 ms between its ticks it ran 2 ms, waited for a core 30 ms, stood
     * with the JVM 0 ms, neither 14 ms)".
     */
    public String describe() {
      long gap = toNanos - sinceNanos;
      if (ranNanos < 0 || waitedNanos < 0)
        return String.format(
            "stalled %.1f ms (the kernel does not say what its thread did)", nanos() / 1e6);
      long neither = Math.max(0, gap - ranNanos - waitedNanos - jvmStoppedNanos);
      String late =
          oversleptNanos <= 0
              ? ""
              : String.format(
                  ", of which asleep in its poller %.1f ms past its tick (the kernel woke it "
                      + "late)",
                  oversleptNanos / 1e6);
      return String.format(
          "stalled %.1f ms (over the %.1f ms between its ticks its thread ran %.1f ms, waited for a core %.1f ms, "
              + "stood with the JVM %.1f ms, neither %.1f ms%s)",
          nanos() / 1e6,
          gap / 1e6,
          ranNanos / 1e6,
          waitedNanos / 1e6,
          jvmStoppedNanos / 1e6,
          neither / 1e6,
          late);
    }
  }

  private static final int KEPT = 4096;
  private final Object[] loop = new Object[KEPT];
  private final long[] since = new long[KEPT];
  private final long[] from = new long[KEPT];
  private final long[] to = new long[KEPT];
  private final long[] ran = new long[KEPT];
  private final long[] waited = new long[KEPT];
  private final long[] jvm = new long[KEPT];
  private final long[] overslept = new long[KEPT];
  private long written;

  /** The watcher thread's stalls: the JVM or the host stopped every thread. */
  private final StallLog watcher;

  /** A ledger that reads, when asked, how much of each stall {@code watcher} logged as its own. */
  public LoopStallLedger(StallLog watcher) {
    this.watcher = watcher;
  }

  /** Logs a stall of {@code onLoop} (the meter does; tests too). */
  public synchronized void add(
      Object onLoop,
      long sinceNanos,
      long fromNanos,
      long toNanos,
      long ranNanos,
      long waitedNanos,
      long jvmStoppedNanos,
      long oversleptNanos) {
    int i = (int) (written++ % KEPT);
    loop[i] = onLoop;
    since[i] = sinceNanos;
    from[i] = fromNanos;
    to[i] = toNanos;
    ran[i] = ranNanos;
    waited[i] = waitedNanos;
    jvm[i] = jvmStoppedNanos;
    overslept[i] = oversleptNanos;
  }

  /**
   * Every stall of {@code onLoop} overlapping [fromNanos, toNanos], oldest first: a frame can wait
   * through several (a loop whose ticks a contended host delayed two or three times in a row).
   */
  public synchronized List<LoopStall> overlapping(Object onLoop, long fromNanos, long toNanos) {
    List<LoopStall> out = new ArrayList<>();
    for (long k = Math.max(0, written - KEPT); k < written; k++) {
      int i = (int) (k % KEPT);
      if (loop[i] == onLoop && to[i] >= fromNanos && from[i] <= toNanos) out.add(stall(i));
    }
    return out;
  }

  /**
   * The longest stall of {@code onLoop} (any loop when null) overlapping [fromNanos, toNanos], or
   * null.
   */
  public synchronized LoopStall longest(Object onLoop, long fromNanos, long toNanos) {
    int best = -1;
    for (long k = Math.max(0, written - KEPT); k < written; k++) {
      int i = (int) (k % KEPT);
      if ((onLoop == null || loop[i] == onLoop)
          && to[i] >= fromNanos
          && from[i] <= toNanos
          && (best < 0 || to[i] - from[i] > to[best] - from[best])) {
        best = i;
      }
    }
    return best < 0 ? null : stall(best);
  }

  /** Entry {@code i}, with what the watcher logged of it as the JVM's or the host's stop. */
  private LoopStall stall(int i) {
    long stood = Math.max(jvm[i], watcher.coveredNanos(from[i], to[i]));
    return new LoopStall(loop[i], since[i], from[i], to[i], ran[i], waited[i], stood, overslept[i]);
  }
}
