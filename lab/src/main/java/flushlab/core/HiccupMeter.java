package flushlab.core;

import io.netty.util.concurrent.EventExecutor;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Recorder;

/**
 * This process's own stalls, as jHiccup sees them: a thread that asks to wake every millisecond and
 * logs how late it woke, and a tick on every event loop of the lab's Vert.x.
 *
 * <p>The two are kept apart because they blame different things. The thread does nothing else, so
 * when it wakes late the host or the JVM stopped it (the scheduler gave the core away, a GC or
 * safepoint paused every thread): a read that merged frames then says nothing of a proxy. An event
 * loop's tick also waits behind whatever the lab itself runs on that loop, so a loop stall with no
 * host stall is the lab's own fault, never an excuse. One exception, read from the kernel: a loop
 * that would not have stalled but for the time it spent runnable, waiting for a core, was kept off
 * the CPU by the host's other work (a busy thread is, where the sleeping watcher thread is favoured
 * on wake-up and may not be), so that stall is logged as the host's too.
 *
 * <p>One meter per JVM, started by {@link LabVertx#create} (and the agent's clustered Vert.x); the
 * ticks cost one timer each and allocate nothing.
 */
public final class HiccupMeter {
  /**
   * The host thread's tick, and the event loops'. A stall is measured as the gap between two wakes
   * less the tick: a stall that began mid-sleep is seen short by at most the tick (its end is
   * exact), so a longer tick loses a little of each stall's length and start, never a stall, and
   * what it loses only makes a stall explain fewer frames. What it saves is the wake-ups: measured
   * on this 2-core VM (an idle `flushlab emitter`, CPU over 10 s), 0.3 % of a core before the
   * meter, 1.6 % with a 1 ms host thread alone, 5.3 % with a 1 ms tick on each loop too, whose CPU
   * per frame in bench/peers.sh went from 25.5-27.5 us to 34-45 us. At these ticks (measured
   * 2026-12-03, an emitter serving 100 streams of 200 tokens every 5 ms, six runs each, A/B with
   * the meter taken out of a build of the same commit): 21.5-23.5 us of CPU per frame without the
   * meter, 24.5-27 with it, of which the host thread is about 1.5 us, the loop ticks 0.75 and their
   * schedstat reads 0.5; an idle emitter, 0.2 % of a core without it, 1.15-1.5 % with it.
   */
  public static final long TICK_NANOS = 2_000_000L;

  public static final long LOOP_TICK_NANOS = 10_000_000L;

  /**
   * The host thread's tick while the process is quiet: no event loop has had work (woken for
   * anything but its own tick) for {@link #QUIET_AFTER_NANOS}. A quiet process has no read or write
   * for a stall to delay, and the wake-ups were most of the meter's cost where it is measured:
   * `bench/peers.sh` charges the emitter's CPU over each client run, the client JVM's start
   * included, during which the emitter waits with nothing to do (one wake of the host thread costs
   * ~26 us of CPU on this VM: an idle emitter's thread ran 122 ms over 10 s in 4681 wakes, its
   * schedstat before and after). The first loop tick that finds work (at most one loop tick after
   * the work began) wakes the thread and brings its tick back to {@link #TICK_NANOS}; a stall in
   * those first milliseconds is seen to within this tick instead. A loop that waited for a core or
   * ticked late counts as work too: a contended host ticks finely, busy or not.
   */
  public static final long QUIET_TICK_NANOS = 20_000_000L;

  public static final long QUIET_AFTER_NANOS = 200_000_000L;

  /** A wake later than this is logged with its time (shorter ones only reach the histogram). */
  public static final long LOGGED_NANOS = 2_000_000L;

  private static final HiccupMeter METER = new HiccupMeter();

  private final StallLog host = new StallLog();
  private final StallLog loops = new StallLog();

  /** The loops' run-queue waits, tick by tick, stall or not. */
  private final WaitLog loopWaits = new WaitLog();

  /**
   * The watcher thread's own stalls, which {@link #host} also holds beside the loop stalls judged
   * the host's: only these say every thread of the JVM stood still, so only these count as evidence
   * when a loop stall is judged (another loop kept waiting says nothing of this one).
   */
  private final StallLog watcher = new StallLog();

  /**
   * The loops' stalls, loop by loop, with what each loop's thread did over them (and the watcher's,
   * read when asked).
   */
  private final LoopStallLedger loopLedger = new LoopStallLedger(watcher);

  /** Every lateness of the host thread, for the console's live figure. */
  private final Recorder hostLateness = new Recorder(3);

  private volatile boolean started;

  /**
   * When the host thread last woke (System.nanoTime): every stall that ended before it is logged.
   */
  private volatile long watcherWokeNanos = System.nanoTime();

