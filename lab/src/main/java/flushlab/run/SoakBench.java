package flushlab.run;

import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import flushlab.emitter.Emitter;
import flushlab.relay.Relay;
import flushlab.relay.RelayLog;
import flushlab.relay.RelayOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The soak: thousands of short streams, then hundreds of long ones at once, direct and through a
 * passthrough and a buffering relay, all in one bounded run. It passes when no frame was lost,
 * duplicated, reordered or corrupted, no stream failed, and the process's descriptors and heap
 * (after a collection) are back where they started. Run by bench/soak.sh.
 */
public record SoakBench(Vertx vertx, Emitter emitter, PrintStream out) {
  /**
   * Heap after the soak may exceed the baseline by this much: the emitter keeps the summaries of
   * its last 10,000 streams by design (about 1.4 MB), and pools warm up under load.
   */
  private static final long HEAP_SLACK_BYTES = 8L << 20;

  /**
   * Descriptors after the soak may differ from the baseline by this many (epoll, JIT threads'
   * files).
   */
  private static final int FD_SLACK = 4;

  /** Returns true when every check passed. */
  public boolean run(int shortStreams, int longStreams, int longSeconds) throws Exception {
    Relay passthrough = deploy(List.of("passthrough"));
    Relay buffering = deploy(List.of("byte-threshold=2KiB"));
    Map<String, Integer> ports = new LinkedHashMap<>();
    ports.put("direct", emitter.port());
    ports.put("passthrough", passthrough.port());
    ports.put("byte-threshold=2KiB", buffering.port());
    long heapBefore = settledHeap();
    long fdsBefore = descriptors();
    out.printf(
        "baseline: heap %.1f MiB after GC, %d descriptors open%n",
        heapBefore / 1048576.0, fdsBefore);
    boolean ok = true;
    long started = System.nanoTime();

    out.printf(
        "%n%d short streams per target (5 frames of 60 B, as fast as possible), 50 at once:%n",
        shortStreams);
    out.println(
        "| target | streams ok | errors | frames | lost | duplicated | reordered | corrupt | seconds | streams/s |");
    out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (Map.Entry<String, Integer> t : ports.entrySet()) {
      long t0 = System.nanoTime();
      BatchResult r = batch(t.getValue(), "frames=5&size=60&interval=0ms", shortStreams, 50, 5);
      double secs = (System.nanoTime() - t0) / 1e9;
      ok &= row(t.getKey(), r, shortStreams, 5, secs);
    }

    int frames = Math.max(2, longSeconds * 20);
    out.printf(
        "%n%d long streams per target at once (%d frames of 60 B every 50 ms, %d s), all targets together:%n",
        longStreams, frames, longSeconds);
    out.println(
        "| target | streams ok | errors | frames | lost | duplicated | reordered | corrupt | seconds | frames per read |");
    out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    long t0 = System.nanoTime();
    Map<String, Future<BatchResult>> running = new LinkedHashMap<>();
    List<MeteredClient> clients = new ArrayList<>();
    for (Map.Entry<String, Integer> t : ports.entrySet()) {
      MeteredClient c =
          new MeteredClient(
              vertx,
              ClientOptions.single()
                  .withRequests(longStreams, longStreams)
                  .withTimeoutNanos((longSeconds + 30) * 1_000_000_000L));
      clients.add(c);
      running.put(
          t.getKey(),
          c.run(
              RequestPlan.get(
                  "http://127.0.0.1:"
                      + t.getValue()
                      + "/sse?frames="
                      + frames
                      + "&size=60&interval=50ms")));
    }
    int peak = 0;
    while (running.values().stream().anyMatch(f -> !f.isComplete())) {
      peak = Math.max(peak, emitter.openConnections());
      Thread.sleep(100); // sampling the load for the printout, not synchronising anything
    }
    for (Map.Entry<String, Future<BatchResult>> e : running.entrySet()) {
      BatchResult r = e.getValue().await(1, TimeUnit.SECONDS);
      double secs = (System.nanoTime() - t0) / 1e9;
      ok &= row(e.getKey(), r, longStreams, frames, secs);
    }
    for (MeteredClient c : clients) c.close().await(10, TimeUnit.SECONDS);
    running.clear(); // the results are printed: what stays on the heap now is the lab's, not this
    // bench's
    clients.clear();
    out.printf(
        "load held: %d streams open at the emitter at the peak (%d asked for)%n",
        peak, 3 * longStreams);

    vertx.undeploy(passthrough.deploymentID()).await(10, TimeUnit.SECONDS);
    vertx.undeploy(buffering.deploymentID()).await(10, TimeUnit.SECONDS);
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (emitter.openConnections() > 0 && System.nanoTime() < deadline) Thread.sleep(10);
    long heapAfter = settledHeap();
    long fdsAfter = descriptors();
    boolean heapBack = heapAfter <= heapBefore + HEAP_SLACK_BYTES;
    boolean fdsBack = Math.abs(fdsAfter - fdsBefore) <= FD_SLACK;
    out.printf(
        "%nafter: heap %.1f MiB after GC (baseline %.1f MiB, allowed +%d MiB): %s%n",
        heapAfter / 1048576.0,
        heapBefore / 1048576.0,
        HEAP_SLACK_BYTES >> 20,
        heapBack ? "back to baseline" : "NOT back");
    out.printf(
        "after: %d descriptors open (baseline %d, allowed +-%d): %s; emitter connections open: %d%n",
        fdsAfter,
        fdsBefore,
        FD_SLACK,
        fdsBack ? "back to baseline" : "NOT back",
        emitter.openConnections());
    ok &= heapBack && fdsBack && emitter.openConnections() == 0;
    out.printf(
        "%nsoak %s in %.0f s%n", ok ? "PASSED" : "FAILED", (System.nanoTime() - started) / 1e9);
    return ok;
  }

