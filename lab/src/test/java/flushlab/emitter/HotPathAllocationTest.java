package flushlab.emitter;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.LabFixture;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What the emitter's event loop allocates per frame, from HotSpot's per-thread allocation counter
 * (the counter JFR's ThreadAllocationStatistics reads). The client is a blocking socket on the test
 * thread, so only the emitter's own work is counted. A stream's set-up (request, audit, head)
 * allocates a few KB once; spread over 20,000 frames that is well under a byte per frame, so what
 * the limits below catch is an object per frame (a channel promise is 40-odd bytes).
 */
class HotPathAllocationTest {
  private static final int FRAMES = 20_000;

  @Test
  void anUnpacedStreamAllocatesNothingPerFrame() throws Exception {
    try (LabFixture lab = new LabFixture(EmitterOptions.loopback(0), 1)) {
      long perFrame = bytesPerFrame(lab, "interval=0ms");
      System.out.println("emitter event loop, unpaced: " + perFrame + " B allocated per frame");
      assertThat(perFrame).as("bytes the emitter's loop allocates per unpaced frame").isLessThan(8);
    }
  }

  @Test
  void aPacedStreamAllocatesOnlyItsWakeUp() throws Exception {
    try (LabFixture lab = new LabFixture(EmitterOptions.loopback(0), 1)) {
      // 20,000 frames 50 us apart: one second. What remains per frame is the event loop's
      // scheduled task for the frame's deadline (Netty allocates one per schedule() call).
      long perFrame = bytesPerFrame(lab, "interval=0.05ms");
      System.out.println("emitter event loop, paced: " + perFrame + " B allocated per frame");
      assertThat(perFrame).as("bytes the emitter's loop allocates per paced frame").isLessThan(64);
    }
  }

  @Test
  void aStreamsAuditStartsSmallAndStillMeasuresLateLateness() {
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    AuditRegistry registry = new AuditRegistry();
    new PacingAudit(0, 10, true, null, registry); // loads the classes
    long before = threads.getCurrentThreadAllocatedBytes();
    PacingAudit audit = new PacingAudit(1, 10, true, null, registry);
    long used = threads.getCurrentThreadAllocatedBytes() - before;
    System.out.println("a new stream's audit: " + used + " B");
    assertThat(used)
        .as("bytes a stream's audit allocates up front (a thousand streams set up at once)")
        .isLessThan(4096);
    for (int i = 0; i < 9; i++) audit.recordWritten(i, 0, 20_000L, false); // 20 us late
    audit.recordWritten(
        9, 0, 3_000_000_000L, false); // one frame 3 s late: the histogram grows to hold it
    audit.finish(true);
    PacingAudit.Summary s = registry.summary(1);
    assertThat(s.latenessP50Nanos()).isBetween(19_000L, 21_000L);
    assertThat(s.latenessMaxNanos()).isEqualTo(3_000_000_000L);
  }

  private static long bytesPerFrame(LabFixture lab, String pacing) throws Exception {
    var onLoop = new CompletableFuture<Thread>();
    lab.emitter.loop().runOnContext(v -> onLoop.complete(Thread.currentThread()));
    Thread loop = onLoop.get(10, TimeUnit.SECONDS);
    int port = lab.emitter.port();
    stream(port, pacing, 2_000); // compiles the path and fills Netty's pools
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = threads.getThreadAllocatedBytes(loop.getId());
    long bytes = stream(port, pacing, FRAMES);
    long used = threads.getThreadAllocatedBytes(loop.getId()) - before;
    assertThat(bytes).as("body bytes read").isGreaterThan(FRAMES * 60L);
    return used / FRAMES;
  }

  /** One whole stream over a blocking socket; returns the bytes read. */
  private static long stream(int port, String pacing, int frames) throws Exception {
    try (Socket s = new Socket("127.0.0.1", port)) {
      OutputStream out = s.getOutputStream();
      out.write(
          ("GET /sse?frames="
                  + frames
                  + "&size=60&"
                  + pacing
                  + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      byte[] buf = new byte[65536];
      long total = 0;
      for (int n; (n = in.read(buf)) > 0; ) total += n;
      return total;
    }
  }
}
