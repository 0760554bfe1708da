package flushlab.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import com.beust.jcommander.ParametersDelegate;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import flushlab.core.LabVertx;
import flushlab.scenario.Keys;
import io.vertx.core.Vertx;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

@Parameters(commandNames = "client", commandDescription = "Meter an SSE stream read by read")
final class ClientCommand implements Command {
  @Parameter(names = "--target", required = true,
      description = "http://host:port/path?query; a path of /v1/chat/completions sends a streaming chat request")
  String target;

  // These mirror the scenario's client settings: description, default and range come from Keys.
  @Parameter(names = "--requests", descriptionKey = "client.requests")
  int requests = Integer.parseInt(Keys.REQUESTS.defaultValue());

  @Parameter(names = "--concurrency", descriptionKey = "client.concurrency")
  int concurrency = Integer.parseInt(Keys.CONCURRENCY.defaultValue());

  @Parameter(names = "--keep-alive", descriptionKey = "client.keep_alive")
  boolean keepAlive = Boolean.parseBoolean(Keys.KEEP_ALIVE.defaultValue());

  @Parameter(names = "--timeout", descriptionKey = "client.timeout", converter = Converters.Duration.class)
  Converters.DurationArg timeout = Converters.DurationArg.of(Keys.TIMEOUT.defaultValue());

  @Parameter(names = "--slow-reader", descriptionKey = "client.slow_reader", converter = Converters.Duration.class)
  Converters.DurationArg slowReader = Converters.DurationArg.of(Keys.SLOW_READER.defaultValue());

  @Parameter(names = "--recv-buffer", description = "Most bytes one read may return", converter = Converters.Size.class)
  Converters.SizeArg recvBuffer = Converters.SizeArg.of("64KiB");

  @ParametersDelegate
  ChatFlags chat = new ChatFlags(100);

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
            + " failed: " + r.firstError());
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
      chat.check();
      return RequestPlan.chat(p.host(), p.port(), chat.tokens, chat.think.millis(), chat.delay.millis());
    }
    return p;
  }

  ClientOptions options() {
    SettingFlags.intValue("--requests", Keys.REQUESTS, requests);
    SettingFlags.intValue("--concurrency", Keys.CONCURRENCY, concurrency);
    int recvBytes = Converters.range("--recv-buffer", recvBuffer.bytes(), 64, 16L << 20);
    SettingFlags.check("--timeout", Keys.TIMEOUT, timeout.text());
    SettingFlags.check("--slow-reader", Keys.SLOW_READER, slowReader.text());
    long timeoutNanos = timeout.nanos();
    long slowNanos = slowReader.nanos();
    return new ClientOptions(requests, concurrency, keepAlive, timeoutNanos, slowNanos, recvBytes);
  }
}
