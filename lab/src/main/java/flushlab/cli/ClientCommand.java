package flushlab.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import flushlab.core.LabVertx;
import io.vertx.core.Vertx;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

@Parameters(commandNames = "client", commandDescription = "Meter an SSE stream read by read")
final class ClientCommand implements Command {
  @Parameter(names = "--target", required = true,
      description = "http://host:port/path?query; a path of /v1/chat/completions sends a streaming chat request")
  String target;

  @Parameter(names = "--requests", description = "Requests in the batch")
  int requests = 1;

  @Parameter(names = "--concurrency", description = "Requests in flight at once")
  int concurrency = 1;

  @Parameter(names = "--keep-alive", description = "Reuse connections between requests (default: a fresh connection per request)")
  boolean keepAlive;

  @Parameter(names = "--timeout", description = "Per-request timeout", converter = Converters.Duration.class)
  Converters.DurationArg timeout = Converters.DurationArg.of("60s");

  @Parameter(names = "--slow-reader", description = "Pause this long after each read, e.g. 200ms (default: read at once)",
      converter = Converters.Duration.class)
  Converters.DurationArg slowReader = Converters.DurationArg.of("0ms");

  @Parameter(names = "--recv-buffer", description = "Most bytes one read may return", converter = Converters.Size.class)
  Converters.SizeArg recvBuffer = Converters.SizeArg.of("64KiB");

  @Parameter(names = "--tokens", description = "Chat requests: tokens per response (pi_tokens)")
  int tokens = 100;

  @Parameter(names = "--think", description = "Chat requests: think time (pi_think_ms)", converter = Converters.Duration.class)
  Converters.DurationArg think = Converters.DurationArg.of("0ms");

  @Parameter(names = "--delay", description = "Chat requests: inter-token delay (pi_delay_ms)", converter = Converters.Duration.class)
  Converters.DurationArg delay = Converters.DurationArg.of("5ms");

  @Parameter(names = "--json", description = "Print the result as JSON instead of one line")
  boolean json;

  @Override
  public int run(PrintStream out, PrintStream err) throws Exception {
    RequestPlan plan = plan();
    ClientOptions options = options();
    Vertx vertx = LabVertx.create(1);
    MeteredClient client = new MeteredClient(vertx, options);
    try {
      flushlab.client.Warmup.run(vertx);
      BatchResult r = client.run(plan).await(options.timeoutNanos() / 1_000_000 * options.requests() + 10_000, TimeUnit.MILLISECONDS);
      if (json) {
        out.println(flushlab.core.Json.pretty(r));
      } else {
        out.println(r.oneLine());
      }
      if (r.errorCount() > 0) {
        err.println("flushlab client: " + r.errorCount() + " of " + r.streams() + " requests to " + plan.url()
            + " failed: " + r.errors().get(0).get("meaning") + " (" + r.errors().get(0).get("example") + ")");
        return EXIT_FAILED;
      }
      return EXIT_OK;
    } finally {
      client.close();
      vertx.close().await(5, TimeUnit.SECONDS);
    }
  }

  RequestPlan plan() {
    RequestPlan p;
    try {
      p = RequestPlan.get(target);
    } catch (IllegalArgumentException e) {
      throw new com.beust.jcommander.ParameterException("--target: " + e.getMessage());
    }
    if (p.pathAndQuery().startsWith("/v1/chat/completions")) {
      Converters.range("--tokens", tokens, 1, 1_000_000);
      Converters.durationRange("--think", think, 0, 60_000_000_000L);
      Converters.durationRange("--delay", delay, 0, 60_000_000_000L);
      return RequestPlan.chat(p.host(), p.port(), tokens, think.millis(), delay.millis());
    }
    return p;
  }

  ClientOptions options() {
    Converters.range("--requests", requests, 1, ClientOptions.MAX_REQUESTS);
    Converters.range("--concurrency", concurrency, 1, ClientOptions.MAX_CONCURRENCY);
    int recvBytes = Converters.range("--recv-buffer", recvBuffer.bytes(), 64, 16L << 20);
    long timeoutNanos = Converters.durationRange("--timeout", timeout, 1_000_000L, 3_600_000_000_000L);
    long slowNanos = Converters.durationRange("--slow-reader", slowReader, 0, 10_000_000_000L);
    return new ClientOptions(requests, concurrency, keepAlive, timeoutNanos, slowNanos, recvBytes);
  }
}
