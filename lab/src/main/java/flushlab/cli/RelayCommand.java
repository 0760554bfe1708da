package flushlab.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import com.beust.jcommander.ParametersDelegate;
import flushlab.core.HostPort;
import flushlab.core.LabVertx;
import flushlab.relay.Relay;
import flushlab.relay.RelayLog;
import flushlab.relay.RelayOptions;
import flushlab.relay.shaper.ShaperReference;
import flushlab.relay.shaper.ShaperRegistry;
import flushlab.run.Warmup;
import flushlab.tls.ServerTls;
import io.vertx.core.Vertx;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

@Parameters(
    commandNames = "relay",
    commandDescription = "Run a misbehaving relay (a chain of shapers) until interrupted")
final class RelayCommand implements Command {
  @Parameter(
      names = "--listen",
      description = "host:port to listen on (a bare port means 127.0.0.1)")
  String listen = "127.0.0.1:8081";

  @Parameter(names = "--upstream", description = "host:port of the server behind the relay")
  String upstream;

  @Parameter(
      names = "--shape",
      splitter = Converters.WholeValue.class,
      description =
          "A shaper, applied in the order given, e.g. byte-threshold=2KiB or latency=50ms,jitter=10ms (repeatable; none = passthrough)")
  List<String> shapes = new ArrayList<>();

  @Parameter(
      names = "--pool-upstream",
      description = "Keep upstream connections alive and reuse them across client connections")
  boolean poolUpstream;

  @Parameter(
      names = "--tls",
      description = "Clients reach the relay over TLS (it terminates TLS; upstream stays plain)")
  boolean tls;

  @ParametersDelegate ServerTlsFlags tlsFlags = new ServerTlsFlags();

  @Parameter(
      names = "--max-connections",
      description = "Client connections served at once; one more is answered 503")
  int maxConnections = RelayOptions.DEFAULT_MAX_CONNECTIONS;

  @Parameter(
      names = "--max-held",
      description = "Most bytes all connections together may hold in buffering shapers (then 502)",
      converter = Converters.Size.class)
  Converters.SizeArg maxHeld = Converters.SizeArg.of("256MiB");

  @Parameter(
      names = "--list-shapers",
      description = "Print the shaper reference (Markdown) and exit")
  boolean listShapers;

  @Override
  public int run(PrintStream out, PrintStream err) throws Exception {
    if (listShapers) {
      out.print(ShaperReference.markdown());
      return EXIT_OK;
    }
    HostPort at = HostPort.parse("--listen", listen, true);
    if (upstream == null)
      throw new IllegalArgumentException(
          "--upstream: required (host:port of the server behind the relay)");
    HostPort up = HostPort.parse("--upstream", upstream, false);
    Exposure.warnIfNotLoopback(
        err, "--listen", at, "this relay, which misbehaves and injects faults on purpose,");
    List<ShaperRegistry.Spec> specs = Converters.shapes(shapes);
    Converters.range("--max-connections", maxConnections, 1, 100_000);
    if (maxHeld.bytes() < 1024 || maxHeld.bytes() > (64L << 30)) {
      throw new IllegalArgumentException(
          "--max-held: " + maxHeld + " is out of range (allowed: 1KiB..64GiB)");
    }
    RelayOptions options =
        new RelayOptions(at.host(), at.port(), up.host(), up.port(), specs, poolUpstream)
            .withLimits(maxConnections, maxHeld.bytes());
    ServerTls serverTls = tlsFlags.tls(tls, "--tls");
    if (serverTls != null) options = options.withTls(serverTls);
    Vertx vertx = LabVertx.create(1);
    Relay relay = new Relay(options, RelayLog.to(out));
    if (!Servers.listen(vertx, relay, "relay", at, err, Warmup.Focus.RELAY, serverTls != null))
      return EXIT_FAILED;
    out.println(
        "flushlab relay on "
            + at.host()
            + ":"
            + relay.port()
            + " -> "
            + up
            + "  ["
            + options.describe()
            + "]"
            + (poolUpstream
                ? " (upstream connections pooled)"
                : " (a fresh upstream connection per client connection)"));
    if (serverTls != null)
      out.println("  clients connect with TLS: " + ServerTlsFlags.describe(serverTls));
    return UntilInterrupted.await(vertx);
  }
}
