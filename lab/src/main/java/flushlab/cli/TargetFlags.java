package flushlab.cli;

import com.beust.jcommander.Parameter;
import flushlab.core.HostPort;
import flushlab.netpath.NetworkPath;
import flushlab.proxy.ProxyKind;
import flushlab.scenario.ConfigTemplate;
import flushlab.targets.Target;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The one target `map` and `probe idle` measure, and where the lab's emitter listens for it: a
 * server the user runs (forwarding to the emitter), a built-in relay, or a real proxy the lab
 * starts.
 */
final class TargetFlags {
  @Parameter(
      names = "--target",
      description =
          "host:port (or https://host:port) of a server you run, which forwards to --emitter-listen")
  String target;

  @Parameter(
      names = "--shape",
      splitter = Converters.WholeValue.class,
      description = "A shaper of a built-in relay, in order (repeatable), e.g. byte-threshold=2KiB")
  List<String> shapes = new ArrayList<>();

  @Parameter(
      names = "--proxy",
      description =
          "A real proxy the lab starts (with --config): nginx, haproxy, caddy, lighttpd, apache2, "
              + "varnish, h2o, squid or trafficserver")
  String proxy;

  @Parameter(
      names = "--config",
      description = "The proxy's config template, e.g. scenarios/proxies/haproxy-stock.cfg")
  String config;

  @Parameter(
      names = "--emitter-listen",
      description =
          "Where the emitter listens (default 127.0.0.1:8090 with --target, else an ephemeral port)")
  String emitterListen;

  /** A server the user runs, which the lab reaches only through the emitter address it was told. */
  boolean external() {
    return target != null;
  }

  /**
   * Where the emitter listens: as given, else 127.0.0.1:8090 for a server the user runs (it must
   * know), else anywhere free.
   */
  HostPort emitterListen() {
    return HostPort.parse(
        "--emitter-listen",
        emitterListen != null ? emitterListen : target != null ? "127.0.0.1:8090" : "127.0.0.1:0",
        true);
  }

  /** Exactly one of --target, --shape, --proxy/--config. */
  Target target(NetworkPath where, RequestFlags request, PrintStream err) {
    int given =
        (target != null ? 1 : 0)
            + (shapes.isEmpty() ? 0 : 1)
            + (proxy != null || config != null ? 1 : 0);
    if (given != 1) {
      throw new IllegalArgumentException(
          "give exactly one target: --target host:port (a server you run), --shape SPEC "
              + "(a built-in relay), or --proxy "
              + String.join("|", ProxyKind.names().split(", "))
              + " --config TEMPLATE");
    }
    if (target != null) {
      if (where.isVeth()) {
        throw new IllegalArgumentException(
            "--path veth: the lab can put only what it starts across the link (--shape, or --proxy "
                + "with --config); a server given with --target is measured over this host's route to it");
      }
      RequestFlags.Server server = request.server("--target", target, err);
      return new Target.External(
          server.address().toString(),
          server.address(),
          "given on the command line with --target",
          server.tls());
    }
    if (!shapes.isEmpty()) {
      return new Target.Relay("relay", Converters.shapes(shapes), false, where);
    }
    ProxyKind kind = proxy == null ? null : ProxyKind.of(proxy);
    if (kind == null)
      throw new IllegalArgumentException(
          "--proxy: "
              + (proxy == null ? "required with --config" : "'" + proxy + "' is not one")
              + " of "
              + ProxyKind.names());
    if (config == null)
      throw new IllegalArgumentException(
          "--config: required with --proxy (a config template, e.g. scenarios/proxies/haproxy-stock.cfg)");
    Path file = Path.of(config).toAbsolutePath();
    try {
      return new Target.Process(
          kind.binaryName,
          kind,
          ConfigTemplate.resolve(file.getParent(), file.getFileName().toString(), where),
          where);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--config: " + e.getMessage());
    }
  }
}
