package flushlab.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import com.beust.jcommander.ParametersDelegate;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.ClientProfile;
import flushlab.client.Distribution;
import flushlab.client.GatewayOverhead;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import flushlab.core.HostPort;
import flushlab.core.LabVertx;
import flushlab.emitter.Emitter;
import flushlab.emitter.EmitterOptions;
import flushlab.http.Header;
import flushlab.run.GatewayRounds;
import flushlab.run.Warmup;
import flushlab.scenario.SettingKeys;
import flushlab.stream.Endpoint;
import flushlab.stream.StreamSpec;
import flushlab.tls.ClientTls;
import io.vertx.core.Vertx;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Gateway overhead, measured the way the sse-latency tool does and then some: the emitter and the
 * client share one clock; rounds alternate a loopback batch and a gateway batch of the same
 * requests, and the gateway's cost is the median of the rounds' differences, reported only when it
 * is larger than their spread ({@link GatewayOverhead}). Frames per read is printed for both,
 * because a buffering gateway shows there first.
 */
@Parameters(
    commandNames = "probe",
    commandDescription =
        "Measure a gateway's overhead on an OpenAI token stream against a loopback calibration")
final class ProbeCommand implements Command {
  @Parameter(
      names = "--gateway",
      description =
          "host:port (or https://host:port) of the gateway under test, which forwards to --listen")
  String gateway;

  @Parameter(names = "--listen", description = "Where the emitter listens (the gateway's upstream)")
  String listen = "127.0.0.1:8090";

  @Parameter(
      names = {"-r", "--requests"},
      description = "Gateway requests (as many again on loopback), in rounds of --concurrency")
  int requests = 20;

  @Parameter(
      names = "--max-rounds",
      description =
          "Rounds at most while the overhead is within the rounds' noise (0: twice the planned rounds)")
  int maxRounds = 0;

  @Parameter(
      names = {"-c", "--concurrency"},
      description = "Requests in flight at once")
  int concurrency = 5;

  @ParametersDelegate ChatFlags chat = new ChatFlags(1000);

  @ParametersDelegate RequestFlags request = new RequestFlags();

  @Parameter(
      names = "--endpoint",
      description =
          "chat (POST /v1/chat/completions) or responses (POST /v1/responses, at most 2000 tokens)")
  String endpoint = "chat";

  @Parameter(
      names = "--timeout",
      description = "Per-request timeout",
      converter = Converters.Duration.class)
  Converters.DurationArg timeout = Converters.DurationArg.of("300s");

  /** Fewer rounds give no spread worth the name. */
  static final int MIN_ROUNDS = 3;

  @Parameter(
      names = "--no-calibration",
      description = "Skip the loopback rounds: measure the gateway only")
  boolean noCalibration;

