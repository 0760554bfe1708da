package flushlab.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import flushlab.client.StreamResult;
import flushlab.core.LabVertx;
import flushlab.core.Units;
import flushlab.emitter.Emitter;
import flushlab.emitter.EmitterOptions;
import flushlab.relay.Relay;
import flushlab.relay.RelayLog;
import flushlab.relay.RelayOptions;
import flushlab.run.MapBench;
import flushlab.run.SoakBench;
import flushlab.run.Warmup;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * The speed targets live here, not in tests: what the instrument and the passthrough relay cost on
 * this machine, printed as tables. Run by bench/instrument.sh and bench/relay.sh.
 */
@Parameters(
    commandNames = "bench",
    commandDescription =
        "Print the instrument's or the relay's cost on this machine, soak them, or time the map (instrument | relay | soak | map)")
final class BenchCommand implements Command {
  @Parameter(description = "instrument | relay | soak | map")
  List<String> what = new ArrayList<>();

  @Parameter(names = "--short-streams", description = "soak: short streams per target")
  int shortStreams = 5000;

  @Parameter(names = "--long-streams", description = "soak: long streams per target, all at once")
  int longStreams = 200;

  @Parameter(names = "--long-seconds", description = "soak: how long each long stream lasts")
  int longSeconds = 60;

  @Parameter(
      names = "--no-sweep",
      description = "map: skip the 21-cell sweep beside each map (about 90 s per relay)")
  boolean noSweep;

  @Parameter(
      names = "--verify",
      description =
          "map: each map replays its model on a built-in relay, as `map --verify` (the row says how the replay went)")
  boolean verify;

  private Vertx vertx;
  private Emitter emitter;

