package flushlab.client;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.ScriptedServer;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a measured stream costs to summarise. The map and staggered runs build one batch per stream,
 * so a batch's fixed cost is paid hundreds of times a minute: with histograms spanning an hour up
 * front it was 2.2 MB each, most of what a run allocated, and it drove 40-70 ms pauses.
 */
class ResultFootprintTest {

  private static long allocated() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
        .getCurrentThreadAllocatedBytes();
  }

  /** A closed, whole stream of 200 plain frames, read one frame per read 5 ms apart. */
  private static StreamResult oneStream() {
    StreamMeter m = new StreamMeter(200);
    long t = System.nanoTime();
    m.requestWritten(t);
    byte[] head = ScriptedServer.sseHead();
    m.onRead(t + 1_000_000, head, 0, head.length);
    for (int i = 0; i < 200; i++) {
      byte[] f = ScriptedServer.frames(60, i);
      m.onRead(t + 2_000_000 + i * 5_000_000L, f, 0, f.length);
      m.readDone(t + 2_000_000 + i * 5_000_000L);
    }
    m.connectionClosed();
    return m.result();
  }

  @Test
  void aBatchCostsHistogramsOnlyWhenItsDistributionsAreAskedFor() {
    StreamResult s = oneStream();
    assertThat(s.ok()).isTrue();
    new BatchResult(List.of(s)).gapMs(); // loads the classes
    long before = allocated();
    BatchResult b = new BatchResult(List.of(s));
    long made = allocated() - before;
    assertThat(b.frames()).isEqualTo(200);
    before = allocated();
    Distribution gaps = b.gapMs();
    long asked = allocated() - before;
    System.out.println(
        "one-stream batch: " + made + " B to make, " + asked + " B more for its gap distribution");
    assertThat(gaps.p50()).isBetween(4.99, 5.01);
    assertThat(made).as("bytes one batch allocates when made").isLessThan(16 * 1024);
    assertThat(asked).as("bytes one distribution of 5 ms gaps allocates").isLessThan(256 * 1024);
  }
}
