package flushlab.core;

import static flushlab.core.HiccupMeter.LOGGED_NANOS;
import static flushlab.core.HiccupMeter.LOOP_TICK_NANOS;

import io.netty.util.concurrent.EventExecutor;

/**
 * One loop's tick: a gap between two runs longer than the tick is a stall of that loop, logged as a
 * host stall too when the loop waited in the run queue for most of it ({@link SchedStat}). {@link
 * HiccupMeter#watchLoops} runs one on each event loop.
 */
final class LoopTick implements Runnable {
  private final HiccupMeter meter;
  private final EventExecutor loop;

  /** When this tick last ran; read by the host thread too. */
  private volatile long last = System.nanoTime();

  /** The last time the host thread saw this loop asleep in its poller with its tick overdue. */
  private volatile long pollerSeenNanos;

  private volatile PollerWait poller;
  private final SchedStat sched = new SchedStat();
  private long waitedBefore = -1;
  private long ranBefore = -1;
  private long switchedInBefore = -1;

  LoopTick(HiccupMeter meter, EventExecutor loop) {
    this.meter = meter;
    this.loop = loop;
  }

  EventExecutor loop() {
    return loop;
  }

  /** Whether this loop's tick is overdue by a stall's worth at {@code now}. */
  boolean overdue(long now) {
    return now - last - LOOP_TICK_NANOS >= LOGGED_NANOS;
  }

  /** Closes the loop thread's poller file (on the host thread, the only one that reads it). */
  void closePoller() {
    PollerWait p = poller;
    if (p != null) p.close();
  }

  /** Opens the loop thread's schedstat and takes the first reading (on the loop). */
  void prime() {
    poller = PollerWait.ofCallingThread();
    sched.read();
    waitedBefore = sched.waitedNanos();
    ranBefore = sched.ranNanos();
    switchedInBefore = sched.switchedIn();
  }

  /** On the host thread: this loop's tick is overdue; is its thread still asleep in its poller? */
  void lookIn(long now) {
    PollerWait p = poller;
    if (p != null && p.asleep()) pollerSeenNanos = now;
  }

  @Override
  public void run() {
    long now = System.nanoTime();
    sched.read();
    long waitedNow = sched.waitedNanos();
    long ranNow = sched.ranNanos();
    long switchedInNow = sched.switchedIn();
    boolean known = waitedBefore >= 0 && waitedNow >= 0;
    // switched in more than once since the last tick (or the kernel does not say): the loop woke
    // for something besides this tick, so the process has work and the host thread ticks finely;
    // or the host is contended: the loop waited for a core, or its tick came late. A quiet
    // process
    // then ticks finely too, so a stall that follows is logged whole (h29: under a CPU hog, an
    // idle
    // loop's 69 ms stall was covered by a watcher ticking every 20 ms only in part)
    if (HiccupMeter.hadWork(switchedInBefore, switchedInNow)
        || known && waitedNow - waitedBefore >= LOGGED_NANOS / 2
        || now - last - LOOP_TICK_NANOS >= LOGGED_NANOS) {
      meter.busy(now);
    }
    if (known) meter.loopWaits().add(now, waitedNow - waitedBefore);
    // a fixed-rate task catches up after a stall with runs close together: only the first gap
    // counts
    if (now - last - LOOP_TICK_NANOS >= LOGGED_NANOS) {
      long from = last + LOOP_TICK_NANOS;
      meter.loops().add(from, now);
      long jvmStopped = meter.watcher().coveredNanos(from, now);
      long waited = known ? waitedNow - waitedBefore : -1;
      long seen = pollerSeenNanos;
      long overslept = seen - from > 0 ? seen - from : 0;
      meter
          .loopLedger()
          .add(
              loop,
              last,
              from,
              now,
              known ? ranNow - ranBefore : -1,
              waited,
              jvmStopped,
              overslept);
      if (known && HiccupMeter.keptOffCpuByTheHost(now - from, waited, jvmStopped, overslept))
        meter.host().add(from, now);
    }
    // the next gap starts after this reading: reading schedstat is a system call, and a thread
    // the host has kept waiting is preempted on its way back from one; that wait is in this
    // reading, so counted from before it, it would lengthen the next gap with no wait to show for
    // it
    last = System.nanoTime();
    waitedBefore = waitedNow;
    ranBefore = ranNow;
    switchedInBefore = switchedInNow;
  }
}
