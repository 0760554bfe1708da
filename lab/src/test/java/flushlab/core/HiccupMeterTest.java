package flushlab.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.util.concurrent.EventExecutor;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The meter's loop ticks: a loop the host kept off the CPU is a host stall; a loop the lab's own
 * code held is not.
 */
class HiccupMeterTest {

  @Test
  void theRunTimeTheRunQueueWaitAndTheSwitchesInAreTheSchedstatsThreeFields() {
    byte[] line = "3342458 1200345 17\n".getBytes(StandardCharsets.US_ASCII);
    long[] f = new long[3];
    assertThat(SchedStat.leadingFields(line, line.length, f)).isTrue();
    assertThat(f).containsExactly(3_342_458L, 1_200_345L, 17L);
    byte[] two = "3342458 1200345".getBytes(StandardCharsets.US_ASCII);
    assertThat(SchedStat.leadingFields(two, two.length, f)).isFalse();
  }

  /**
   * A judge that waits for the host thread to have woken past a run's end finds a stall the run
   * ended in already logged: the thread logs a stall only when it wakes, and a reader resumed by
   * the same host may finish first.
   */
  @Test
  void afterTheThreadWokePastAMomentEveryStallThatEndedBeforeItIsLogged() {
    HiccupMeter meter = HiccupMeter.get();
    long from = System.nanoTime();
    meter.holdHostThread(60_000_000L);
    long end = from + 60_000_000L;
    meter.awaitWatcherPast(end, 2_000_000_000L);
    assertThat(System.nanoTime())
        .as("returned only once the thread woke past the stall")
        .isGreaterThanOrEqualTo(end);
    assertThat(meter.host().between(from, end))
        .as("the held thread's stall")
        .anyMatch(st -> st.nanos() >= 50_000_000L);
  }

  /**
   * A loop woken only for its tick leaves the process quiet; anything more (or a kernel that does
   * not say) is work.
   */
  @Test
  void theHostThreadTicksFinelyOnlyWhileALoopHadWorkLately() {
    assertThat(HiccupMeter.hadWork(500, 501)).as("the tick's own wake").isFalse();
    assertThat(HiccupMeter.hadWork(500, 503)).as("woken twice more: I/O or a timer").isTrue();
    assertThat(HiccupMeter.hadWork(-1, 503)).as("a kernel that does not say").isTrue();
    long busyUntil = 1_000_000_000L;
    assertThat(HiccupMeter.hostTick(busyUntil, busyUntil - 1)).isEqualTo(HiccupMeter.TICK_NANOS);
    assertThat(HiccupMeter.hostTick(busyUntil, busyUntil)).isEqualTo(HiccupMeter.QUIET_TICK_NANOS);
    HiccupMeter.get().awaitWatcherPast(System.nanoTime(), 100_000_000L);
    assertThat(HiccupMeter.get().ticksFinely())
        .as("a judge waiting on the thread makes it tick finely")
        .isTrue();
  }

  @Test
  void aStallIsTheHostsWhenItWouldNotHaveBeenOneWithoutTheTimeTheHostTook() {
    assertThat(HiccupMeter.keptOffCpuByTheHost(20_000_000L, 18_500_000L, 0, 0)).isTrue();
    assertThat(HiccupMeter.keptOffCpuByTheHost(20_000_000L, 10_000_000L, 0, 0))
        .as("the lab's code held it 10 ms anyway")
        .isFalse();
    assertThat(HiccupMeter.keptOffCpuByTheHost(20_000_000L, -1, 0, 0))
        .as("a kernel that does not say")
        .isFalse();
    // measured beside a second suite: a 16 ms loop stall, 5.8 ms of it in the run queue, 10.2 ms of
    // it inside a stall of
    // the watcher thread (every thread of the JVM stood still: not runnable, so not in the run
    // queue)
    assertThat(HiccupMeter.keptOffCpuByTheHost(15_960_000L, 5_760_000L, 10_160_000L, 0)).isTrue();
    assertThat(HiccupMeter.keptOffCpuByTheHost(300_000_000L, 150_000_000L, 20_000_000L, 0))
        .as("a loop the lab kept busy on a busy host")
        .isFalse();
    // s84: an idle emitter loop's tick came 19.2 ms late, its thread "ran 0.0 ms, waited for a core
    // 0.1 ms, stood with the
    // JVM 0.0 ms, neither 29.1 ms": asleep in its poller past its tick (seen so up to one host tick
    // before it woke), the host's
    assertThat(HiccupMeter.keptOffCpuByTheHost(19_200_000L, 100_000L, 0, 17_400_000L)).isTrue();
    assertThat(HiccupMeter.keptOffCpuByTheHost(19_200_000L, 100_000L, 0, 0))
        .as("never seen in its poller: blocked by the lab")
        .isFalse();
    assertThat(HiccupMeter.keptOffCpuByTheHost(30_000_000L, 0, 0, 10_000_000L))
        .as("woke late, then the lab held it 20 ms")
        .isFalse();
    assertThat(HiccupMeter.keptOffCpuByTheHost(19_200_000L, -1, 0, 17_400_000L))
        .as("a kernel that does not say")
        .isFalse();
  }

