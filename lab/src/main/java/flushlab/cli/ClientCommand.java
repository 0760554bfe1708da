package flushlab.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.ParameterException;
import com.beust.jcommander.Parameters;
import com.beust.jcommander.ParametersDelegate;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.ClientProfile;
import flushlab.client.HttpVersion;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import flushlab.core.HostPort;
import flushlab.core.Json;
import flushlab.core.LabVertx;
import flushlab.netpath.NetworkPath;
import flushlab.netpath.VethLink;
import flushlab.netpath.VethSite;
import flushlab.run.Warmup;
import flushlab.scenario.SettingKeys;
import io.vertx.core.Vertx;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

@Parameters(commandNames = "client", commandDescription = "Meter an SSE stream read by read")
final class ClientCommand implements Command {
  @Parameter(
      names = "--target",
      required = true,
      description =
          "http(s)://host:port/path?query; a path of /v1/chat/completions sends a streaming chat request, "
              + "/v1/responses a streaming Responses API request. With --path veth "
              + "only /path?query: the lab starts the server across the link")
  String target;

  @ParametersDelegate PathFlags path = new PathFlags();

  @Parameter(
      names = "--shape",
      splitter = Converters.WholeValue.class,
      description =
          "With --path veth: a shaper of a relay the lab starts in front of its emitter across the link (repeatable)")
  List<String> shapes = new ArrayList<>();

  // These mirror the scenario's client settings: description, default and range come from Keys.
  @Parameter(names = "--requests", descriptionKey = "client.requests")
  int requests = Integer.parseInt(SettingKeys.REQUESTS.defaultValue());

  @Parameter(names = "--concurrency", descriptionKey = "client.concurrency")
  int concurrency = Integer.parseInt(SettingKeys.CONCURRENCY.defaultValue());

  @Parameter(names = "--keep-alive", descriptionKey = "client.keep_alive")
  boolean keepAlive = Boolean.parseBoolean(SettingKeys.KEEP_ALIVE.defaultValue());

  @Parameter(
      names = "--timeout",
      descriptionKey = "client.timeout",
      converter = Converters.Duration.class)
  Converters.DurationArg timeout = Converters.DurationArg.of(SettingKeys.TIMEOUT.defaultValue());

  @Parameter(
      names = "--slow-reader",
      descriptionKey = "client.slow_reader",
      converter = Converters.Duration.class)
  Converters.DurationArg slowReader =
      Converters.DurationArg.of(SettingKeys.SLOW_READER.defaultValue());

  @Parameter(
      names = "--recv-buffer",
      description = "Most bytes one read may return",
      converter = Converters.Size.class)
  Converters.SizeArg recvBuffer = Converters.SizeArg.of("64KiB");

  @ParametersDelegate ChatFlags chat = new ChatFlags(100);

  @ParametersDelegate RequestFlags request = new RequestFlags();

  @Parameter(
      names = "--streams-per-connection",
      description =
          "HTTP/2: requests in flight on one connection at once (1..128; "
              + "--concurrency counts them all), as a browser multiplexes its streams")
  int streamsPerConnection = 1;

  @Parameter(
      names = "--h2-window",
      descriptionKey = "client.h2_window",
      converter = Converters.Size.class)
  Converters.SizeArg h2Window;

  @Parameter(names = "--json", description = "Print the result as JSON instead of one line")
  boolean json;

  @Override
  public int run(PrintStream out, PrintStream err) throws Exception {
    NetworkPath where = path.path();
    if (!where.isVeth() && !shapes.isEmpty()) {
      throw new IllegalArgumentException(
          "--shape: only with --path veth (on loopback, start a relay with 'flushlab relay')");
    }
    if (where.isVeth() && !target.startsWith("/")) {
      throw new IllegalArgumentException(
          "--target: with --path veth give only the path and query (e.g. /sse?frames=100&interval=5ms), "
              + "not '"
              + target
              + "': the lab starts the server across the link itself");
    }
    Converters.shapes(shapes); // checked before anything starts
    ClientOptions options = options();
    if (!where.isVeth()) {
      RequestPlan plan = plan(target, err);
      ClientOptions o = options.withHttp(request.http(plan.tls() != null));
      if (streamsPerConnection != 1) {
        if (!o.http().h2())
          throw new IllegalArgumentException(
              "--streams-per-connection: only with --http h2, h2c or h2c-upgrade");
        o =
            o.withStreamsPerConnection(
                Converters.range(
                    "--streams-per-connection",
                    streamsPerConnection,
                    1,
                    ClientOptions.MAX_STREAMS_PER_CONNECTION));
      }
      if (h2Window != null) {
        if (!o.http().h2())
          throw new IllegalArgumentException(
              "--h2-window: only with --http h2, h2c or h2c-upgrade");
        o =
            o.withH2Window(
                Converters.range("--h2-window", h2Window.bytes(), 1, ClientOptions.MAX_H2_WINDOW));
      }
      return measure(plan, o, out, err);
    }
    try (VethSite site = VethSite.open(where.mtu())) {
      HostPort at = site.emitter();
      if (!shapes.isEmpty()) at = site.startRelay("relay", shapes, false).address();
      out.println(
          "flushlab client: "
              + where.describe()
              + ": "
              + site.link()
              + "; measuring "
              + (shapes.isEmpty() ? "the emitter" : "relay " + String.join(" -> ", shapes))
              + " at "
              + at);
      return measure(plan("http://" + at + target, err), options, out, err);
    } catch (VethLink.Unavailable e) {
      err.println("flushlab client: " + e.getMessage());
      return EXIT_FAILED;
    }
  }

