package flushlab.cli;

import com.beust.jcommander.Parameter;
import flushlab.core.HostPort;
import com.beust.jcommander.Parameters;
import com.beust.jcommander.ParametersDelegate;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.Distribution;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import flushlab.core.LabVertx;
import flushlab.scenario.Keys;
import flushlab.emitter.Emitter;
import flushlab.emitter.EmitterOptions;
import io.vertx.core.Vertx;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

/**
 * Gateway overhead, measured the way the sse-latency tool does and then some: the emitter and the
 * client share one clock, a short loopback calibration batch gives the noise floor, the gateway
 * batch gives the numbers, and the difference is the gateway's cost. Frames per read is printed
 * for both, because a buffering gateway shows there first.
 */
@Parameters(commandNames = "probe", commandDescription = "Measure a gateway's overhead on an OpenAI token stream against a loopback calibration")
final class ProbeCommand implements Command {
  @Parameter(names = "--gateway", description = "host:port of the gateway under test, which forwards to --listen")
  String gateway;

  @Parameter(names = "--listen", description = "Where the emitter listens (the gateway's upstream)")
  String listen = "127.0.0.1:8090";

  @Parameter(names = {"-r", "--requests"}, description = "Requests in the gateway batch")
  int requests = 20;

  @Parameter(names = {"-c", "--concurrency"}, description = "Requests in flight at once")
  int concurrency = 5;

  @ParametersDelegate
  ChatFlags chat = new ChatFlags(1000);

  @Parameter(names = "--timeout", description = "Per-request timeout", converter = Converters.Duration.class)
  Converters.DurationArg timeout = Converters.DurationArg.of("300s");

  @Parameter(names = "--no-calibration", description = "Skip the loopback calibration batch")
  boolean noCalibration;

  @Override
  public int run(PrintStream out, PrintStream err) throws Exception {
    if (gateway == null) throw new IllegalArgumentException("--gateway: required (host:port of the gateway under test)");
    HostPort gw = HostPort.parse("--gateway", gateway, false);
    HostPort at = HostPort.parse("--listen", listen, true);
    Exposure.warnIfNotLoopback(err, "--listen", at, "the probe's emitter");
    // ranges as the scenario settings these mirror (requests, concurrency, frames, interval, think, timeout)
    SettingFlags.intValue("--requests", Keys.REQUESTS, requests);
    SettingFlags.intValue("--concurrency", Keys.CONCURRENCY, concurrency);
    chat.check();
    SettingFlags.check("--timeout", Keys.TIMEOUT, timeout.text());
    int tokens = chat.tokens;
    long delayNanos = chat.delay.nanos();
    long thinkNanos = chat.think.nanos();

    Vertx vertx = LabVertx.create(3);
    try {
      Emitter emitter = new Emitter(new EmitterOptions(at.host(), at.port(), true, 0));
      try {
        vertx.deployVerticle(emitter).await(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        err.println("flushlab probe: the emitter cannot listen on " + at + ": " + Main.describe(e));
        return EXIT_FAILED;
      }
      int calRequests = Math.min(requests, Math.max(3, concurrency));
      int calTokens = Math.min(tokens, 200);
      double calSeconds = noCalibration ? 0 : seconds(calRequests, calTokens);
      double gwSeconds = seconds(requests, tokens);
      out.printf("flushlab probe: emitter on %s:%d, gateway %s, %d requests x %d tokens, %d at once, think %.3fms, %.3fms between tokens%n",
          at.host(), emitter.port(), gw, requests, tokens, concurrency, thinkNanos / 1e6, delayNanos / 1e6);
      out.printf("expected duration: about %.1fs (calibration %.1fs, gateway %.1fs)%n", calSeconds + gwSeconds, calSeconds, gwSeconds);

      flushlab.client.Warmup.run(vertx);
      out.println("warm-up: " + flushlab.client.Warmup.DESCRIPTION);
      BatchResult cal = null;
      if (!noCalibration) {
        cal = batch(vertx, out, "calibration", RequestPlan.chat(at.host(), emitter.port(), calTokens, thinkNanos / 1e6, delayNanos / 1e6),
            calRequests);
        if (cal.errorCount() > 0) {
          err.println("flushlab probe: the loopback calibration failed: " + cal.errors());
          return EXIT_FAILED;
        }
      }
      BatchResult gwr = batch(vertx, out, "gateway", RequestPlan.chat(gw.host(), gw.port(), tokens, thinkNanos / 1e6, delayNanos / 1e6),
          requests);
      if (cal != null) print(out, "loopback (calibration, " + calRequests + " x " + calTokens + " tokens)", cal);
      print(out, "gateway " + gw, gwr);
      if (cal != null && gwr.streamsOk() > 0) {
        out.println("=== gateway overhead (gateway minus loopback; negative = loopback noise) ===");
        diff(out, "emit->recv (1st token)", gwr.firstEmitToRecvMs(), cal.firstEmitToRecvMs());
        diff(out, "emit->recv (tokens)", gwr.emitToRecvMs(), cal.emitToRecvMs());
        diff(out, "TTFT (client)", gwr.ttftMs(), cal.ttftMs());
        diff(out, "inter-token (client)", gwr.gapMs(), cal.gapMs());
        out.printf("  %-24s gateway %.2f  loopback %.2f%n", "frames per read", gwr.framesPerRead(), cal.framesPerRead());
      }
      if (gwr.errorCount() > 0) {
        err.println("flushlab probe: " + gwr.errorCount() + " of " + gwr.streams() + " gateway requests failed: "
            + gwr.firstError());
        return EXIT_FAILED;
      }
      return EXIT_OK;
    } finally {
      vertx.close().await(5, TimeUnit.SECONDS);
    }
  }

  private double seconds(int n, int t) {
    double perRequest = (chat.think.nanos() + chat.delay.nanos() * (double) (t - 1)) / 1e9;
    return perRequest * Math.ceil((double) n / concurrency);
  }

  private BatchResult batch(Vertx vertx, PrintStream out, String label, RequestPlan plan, int n) throws Exception {
    ClientOptions options = new ClientOptions(n, concurrency, false, timeout.nanos(), 0, 65536);
    MeteredClient client = new MeteredClient(vertx, options);
    try (Progress p = new Progress(out, () -> label + ": " + client.finishedStreams() + "/" + n + " requests done")) {
      return client.run(plan).await(timeout.nanos() / 1_000_000 * n + 10_000, TimeUnit.MILLISECONDS);
    } finally {
      client.close();
    }
  }

  private static void print(PrintStream out, String title, BatchResult r) {
    out.println("=== " + title + ": " + r.streamsOk() + "/" + r.streams() + " ok ===");
    row(out, "TTFT (client)", r.ttftMs());
    row(out, "emit->recv (1st token)", r.firstEmitToRecvMs());
    row(out, "emit->recv (tokens)", r.emitToRecvMs());
    row(out, "inter-token (client)", r.gapMs());
    out.printf("  %-24s %.2f%n", "frames per read", r.framesPerRead());
  }

  private static void row(PrintStream out, String name, Distribution d) {
    out.printf("  %-24s mean %8.3fms  p50 %8.3fms  p99 %8.3fms  max %8.3fms%n", name, d.mean(), d.p50(), d.p99(), d.max());
  }

  private static void diff(PrintStream out, String name, Distribution g, Distribution l) {
    out.printf("  %-24s mean %+8.3fms  p50 %+8.3fms  p99 %+8.3fms%n", name, g.mean() - l.mean(), g.p50() - l.p50(), g.p99() - l.p99());
  }
}