  /**
   * Test seam: until this System.nanoTime the host thread does not run (an injected host stall).
   */
  private volatile long heldUntilNanos;

  /**
   * Until this System.nanoTime some loop had work lately: the host thread ticks at {@link
   * #TICK_NANOS}.
   */
  private volatile long busyUntilNanos = System.nanoTime() + QUIET_AFTER_NANOS;

  private volatile Thread watcherThread;

  /**
   * Every loop's tick, which the host thread looks in on: a loop overdue and asleep in its poller
   * is the host's.
   */
  private volatile LoopTick[] ticks = new LoopTick[0];

  private HiccupMeter() {}

  /** The process's meter, its host thread running. */
  public static HiccupMeter get() {
    METER.startOnce();
    return METER;
  }

  /** Stalls of the host thread: the host's or the JVM's. */
  public StallLog host() {
    return host;
  }

  /** Stalls of the event loops' ticks: the host's, the JVM's or the lab's own code on a loop. */
  public StallLog loops() {
    return loops;
  }

  /**
   * How long the event loops waited for a core, tick by tick: the host's contention, below a
   * stall's size too.
   */
  public WaitLog loopWaits() {
    return loopWaits;
  }

  /**
   * The loops' stalls, loop by loop, with what each thread did then: why a loop's write was late.
   */
  /** The watcher's own stalls: when every thread of the JVM stood still, this one included. */
  StallLog watcher() {
    return watcher;
  }

  public LoopStallLedger loopLedger() {
    return loopLedger;
  }

  /** The host thread's lateness since the last call (ns), for a live figure. */
  public synchronized org.HdrHistogram.Histogram hostLatenessSinceLast() {
    return hostLateness.getIntervalHistogram();
  }

  private synchronized void startOnce() {
    if (started) return;
    started = true;
    Thread t = new Thread(this::watchHost, "flushlab-hiccups");
    t.setDaemon(true);
    watcherThread = t;
    t.start();
  }

  private void watchHost() {
    long last = System.nanoTime();
    while (true) {
      long tick = hostTick(busyUntilNanos, last);
      LockSupport.parkNanos(tick);
      long woke = System.nanoTime();
      if (woke - last < tick) {
        // woken early by busy(): the thread ran at that moment, so a stall that follows (the test
        // seam's
        // hold, right after it) is measured from there, not from the end of a 20 ms quiet tick it
        // never slept
        last = woke;
        tick = 0;
      }
      long held = heldUntilNanos;
      while (System.nanoTime() - held < 0) LockSupport.parkNanos(held - System.nanoTime());
      long now = System.nanoTime();
      long late = now - last - tick;
      if (late >= LOGGED_NANOS) {
        host.add(last + tick, now);
        watcher.add(last + tick, now);
      }
      hostLateness.recordValue(Math.max(0, Math.min(late, 3_600_000_000_000L)));
      lookInOnLoops(now);
      last = now;
      watcherWokeNanos = now;
    }
  }

  /**
   * Notes each loop seen asleep in its poller after its tick was due ({@link PollerWait}); drops
   * the ticks of loops that closed. Costs a comparison a loop unless a tick is overdue.
   */
  private void lookInOnLoops(long now) {
    LoopTick[] all = ticks;
    boolean closed = false;
    for (LoopTick t : all) {
      if (t.loop().isShutdown()) {
        closed = true;
      } else if (t.overdue(now)) {
        t.lookIn(now);
      }
    }
    if (closed) dropClosedLoops();
  }

  /**
   * On the host thread, the only one that reads the pollers' files: each closed loop's file is
   * closed with it.
   */
  private synchronized void dropClosedLoops() {
    for (LoopTick t : ticks) if (t.loop().isShutdown()) t.closePoller();
    ticks = Arrays.stream(ticks).filter(t -> !t.loop().isShutdown()).toArray(LoopTick[]::new);
  }

  private synchronized void addTick(LoopTick t) {
    LoopTick[] more = Arrays.copyOf(ticks, ticks.length + 1);
    more[ticks.length] = t;
    ticks = more;
  }

  /**
   * Waits (at most {@code timeoutNanos}) until the host thread has woken after {@code nanos}, so
   * that a stall that ended just before then is in the log: the thread logs a stall when it wakes,
   * and a host that stopped the whole process resumes the reader first as often as not (under a CPU
   * hog, a run that ended in an 80 ms stall was judged before the thread had woken to log it, and
   * the release read in it was counted as nobody's). Never on an event loop.
   */
  public void awaitWatcherPast(long nanos, long timeoutNanos) {
    busy(System.nanoTime());
    long deadline = System.nanoTime() + timeoutNanos;
    while (watcherWokeNanos - nanos < 0 && System.nanoTime() - deadline < 0)
      LockSupport.parkNanos(TICK_NANOS / 2);
  }

