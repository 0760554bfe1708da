package flushlab.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import flushlab.control.ControlServer;
import flushlab.core.HostPort;
import flushlab.core.LabVertx;
import flushlab.emitter.Emitter;
import flushlab.emitter.EmitterOptions;
import flushlab.relay.RelayLog;
import flushlab.run.Warmup;
import io.vertx.core.Vertx;
import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

/**
 * `flushlab console`: the emitter, and on one port the control API that Toxiproxy's clients speak,
 * through which relays are created in front of the emitter (or anything else) and their toxics
 * changed while they run; a change applies to the next connection.
 */
@Parameters(
    commandNames = "console",
    commandDescription =
        "Run the emitter and a Toxiproxy-compatible control API for relays, until interrupted")
final class ConsoleCommand implements Command {
  @Parameter(
      names = "--listen",
      description = "host:port of the control API (a bare port means 127.0.0.1)")
  String listen = "127.0.0.1:8474";

  @Parameter(
      names = "--emitter-listen",
      description = "host:port of the emitter the relays usually front")
  String emitterListen = "127.0.0.1:8090";

  @Parameter(
      names = "--api-max-connections",
      description = "Connections the control API holds at once (one more is answered 503)")
  int apiMaxConnections = ControlServer.MAX_CONNECTIONS;

  @Parameter(
      names = "--api-request-timeout",
      description = "Most a request head to the control API may take (then 408)",
      converter = Converters.Duration.class)
  Converters.DurationArg apiRequestTimeout = Converters.DurationArg.of("10s");

  @Override
  public int run(PrintStream out, PrintStream err) throws Exception {
    Converters.range("--api-max-connections", apiMaxConnections, 1, 100_000);
    long headTimeoutNanos =
        Converters.durationRange(
            "--api-request-timeout", apiRequestTimeout, 1_000_000L, 3_600_000_000_000L);
    HostPort at = HostPort.parse("--listen", listen, true);
    HostPort em = HostPort.parse("--emitter-listen", emitterListen, true);
    Exposure.warnIfNotLoopback(
        err,
        "--listen",
        at,
        "the control API, which creates relays and injects faults on request,");
    Exposure.warnIfNotLoopback(err, "--emitter-listen", em, "the emitter");
    Vertx vertx = LabVertx.create(2);
    Emitter emitter = new Emitter(new EmitterOptions(em.host(), em.port(), true, 0));
    if (!Servers.listen(vertx, emitter, "console", em, err, Warmup.Focus.EVERYTHING, false))
      return EXIT_FAILED;
    ControlServer control =
        new ControlServer(
            at.host(),
            at.port(),
            RelayLog.to(out),
            new HostPort(em.host(), emitter.port()),
            apiMaxConnections,
            headTimeoutNanos / 1_000_000L);
    try {
      vertx.deployVerticle(control).await(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      err.println("flushlab console: cannot listen on " + at + ": " + Main.describe(e));
      vertx.close();
      return EXIT_FAILED;
    }
    out.println(
        "flushlab console: emitter on "
            + em.host()
            + ":"
            + emitter.port()
            + "; page and control API on http://"
            + at.host()
            + ":"
            + control.port()
            + "/ (Toxiproxy's paths: /version, /proxies, /proxies/NAME/toxics, /reset)");
    out.println(
        "  e.g. curl -s -XPOST http://"
            + at.host()
            + ":"
            + control.port()
            + "/proxies -d '{\"name\":\"lab\",\"listen\":\"127.0.0.1:8081\","
            + "\"upstream\":\""
            + em.host()
            + ":"
            + emitter.port()
            + "\"}'");
    return UntilInterrupted.await(vertx);
  }
}
