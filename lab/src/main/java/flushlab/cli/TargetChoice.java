package flushlab.cli;

import flushlab.netpath.NetworkPath;
import flushlab.proxy.ProxyKind;
import flushlab.scenario.ConfigTemplate;
import flushlab.targets.Target;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/** The target a command measures, from its flags: a server the user runs, a built-in relay, or a real proxy the lab starts. */
final class TargetChoice {
  private TargetChoice() {}

  /** Exactly one of --target, --shape, --proxy/--config, as `map` and `probe idle` take them. */
  static Target of(String target, List<String> shapes, String proxy, String config, NetworkPath where, RequestFlags request,
      PrintStream err) {
    int given = (target != null ? 1 : 0) + (shapes.isEmpty() ? 0 : 1) + (proxy != null || config != null ? 1 : 0);
    if (given != 1) {
      throw new IllegalArgumentException("give exactly one target: --target host:port (a server you run), --shape SPEC "
          + "(a built-in relay), or --proxy " + String.join("|", ProxyKind.names().split(", ")) + " --config TEMPLATE");
    }
    if (target != null) {
      if (where.isVeth()) {
        throw new IllegalArgumentException("--path veth: the lab can put only what it starts across the link (--shape, or --proxy "
            + "with --config); a server given with --target is measured over this host's route to it");
      }
      RequestFlags.Server server = request.server("--target", target, err);
      return new Target.External(server.address().toString(), server.address(), "given on the command line with --target", server.tls());
    }
    if (!shapes.isEmpty()) {
      return new Target.Relay("relay", Converters.shapes(shapes), false, where);
    }
    ProxyKind kind = proxy == null ? null : ProxyKind.of(proxy);
    if (kind == null) throw new IllegalArgumentException("--proxy: " + (proxy == null ? "required with --config" : "'" + proxy + "' is not one") + " of " + ProxyKind.names());
    if (config == null) throw new IllegalArgumentException("--config: required with --proxy (a config template, e.g. scenarios/proxies/haproxy-stock.cfg)");
    Path file = Path.of(config).toAbsolutePath();
    try {
      return new Target.Process(kind.binaryName, kind, ConfigTemplate.resolve(file.getParent(), file.getFileName().toString()), where);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--config: " + e.getMessage());
    }
  }
}