  /** Ticks every event loop of {@code vertx} until it closes. */
  public void watchLoops(Vertx vertx) {
    for (EventExecutor loop : ((VertxInternal) vertx).nettyEventLoopGroup()) {
      LoopTick tick = new LoopTick(this, loop);
      // opened now, before anything of the lab's runs on the loop: a fresh process's first request
      // never waits on it
      loop.execute(tick::prime);
      addTick(tick);
      loop.scheduleAtFixedRate(tick, LOOP_TICK_NANOS, LOOP_TICK_NANOS, TimeUnit.NANOSECONDS);
    }
  }

  /**
   * Stops this process as a host stall would, for {@code nanos}: the host thread and every event
   * loop of {@code vertx} do not run (tests use it to check that what a stall merges is told from
   * what a proxy merges). Returns at once; the loops are held by a task each.
   */
  public void injectHostStall(Vertx vertx, long nanos) {
    holdHostThread(nanos);
    for (EventExecutor loop : ((VertxInternal) vertx).nettyEventLoopGroup()) hold(loop, nanos);
  }

  /**
   * Test seam: the host thread does not run for {@code nanos} from now (with {@link #hold}, a stall
   * whose threads resume apart).
   */
  public void holdHostThread(long nanos) {
    long now = System.nanoTime();
    busy(now); // a process stopped while it works: the thread was ticking finely when the stall
    // began
    heldUntilNanos = now + nanos;
  }

  /**
   * Some loop had work at {@code now} (or a judge is about to read the log): the host thread ticks
   * finely for {@link #QUIET_AFTER_NANOS} more, woken at once if it was ticking quietly.
   */
  void busy(long now) {
    boolean wasQuiet = busyUntilNanos - now <= 0;
    busyUntilNanos = now + QUIET_AFTER_NANOS;
    Thread t = watcherThread;
    if (wasQuiet && t != null) LockSupport.unpark(t);
  }

  /**
   * The host thread's next tick after waking at {@code lastNanos}: fine while a loop had work
   * lately, quiet after.
   */
  static long hostTick(long busyUntilNanos, long lastNanos) {
    return busyUntilNanos - lastNanos > 0 ? TICK_NANOS : QUIET_TICK_NANOS;
  }

  /**
   * Whether a loop had work between two of its ticks: its thread was switched in more than once
   * (once is the tick's own wake), or the kernel does not say (then it is taken as working).
   */
  static boolean hadWork(long switchedInBefore, long switchedInNow) {
    return switchedInBefore < 0 || switchedInNow < 0 || switchedInNow - switchedInBefore > 1;
  }

  /** Whether the host thread ticks at {@link #TICK_NANOS} now (a loop had work lately). */
  public boolean ticksFinely() {
    return busyUntilNanos - System.nanoTime() > 0;
  }

  /**
   * Test seam: {@code loop} runs nothing for {@code nanos} from now (it parks: the core stays
   * free).
   */
  public static void hold(EventExecutor loop, long nanos) {
    long until = System.nanoTime() + nanos;
    loop.execute(
        () -> {
          while (System.nanoTime() - until < 0) LockSupport.parkNanos(until - System.nanoTime());
        });
  }

  /**
   * A loop stall was the host's when, without the time the host demonstrably took from the loop, it
   * would not have been a stall: what is left is under {@link #LOGGED_NANOS}. The host takes time
   * three ways the meter can see: the loop's thread waited in the run queue while other work ran
   * ({@code runQueueWaitNanos}, from the kernel), and every thread of the JVM stood still, the
   * watcher thread included ({@code watcherStalledNanos}: the part of the loop stall the watcher's
   * own stalls cover). The second is what the run queue does not show: a safepoint or a GC holds
   * the loop's thread blocked, not runnable, and a hypervisor that takes the virtual CPU away
   * leaves the thread "running" as far as this kernel knows. Otherwise the lab's own code held the
   * loop (ran, or blocked) long enough to stall it anyway, however much the host added. The third
   * ({@code oversleptNanos}): the thread was still asleep in its poller after its tick was due, so
   * the kernel woke it late (its timer interrupt waited for a virtual CPU the hypervisor had taken;
   * a lock or a park of the lab's own is a futex, not the poller). The host thread sees that at its
   * own ticks, so the last sighting may come up to one of them before the wake.
   */
  static boolean keptOffCpuByTheHost(
      long stallNanos, long runQueueWaitNanos, long watcherStalledNanos, long oversleptNanos) {
    if (runQueueWaitNanos < 0) return false;
    long left = stallNanos - runQueueWaitNanos - watcherStalledNanos;
    return left < LOGGED_NANOS
        || oversleptNanos > 0 && left - oversleptNanos < LOGGED_NANOS + TICK_NANOS;
  }
}
