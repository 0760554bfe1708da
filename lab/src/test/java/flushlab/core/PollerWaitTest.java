package flushlab.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.util.concurrent.EventExecutor;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Telling a loop asleep in its poller (the kernel's to wake) from one the lab's own code parked or
 * keeps busy.
 */
class PollerWaitTest {

  @Test
  void theSyscallFileNamesThePollerOnlyByItsNumber() {
    int[] x86 = PollerWait.pollerCalls("amd64");
    assertThat(
            inPoller(
                "441 0x5 0x7f06d4000ba0 0x400 0x7f06d5fe9c10 0x0 0x8 0x7f06d5fe9bc8 0x7f06e9b2ad8e\n",
                x86))
        .as("epoll_pwait2")
        .isTrue();
    assertThat(inPoller("232 0x3 0x7f06d4000ba0 0x3ff 0x3e8 0x0 0\n", x86))
        .as("epoll_wait")
        .isTrue();
    assertThat(inPoller("202 0x7f06d5fe9c10 0x80 0x0 0x0 0x0 0x0\n", x86))
        .as("a futex: a lock or a park")
        .isFalse();
    assertThat(inPoller("running\n", x86)).isFalse();
    assertThat(inPoller("-1 0x7f06d5fe9bc8 0x7f06e9b2ad8e\n", x86))
        .as("blocked outside a system call")
        .isFalse();
    assertThat(inPoller("4410 0x5\n", x86)).isFalse();
    assertThat(PollerWait.pollerCalls("aarch64")).contains(22).doesNotContain(232);
    assertThat(PollerWait.pollerCalls("riscv64"))
        .as("a CPU whose numbers the meter does not know: never asleep")
        .isEmpty();
  }

  /**
   * Read live on this kernel: an idle event loop spends nearly all its time in its poller; the same
   * loop parked by a task (the lab's own code blocking it) or spinning in one is never seen there.
   */
  @Test
  void anIdleLoopIsSeenInItsPollerAndAParkedOrBusyOneNever() throws Exception {
    Vertx vertx = LabVertx.create(1);
    try {
      EventExecutor loop = ((VertxInternal) vertx).nettyEventLoopGroup().iterator().next();
      PollerWait poller =
          CompletableFuture.supplyAsync(PollerWait::ofCallingThread, loop)
              .get(10, TimeUnit.SECONDS);
      assumeTrue(
          poller != null, "this kernel or CPU does not say which system call a thread is in");
      int idle = count(poller, 50);
      System.out.println(
          "PollerWaitTest: the idle loop was in its poller at " + idle + " of 50 samples");
      assertThat(idle).as("samples of an idle loop in its poller").isGreaterThanOrEqualTo(25);

      CountDownLatch parked = new CountDownLatch(1);
      long until = System.nanoTime() + 200_000_000L;
      loop.execute(
          () -> {
            parked.countDown();
            while (System.nanoTime() - until < 0) LockSupport.parkNanos(until - System.nanoTime());
          });
      assertThat(parked.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(count(poller, 20)).as("a loop parked by the lab's own code").isZero();
      while (System.nanoTime() - until < 0) LockSupport.parkNanos(until - System.nanoTime());

      CountDownLatch spinning = new CountDownLatch(1);
      long spinUntil = System.nanoTime() + 100_000_000L;
      loop.execute(
          () -> {
            spinning.countDown();
            while (System.nanoTime() - spinUntil < 0) Thread.onSpinWait();
          });
      assertThat(spinning.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(count(poller, 10)).as("a loop running the lab's own code").isZero();
      poller.close();
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  /** How many of {@code samples} readings, 1 ms apart, found the thread in its poller. */
  private static int count(PollerWait poller, int samples) {
    int n = 0;
    for (int i = 0; i < samples; i++) {
      if (poller.asleep()) n++;
      LockSupport.parkNanos(1_000_000L);
    }
    return n;
  }

  private static boolean inPoller(String line, int[] calls) {
    byte[] b = line.getBytes(StandardCharsets.US_ASCII);
    return PollerWait.inPoller(b, b.length, calls);
  }
}