  @Override
  public int run(PrintStream out, PrintStream err) throws Exception {
    if (what.isEmpty()) what.add("instrument");
    if (what.size() != 1 || !List.of("instrument", "relay", "soak", "map").contains(what.get(0))) {
      throw new IllegalArgumentException("bench takes one of: instrument, relay, soak, map");
    }
    Converters.range("--short-streams", shortStreams, 1, 100_000);
    Converters.range("--long-streams", longStreams, 1, 300);
    Converters.range("--long-seconds", longSeconds, 1, 600);
    vertx =
        LabVertx.create(
            what.get(0).equals("map") ? 3 : 2); // map: as many loops as `flushlab map` uses
    try {
      emitter = new Emitter(EmitterOptions.loopback(0));
      vertx.deployVerticle(emitter).await(10, TimeUnit.SECONDS);
      Warmup.run(vertx);
      out.println(
          "machine: "
              + Runtime.getRuntime().availableProcessors()
              + " CPUs, "
              + System.getProperty("java.runtime.version")
              + ", native transport "
              + (vertx.isNativeTransportEnabled() ? "epoll" : "off"));
      switch (what.get(0)) {
        case "instrument":
          instrument(out);
          return EXIT_OK;
        case "relay":
          relay(out);
          return EXIT_OK;
        case "map":
          return new MapBench(vertx, out).run(!noSweep, verify) ? EXIT_OK : EXIT_FAILED;
        default:
          return new SoakBench(vertx, emitter, out).run(shortStreams, longStreams, longSeconds)
              ? EXIT_OK
              : EXIT_FAILED;
      }
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  private BatchResult batch(int port, String query, int streams) throws Exception {
    MeteredClient c =
        new MeteredClient(vertx, ClientOptions.single().withRequests(streams, streams));
    try {
      return c.run(RequestPlan.get("http://127.0.0.1:" + port + "/sse?" + query))
          .await(10, TimeUnit.MINUTES);
    } finally {
      c.close();
    }
  }

  /**
   * Streams started one by one, spread evenly over one interval, each its own single-request batch.
   */
  private BatchResult staggered(int port, String query, int streams, long intervalNanos)
      throws Exception {
    MeteredClient c = new MeteredClient(vertx, ClientOptions.single());
    List<Future<BatchResult>> running = new ArrayList<>();
    try {
      long start = System.nanoTime();
      for (int i = 0; i < streams; i++) {
        long due = start + intervalNanos * i / streams;
        while (System.nanoTime() < due)
          Thread.onSpinWait(); // the bench thread only, never an event loop
        running.add(c.run(RequestPlan.get("http://127.0.0.1:" + port + "/sse?" + query)));
      }
      List<StreamResult> all = new ArrayList<>();
      for (var f : running) all.addAll(f.await(10, TimeUnit.MINUTES).streamResults());
      return new BatchResult(all);
    } finally {
      c.close();
    }
  }

  private void instrument(PrintStream out) throws Exception {
    out.println(
        "direct path, 41 frames of 60 B every 50 ms, 10 runs (target: 1.00 frames per read):");
    StringBuilder runs = new StringBuilder();
    double sum = 0;
    for (int i = 0; i < 10; i++) {
      double fpr = batch(emitter.port(), "frames=41&size=60&interval=50ms", 1).framesPerRead();
      sum += fpr;
      runs.append(String.format("%.2f ", fpr));
    }
    out.printf("  frames per read: %s (mean %.3f)%n%n", runs.toString().trim(), sum / 10);
    latenessHeader(out);
    for (String interval : new String[] {"5ms", "50ms"}) {
      for (int streams : new int[] {1, 10, 100}) {
        latenessRow(out, interval, streams, q -> batch(emitter.port(), q, streams));
      }
    }
    out.println();
    out.println(
        "100 streams whose starts are spread over one interval (as independent clients arrive), instead of aligned:");
    latenessHeader(out);
    for (String interval : new String[] {"5ms", "50ms"}) {
      long intervalNanos = Units.parseDurationNanos(interval);
      latenessRow(out, interval, 100, q -> staggered(emitter.port(), q, 100, intervalNanos));
    }
    out.println(
        "\ntargets: frames per read 1.00 at 50 ms; pacing p99 under 1 ms at 100 streams; emit->recv p50 under 0.1 ms");
  }

  /** A batch of streams for the query given. */
  private interface Batch {
    BatchResult run(String query) throws Exception;
  }

  private static void latenessHeader(PrintStream out) {
    out.println(
        "| interval | streams | frames/read | emit->recv p50 | emit->recv p99 | pacing lateness p50 | p99 | max |");
    out.println("|---:|---:|---:|---:|---:|---:|---:|---:|");
  }

  /**
   * One row: the batch's delivery, and the emitter's own pacing over every stream it served for it.
   */
  private void latenessRow(PrintStream out, String interval, int streams, Batch batch)
      throws Exception {
    int frames = interval.equals("5ms") ? 400 : 41;
    Histogram lateness = new Histogram(3_600_000_000_000L, 3);
    emitter.audits().poolLatenessInto(lateness);
    BatchResult r = batch.run("frames=" + frames + "&size=60&interval=" + interval);
    emitter.audits().poolLatenessInto(null);
    out.printf(
        "| %s | %d | %.3f | %.3f ms | %.3f ms | %.3f ms | %.3f ms | %.3f ms |%n",
        interval,
        streams,
        r.framesPerRead(),
        r.emitToRecvMs().p50(),
        r.emitToRecvMs().p99(),
        lateness.getValueAtPercentile(50) / 1e6,
        lateness.getValueAtPercentile(99) / 1e6,
        lateness.getMaxValue() / 1e6);
  }

  private void relay(PrintStream out) throws Exception {
    Relay relay =
        new Relay(RelayOptions.loopback(emitter.port(), List.of("passthrough")), RelayLog.SILENT);
    vertx.deployVerticle(relay).await(10, TimeUnit.SECONDS);
    out.println("passthrough relay vs direct, 200 frames of 60 B every 5 ms per stream:");
    out.println(
        "| streams | direct e2r p50 | relay e2r p50 | added p50 | direct e2r p99 | relay e2r p99 | added p99 |");
    out.println("|---:|---:|---:|---:|---:|---:|---:|");
    for (int streams : new int[] {1, 100}) {
      String q = "frames=200&size=60&interval=5ms";
      BatchResult d = batch(emitter.port(), q, streams);
      BatchResult r = batch(relay.port(), q, streams);
      out.printf(
          "| %d | %.3f ms | %.3f ms | %+.1f us | %.3f ms | %.3f ms | %+.1f us |%n",
          streams,
          d.emitToRecvMs().p50(),
          r.emitToRecvMs().p50(),
          (r.emitToRecvMs().p50() - d.emitToRecvMs().p50()) * 1000,
          d.emitToRecvMs().p99(),
          r.emitToRecvMs().p99(),
          (r.emitToRecvMs().p99() - d.emitToRecvMs().p99()) * 1000);
    }
    out.println("\nbulk throughput, 512 MiB in 64 KiB frames as fast as the sockets take them:");
    for (String[] t :
        new String[][] {
          {"direct", Integer.toString(emitter.port())},
          {"passthrough relay", Integer.toString(relay.port())}
        }) {
      long start = System.nanoTime();
      BatchResult r = batch(Integer.parseInt(t[1]), "total=512MiB&size=64KiB&interval=0ms", 1);
      double secs = (System.nanoTime() - start) / 1e9;
      out.printf(
          "  %-18s %.0f MB/s (%d frames, %s)%n",
          t[0],
          r.bytes() / 1e6 / secs,
          r.frames(),
          r.errorCount() == 0 ? "ok" : r.errors().toString());
    }
    out.println("\ntarget: added p50 under 50 us");
  }
}