  private int measure(RequestPlan plan, ClientOptions options, PrintStream out, PrintStream err)
      throws Exception {
    Vertx vertx = LabVertx.create(1);
    MeteredClient client = new MeteredClient(vertx, options);
    try {
      Warmup.runOnce(vertx, plan.tls() != null);
      long started = System.nanoTime();
      long cpuBefore = ProcessCpu.nanos();
      BatchResult r =
          client
              .run(plan)
              .await(
                  options.timeoutNanos() / 1_000_000 * options.requests() + 10_000,
                  TimeUnit.MILLISECONDS);
      double seconds = (System.nanoTime() - started) / 1e9;
      long cpuNanos = ProcessCpu.nanos() - cpuBefore;
      if (json) {
        // the result, with which client it was and the exact head it sent (the user's header values
        // hidden)
        ObjectNode tree = Json.MAPPER.valueToTree(r);
        tree.put("client_profile", plan.profile().text());
        tree.put("http", options.http().text());
        ArrayNode sent = tree.putArray("request_headers");
        plan.headLines(options.keepAlive(), true).forEach(sent::add);
        out.println(Json.pretty(tree));
      } else {
        if (r.h2() != null)
          out.println(
              "over HTTP/2 ("
                  + (options.http() == HttpVersion.AUTO
                      ? "h2, as the server picked by ALPN"
                      : options.http().text())
                  + ")");
        if (!plan.acceptedCodings().isEmpty() || plan.profile() != ClientProfile.BARE) {
          out.println(
              "as "
                  + plan.profile().text()
                  + (plan.acceptedCodings().isEmpty()
                      ? ", no Accept-Encoding"
                      : ", accepting "
                          + String.join(
                              ", ", plan.acceptedCodings().stream().map(c -> c.text()).toList())));
        }
        out.println(r.oneLine());
        out.printf(
            Locale.ROOT,
            "batch %.3f s, %.1f MB/s read%s%n",
            seconds,
            r.bytes() / 1e6 / seconds,
            ProcessCpu.perFrame(cpuNanos, r.frames()));
      }
      if (r.errorCount() > 0) {
        err.println(
            "flushlab client: "
                + r.errorCount()
                + " of "
                + r.streams()
                + " requests to "
                + plan.url()
                + " failed: "
                + r.firstError());
        return EXIT_FAILED;
      }
      return EXIT_OK;
    } finally {
      client.close();
      vertx.close().await(5, TimeUnit.SECONDS);
    }
  }

  RequestPlan plan(String url, PrintStream err) {
    RequestPlan p;
    try {
      p = RequestPlan.get(url);
    } catch (IllegalArgumentException e) {
      throw new ParameterException("--target: " + e.getMessage());
    }
    OpenAiPlan openAi =
        p.pathAndQuery().startsWith("/v1/chat/completions")
            ? RequestPlan::chat
            : p.pathAndQuery().startsWith("/v1/responses") ? RequestPlan::responses : null;
    if (openAi != null) {
      chat.check();
      p =
          openAi
              .of(
                  p.host(),
                  p.port(),
                  chat.tokens,
                  chat.think.millis(),
                  chat.delay.millis(),
                  request.model())
              .withTls(p.tls());
    }
    return request.apply(p, err);
  }

  /** The request of one of the OpenAI endpoints the emitter serves. */
  private interface OpenAiPlan {
    RequestPlan of(String host, int port, int tokens, double thinkMs, double delayMs, String model);
  }

  ClientOptions options() {
    SettingFlags.intValue("--requests", SettingKeys.REQUESTS, requests);
    SettingFlags.intValue("--concurrency", SettingKeys.CONCURRENCY, concurrency);
    int recvBytes = Converters.range("--recv-buffer", recvBuffer.bytes(), 64, 16L << 20);
    SettingFlags.check("--timeout", SettingKeys.TIMEOUT, timeout.text());
    SettingFlags.check("--slow-reader", SettingKeys.SLOW_READER, slowReader.text());
    long timeoutNanos = timeout.nanos();
    long slowNanos = slowReader.nanos();
    return new ClientOptions(requests, concurrency, keepAlive, timeoutNanos, slowNanos, recvBytes);
  }
}