  private Relay deploy(List<String> shapers) throws Exception {
    Relay r = new Relay(RelayOptions.loopback(emitter.port(), shapers), RelayLog.SILENT);
    vertx.deployVerticle(r).await(10, TimeUnit.SECONDS);
    return r;
  }

  private BatchResult batch(int port, String query, int n, int concurrency, int frames)
      throws Exception {
    MeteredClient c =
        new MeteredClient(
            vertx,
            ClientOptions.single().withRequests(n, concurrency).withTimeoutNanos(60_000_000_000L));
    try {
      return c.run(RequestPlan.get("http://127.0.0.1:" + port + "/sse?" + query))
          .await(10, TimeUnit.MINUTES);
    } finally {
      c.close().await(10, TimeUnit.SECONDS);
    }
  }

  /** Prints a row; true when every stream arrived whole and intact. */
  private boolean row(String target, BatchResult r, int streams, int framesEach, double secs) {
    boolean whole =
        r.streamsOk() == streams
            && r.errorCount() == 0
            && r.frames() == (long) streams * framesEach
            && r.lostFrames() + r.duplicateFrames() + r.reorderedFrames() + r.corruptFrames() == 0;
    out.printf(
        "| %s | %d/%d | %d | %d | %d | %d | %d | %d | %.1f | %s |%s%n",
        target,
        r.streamsOk(),
        streams,
        r.errorCount(),
        r.frames(),
        r.lostFrames(),
        r.duplicateFrames(),
        r.reorderedFrames(),
        r.corruptFrames(),
        secs,
        framesEach <= 5
            ? String.format("%.0f", streams / secs)
            : String.format("%.2f", r.framesPerRead()),
        whole ? "" : "  <- FAILED" + (r.errorCount() > 0 ? ": " + r.errors() : ""));
    return whole;
  }

  /**
   * Heap in use after collections have settled (several, so finalizable and soft garbage go too).
   */
  private static long settledHeap() throws InterruptedException {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      Thread.sleep(100);
      used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    }
    return used;
  }

  private static long descriptors() throws IOException {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.count();
    }
  }
}