  @Test
  void theWatchersStallsCoverOnlyWhatLiesInsideTheSpanAsked() {
    StallLog log = new StallLog();
    log.add(100, 200);
    log.add(300, 400);
    log.add(500, 520);
    assertThat(log.coveredNanos(0, 1000)).isEqualTo(100 + 100 + 20);
    assertThat(log.coveredNanos(150, 350)).isEqualTo(50 + 50);
    assertThat(log.coveredNanos(401, 499)).isZero();
    assertThat(new StallLog().coveredNanos(0, 1000)).isZero();
  }

  /**
   * An idle loop whose thread has the lowest priority (renice 19, by its thread id) while three
   * threads per core spin beside it: the scheduler keeps it waiting for a core, so its ticks come
   * late with nothing of the lab's to run, and each such stall is logged as the host's. A loop the
   * lab's own code keeps busy for 300 ms, with nothing beside it, is a loop stall only.
   */
  @Test
  void aLoopTheHostKeepsOffTheCpuIsAHostStallAndOneTheLabKeepsBusyIsNot() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/renice")), "no /usr/bin/renice here");
    Vertx vertx = LabVertx.create(1);
    List<Thread> spinners = new ArrayList<>();
    try {
      EventExecutor loop = ((VertxInternal) vertx).nettyEventLoopGroup().iterator().next();
      // the lab's own code: the loop busy 300 ms
      long busyFrom = System.nanoTime();
      onLoop(
          loop,
          () -> {
            while (System.nanoTime() - busyFrom < 300_000_000L) Thread.onSpinWait();
          });
      onLoop(loop, () -> {}); // after the late tick
      afterTicks(loop);
      long busyTo = System.nanoTime();
      assertThat(HiccupMeter.get().loops().between(busyFrom, busyTo))
          .anySatisfy(st -> assertThat(st.nanos()).isGreaterThan(250_000_000L));
      assertThat(HiccupMeter.get().host().between(busyFrom, busyTo))
          .as("the lab's code held the loop")
          .noneSatisfy(st -> assertThat(st.nanos()).isGreaterThan(250_000_000L));

      // the host: the loop's thread at nice 19 beside spinners at nice 0, for 600 ms
      String[] tid = {null};
      onLoop(
          loop,
          () -> {
            try {
              tid[0] =
                  Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          });
      Process renice =
          new ProcessBuilder("/usr/bin/renice", "-n", "19", "-p", tid[0])
              .redirectErrorStream(true)
              .start();
      assertThat(renice.waitFor(10, TimeUnit.SECONDS)).isTrue();
      assumeTrue(
          renice.exitValue() == 0,
          "renice of the loop's thread "
              + tid[0]
              + " refused: "
              + new String(renice.getInputStream().readAllBytes()));
      long from = System.nanoTime();
      long until = from + 600_000_000L;
      int n = 3 * Runtime.getRuntime().availableProcessors();
      for (int i = 0; i < n; i++) {
        Thread t =
            new Thread(
                () -> {
                  while (System.nanoTime() - until < 0) Thread.onSpinWait();
                },
                "spinner-" + i);
        t.setDaemon(true);
        t.start();
        spinners.add(t);
      }
      for (Thread t : spinners) t.join(10_000);
      afterTicks(loop);
      long to = System.nanoTime();
      List<StallLog.Stall> loopStalls = HiccupMeter.get().loops().between(from, to);
      List<StallLog.Stall> hostStalls = HiccupMeter.get().host().between(from, to);
      long waited = HiccupMeter.get().loopWaits().totalNanos(from, to);
      System.out.println(
          "HiccupMeterTest: "
              + n
              + " spinners beside a loop at nice 19: loop stalls "
              + loopStalls.size()
              + ", of them the host's "
              + loopStalls.stream().filter(hostStalls::contains).count()
              + "; the loop waited for a core "
              + waited / 1_000_000
              + " ms of "
              + (to - from) / 1_000_000);
      // every tick of the idle loop waited in the run queue behind the spinners: the log holds it,
      // stall or not
      assertThat(waited)
          .as("run-queue wait logged over the spinners' %d ms", (to - from) / 1_000_000)
          .isGreaterThan(100_000_000L);
      assertThat(loopStalls).as("the idle loop's ticks came late").isNotEmpty();
      // the meter cannot name the cause of a stall shorter than its own resolution: the watcher
      // thread
      // sleeps 2 ms and logs lateness over 2 ms, so a 2.6 ms safepoint that began mid-sleep leaves
      // it
      // 1 ms late and unlogged (a suite beside this one saw such a 2.58 ms loop stall with no wait)
      long judged = HiccupMeter.LOGGED_NANOS + HiccupMeter.TICK_NANOS;
      // covered by the host's log: the loop's stall itself, or the watcher's own over the same time
      // (when the host resumes the loop before the watcher, the loop's tick judges before the
      // watcher
      // has logged: a 47 ms loop stall inside a watcher stall 0.1 ms longer, in a suite run of
      // 2026-12-03)
      StallLog host = HiccupMeter.get().host();
      assertThat(loopStalls)
          .as("each longer than %d ms kept off the CPU by the spinners", judged / 1_000_000)
          .filteredOn(st -> st.nanos() > judged)
          .isNotEmpty()
          .allSatisfy(
              st ->
                  assertThat(host.coveredNanos(st.fromNanos(), st.toNanos()))
                      .as("%s covered by %s", st, hostStalls)
                      .isGreaterThanOrEqualTo(st.nanos() - HiccupMeter.LOGGED_NANOS));
    } finally {
      for (Thread t : spinners) t.join(5_000);
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  private static void onLoop(EventExecutor loop, Runnable task) throws InterruptedException {
    CountDownLatch done = new CountDownLatch(1);
    loop.execute(
        () -> {
          try {
            task.run();
          } finally {
            done.countDown();
          }
        });
    assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
  }

  /** Returns once the loop's meter has ticked twice more: every stall up to now is logged. */
  private static void afterTicks(EventExecutor loop) throws InterruptedException {
    CountDownLatch ticked = new CountDownLatch(1);
    loop.schedule(
        ticked::countDown, 2 * HiccupMeter.LOOP_TICK_NANOS + 1_000_000L, TimeUnit.NANOSECONDS);
    assertThat(ticked.await(10, TimeUnit.SECONDS)).isTrue();
  }

  /**
   * A loop the host thread looked in on (its tick overdue: held here) has its /proc syscall file
   * open; once its Vert.x closes, the file is closed with it: tests and agents close many.
   */
  @Test
  void aClosedLoopsSyscallFileIsClosed() throws Exception {
    Vertx vertx = LabVertx.create(1);
    EventExecutor loop = ((VertxInternal) vertx).nettyEventLoopGroup().iterator().next();
    String tid =
        CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return Files.readSymbolicLink(Path.of("/proc/thread-self"))
                        .getFileName()
                        .toString();
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                },
                loop)
            .get(10, TimeUnit.SECONDS);
    HiccupMeter.hold(loop, 40_000_000L);
    HiccupMeter.get().awaitWatcherPast(System.nanoTime() + 40_000_000L, 2_000_000_000L);
    // the host thread opens the file when it looks in on the overdue loop; a host that stopped it
    // for the whole hold
    // leaves nothing to close: a host stall, not a result
    assumeTrue(
        syscallFilesOpen(tid) > 0,
        "host stall, not a result: the host thread never looked in on the held loop");
    vertx.close().await(10, TimeUnit.SECONDS);
    long past = System.nanoTime() + 10_000_000L;
    HiccupMeter.get().awaitWatcherPast(past, 2_000_000_000L);
    assertThat(syscallFilesOpen(tid)).as("closed with its loop").isZero();
  }

  private static long syscallFilesOpen(String tid) throws Exception {
    try (var fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.filter(
              fd -> {
                try {
                  return Files.readSymbolicLink(fd)
                      .toString()
                      .endsWith("/task/" + tid + "/syscall");
                } catch (Exception e) {
                  return false;
                }
              })
          .count();
    }
  }
}
