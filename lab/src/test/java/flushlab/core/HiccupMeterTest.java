package flushlab.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.util.concurrent.EventExecutor;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The meter's loop ticks: a loop the host kept off the CPU is a host stall; a loop the lab's own code held is not. */
class HiccupMeterTest {

  @Test
  void theRunQueueWaitIsTheSchedstatsSecondField() {
    byte[] line = "3342458 1200345 17\n".getBytes(StandardCharsets.US_ASCII);
    assertThat(RunQueueWait.secondField(line, line.length)).isEqualTo(1_200_345L);
    byte[] one = "3342458".getBytes(StandardCharsets.US_ASCII);
    assertThat(RunQueueWait.secondField(one, one.length)).isEqualTo(-1L);
  }

  @Test
  void aStallIsTheHostsWhenTheLoopWaitedForACoreForHalfOfIt() {
    assertThat(HiccupMeter.keptOffCpuByTheHost(20_000_000L, 10_000_000L)).isTrue();
    assertThat(HiccupMeter.keptOffCpuByTheHost(20_000_000L, 9_000_000L)).as("busy with the lab's own code most of it").isFalse();
    assertThat(HiccupMeter.keptOffCpuByTheHost(20_000_000L, -1)).as("a kernel that does not say").isFalse();
  }

  /**
   * A loop busy for 300 ms while twice as many threads as cores spin beside it: the scheduler
   * shares the cores, so the loop waits for one most of that time, and its stall is logged as the
   * host's. (A loop that parks, as {@code HiccupMeter.hold} does, waits for nothing: HostStallTest
   * shows that stall stays the lab's.)
   */
  @Test
  void aBusyLoopThatOtherThreadsKeepOffTheCpuIsAHostStall() throws Exception {
    Vertx vertx = LabVertx.create(1);
    List<Thread> spinners = new ArrayList<>();
    try {
      EventExecutor loop = ((VertxInternal) vertx).nettyEventLoopGroup().iterator().next();
      CountDownLatch ticked = new CountDownLatch(1);
      loop.schedule(ticked::countDown, 3 * HiccupMeter.LOOP_TICK_NANOS, TimeUnit.NANOSECONDS);
      assertThat(ticked.await(10, TimeUnit.SECONDS)).isTrue(); // the loop's tick has a run-queue baseline
      int n = 3 * Runtime.getRuntime().availableProcessors();
      long until = System.nanoTime() + 400_000_000L;
      for (int i = 0; i < n; i++) {
        Thread t = new Thread(() -> {
          while (System.nanoTime() - until < 0) Thread.onSpinWait();
        }, "spinner-" + i);
        t.setDaemon(true);
        t.start();
        spinners.add(t);
      }
      long from = System.nanoTime();
      CountDownLatch spun = new CountDownLatch(1);
      loop.execute(() -> {
        while (System.nanoTime() - from < 300_000_000L) Thread.onSpinWait();
        spun.countDown();
      });
      assertThat(spun.await(10, TimeUnit.SECONDS)).isTrue();
      CountDownLatch after = new CountDownLatch(1);
      loop.schedule(after::countDown, 2 * HiccupMeter.LOOP_TICK_NANOS, TimeUnit.NANOSECONDS);
      assertThat(after.await(10, TimeUnit.SECONDS)).isTrue(); // the late tick has run
      long to = System.nanoTime();
      List<StallLog.Stall> loopStalls = HiccupMeter.get().loops().between(from, to);
      List<StallLog.Stall> hostStalls = HiccupMeter.get().host().between(from, to);
      System.out.println("HiccupMeterTest: " + n + " spinners; loop stalls " + loopStalls + "; host stalls " + hostStalls);
      assertThat(loopStalls).anySatisfy(s -> assertThat(s.nanos()).isGreaterThan(250_000_000L));
      assertThat(hostStalls).as("the loop waited for a core most of its 300 ms").anySatisfy(s -> assertThat(s.nanos()).isGreaterThan(250_000_000L));
    } finally {
      for (Thread t : spinners) t.join(5_000);
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }
}