  @Override
  public int run(PrintStream out, PrintStream err) throws Exception {
    if (gateway == null)
      throw new IllegalArgumentException(
          "--gateway: required (host:port of the gateway under test)");
    RequestFlags.Server gateway = request.server("--gateway", this.gateway, err);
    HostPort gw = gateway.address();
    Endpoint streamEndpoint =
        Endpoint.CHAT.text().equals(endpoint)
            ? Endpoint.CHAT
            : Endpoint.RESPONSES.text().equals(endpoint) ? Endpoint.RESPONSES : null;
    if (streamEndpoint == null) {
      throw new IllegalArgumentException(
          "--endpoint: '"
              + endpoint
              + "' is not one of "
              + Endpoint.CHAT.text()
              + ", "
              + Endpoint.RESPONSES.text());
    }
    String model = request.model();
    ClientProfile profile = request.profile();
    List<Header> headers = request.resolvedHeaders(System.getenv()).toSend();
    ClientTls gwTls = gateway.tls();
    HostPort at = HostPort.parse("--listen", listen, true);
    Exposure.warnIfNotLoopback(err, "--listen", at, "the probe's emitter");
    // ranges as the scenario settings these mirror (requests, concurrency, frames, interval, think,
    // timeout)
    SettingFlags.intValue("--requests", SettingKeys.REQUESTS, requests);
    SettingFlags.intValue("--concurrency", SettingKeys.CONCURRENCY, concurrency);
    chat.check();
    if (maxRounds < 0 || maxRounds > 100) {
      throw new IllegalArgumentException(
          "--max-rounds: "
              + maxRounds
              + " is out of range (0..100; 0 means twice the planned rounds)");
    }
    SettingFlags.check("--timeout", SettingKeys.TIMEOUT, timeout.text());
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
      // Rounds of one wave each (concurrency requests a side), at least MIN_ROUNDS, up to
      // twice as many (or --max-rounds) while the overhead is not out of the rounds' noise.
      int planned = Math.max(MIN_ROUNDS, (requests + concurrency - 1) / concurrency);
      int most = maxRounds > 0 ? Math.max(planned, maxRounds) : 2 * planned;
      int perRound = Math.min(concurrency, requests);
      double roundSeconds = seconds(perRound, tokens);
      out.printf(
          "flushlab probe: emitter on %s:%d, gateway %s, %d requests x %d tokens, %d at once, think %.3fms, %.3fms between tokens%n",
          at.host(),
          emitter.port(),
          gateway.describe(),
          requests,
          tokens,
          concurrency,
          thinkNanos / 1e6,
          delayNanos / 1e6);
      if (noCalibration) {
        out.printf(
            "expected duration: about %.1fs (the gateway only, no calibration)%n",
            seconds(requests, tokens));
      } else {
        out.printf(
            "expected duration: about %.1fs (%d interleaved rounds of %d loopback and %d gateway requests; up to %d rounds, %.1fs, "
                + "while the overhead is within the rounds' noise)%n",
            2 * planned * roundSeconds, planned, perRound, perRound, most, 2 * most * roundSeconds);
      }

      out.println("warm-up: " + Warmup.runOnce(vertx, gwTls != null));
      // the same request both ways (headers included), so the difference is the gateway's alone
      StreamSpec stream =
          StreamSpec.DEFAULT
              .withEndpoint(streamEndpoint)
              .withFrames(tokens)
              .withThinkNanos(thinkNanos)
              .withIntervalNanos(delayNanos);
      RequestPlan loopPlan =
          RequestPlan.of(stream, at.host(), emitter.port(), model)
              .withHeaders(headers)
              .withProfile(profile);
      RequestPlan gwPlan = loopPlan.at(gw.host(), gw.port()).withTls(gwTls);
      if (noCalibration) {
        BatchResult gwr = batch(vertx, out, "gateway", gwPlan, requests);
        print(out, "gateway " + gw, gwr);
        return gatewayErrors(err, gwr);
      }
      GatewayRounds.Result rounds =
          GatewayRounds.run(
              loopPlan,
              gwPlan,
              perRound,
              planned,
              most,
              (label, plan, n) -> batch(vertx, out, label, plan, n),
              out);
      if (rounds.failedLoopback() != null) {
        err.println(
            "flushlab probe: the loopback calibration failed: " + rounds.failedLoopback().errors());
        return EXIT_FAILED;
      }
      if (rounds.failedGateway() != null) return gatewayErrors(err, rounds.failedGateway());
      GatewayOverhead overhead = rounds.overhead();
      BatchResult cal = overhead.pooledLoopback();
      BatchResult gwr = overhead.pooledGateway();
      print(
          out,
          "loopback (calibration, "
              + overhead.rounds()
              + " rounds x "
              + perRound
              + " x "
              + tokens
              + " tokens)",
          cal);
      print(out, "gateway " + gw + " (" + overhead.rounds() + " rounds x " + perRound + ")", gwr);
      out.println(
          "=== gateway overhead (gateway minus loopback; p50: the median of the rounds' differences; "
              + "spread: their interquartile range) ===");
      for (GatewayOverhead.Metric m : GatewayOverhead.Metric.values())
        diff(out, overhead.difference(m));
      out.printf(
          "  %-24s gateway %.2f  loopback %.2f%n",
          "frames per read", gwr.framesPerRead(), cal.framesPerRead());
      if (!overhead.resolved()) {
        out.println(
            "inconclusive: "
                + GatewayOverhead.DECIDING.stream()
                    .filter(m -> !overhead.difference(m).resolved())
                    .map(m -> m.label)
                    .collect(Collectors.joining(" and "))
                + " differ by less than the rounds' spread after "
                + overhead.rounds()
                + " rounds: the gateway's cost there is below what this"
                + " machine resolves now; measure more rounds (--max-rounds) or run on a quieter machine");
      }
      return EXIT_OK;
    } finally {
      vertx.close().await(5, TimeUnit.SECONDS);
    }
  }

  private static int gatewayErrors(PrintStream err, BatchResult gwr) {
    if (gwr.errorCount() == 0) return EXIT_OK;
    err.println(
        "flushlab probe: "
            + gwr.errorCount()
            + " of "
            + gwr.streams()
            + " gateway requests failed: "
            + gwr.firstError());
    return EXIT_FAILED;
  }

  private double seconds(int n, int t) {
    double perRequest = (chat.think.nanos() + chat.delay.nanos() * (double) (t - 1)) / 1e9;
    return perRequest * Math.ceil((double) n / concurrency);
  }

  private BatchResult batch(Vertx vertx, PrintStream out, String label, RequestPlan plan, int n)
      throws Exception {
    ClientOptions options = new ClientOptions(n, concurrency, false, timeout.nanos(), 0, 65536);
    MeteredClient client = new MeteredClient(vertx, options);
    try (Progress p =
        new Progress(
            out, () -> label + ": " + client.finishedStreams() + "/" + n + " requests done")) {
      return client
          .run(plan)
          .await(timeout.nanos() / 1_000_000 * n + 10_000, TimeUnit.MILLISECONDS);
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
    out.printf(
        "  %-24s mean %8.3fms  p50 %8.3fms  p99 %8.3fms  max %8.3fms%n",
        name, d.mean(), d.p50(), d.p99(), d.max());
  }

  private static void diff(PrintStream out, GatewayOverhead.Difference d) {
    out.printf(
        "  %-24s mean %+8.3fms  p50 %+8.3fms  p99 %+8.3fms  spread %7.3fms  %s%n",
        d.metric().label,
        d.meanMs(),
        d.p50Ms(),
        d.p99Ms(),
        d.spreadMs(),
        d.resolved() ? "resolved" : "within noise");
  }
}
