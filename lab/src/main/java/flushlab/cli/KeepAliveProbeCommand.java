package flushlab.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import com.beust.jcommander.ParametersDelegate;
import flushlab.core.HostPort;
import flushlab.core.IoErrors;
import flushlab.netpath.NetworkPath;
import flushlab.netpath.VethLink;
import flushlab.scenario.ProbeKeys;
import flushlab.tcpprobe.KeepAliveProbe;
import flushlab.tcpprobe.ProbeSite;
import flushlab.tcpprobe.UploadServer;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

@Parameters(
    commandNames = "keepalive",
    commandDescription =
        "Small request/response pairs on one keep-alive connection, with "
            + "TCP_NODELAY on or off on each side: Nagle meeting delayed ACKs shows as stalls")
final class KeepAliveProbeCommand implements Command {
  @Parameter(
      names = "--target",
      description =
          "host:port of a server that answers POST /upload with 200 and a Content-Length, "
              + "keeping the connection; without it the lab starts its own, once per --server-nodelay setting")
  String target;

  @ParametersDelegate PathFlags path = new PathFlags();

  @Parameter(names = "--requests", description = "Request/response pairs on the one connection")
  int requests = 128;

  @Parameter(
      names = "--body",
      description = "Bytes of each request body (sent in a write of its own, after the head)",
      converter = Converters.Size.class)
  Converters.SizeArg body = Converters.SizeArg.of("64B");

  @Parameter(
      names = "--client-nodelay",
      description = "TCP_NODELAY on the probe's socket: on, off or both")
  String clientNoDelay = "both";

  @Parameter(
      names = "--server-nodelay",
      description = "TCP_NODELAY on the lab's own server: on, off or both (not with --target)")
  String serverNoDelay = "both";

  @Parameter(
      names = "--stall-over",
      description = "A request slower than the connection's fastest by more than this is a stall",
      converter = Converters.Duration.class)
  Converters.DurationArg stallOver = Converters.DurationArg.of("20ms");

  @Override
  public int run(PrintStream out, PrintStream err) throws Exception {
    NetworkPath where = path.path();
    // ranges as the probe scenario keys these mirror (keepalive.requests, body, stall_over)
    SettingFlags.intValue("--requests", ProbeKeys.KA_REQUESTS, requests);
    SettingFlags.check("--body", ProbeKeys.KA_BODY, body.text());
    SettingFlags.check("--stall-over", ProbeKeys.KA_STALL_OVER, stallOver.text());
    int bodyBytes = (int) body.bytes();
    double stallMs = stallOver.nanos() / 1e6;
    List<Boolean> clients = settings("--client-nodelay", clientNoDelay);
    List<Boolean> servers;
    HostPort at = null;
    if (target != null) {
      if (!serverNoDelay.equals("both"))
        throw new IllegalArgumentException(
            "--server-nodelay: only for the lab's own server; drop --target");
      if (where.isVeth())
        throw new IllegalArgumentException(
            "--path veth: only the lab's own server runs across the link; drop --target");
      at = HostPort.parse("--target", target, false);
      servers = Collections.singletonList(null);
    } else {
      servers = settings("--server-nodelay", serverNoDelay);
    }
    try (ProbeSite site = ProbeSite.open(where)) {
      out.println(
          "flushlab probe keepalive: "
              + requests
              + " requests of "
              + bodyBytes
              + " B on one connection each, over "
              + where.describe()
              + (site.link() != null ? " (" + site.link() + ")" : ""));
      List<KeepAliveProbe.Result> results = new ArrayList<>();
      List<String> serverOf = new ArrayList<>();
      KeepAliveProbe.Result onOn = null;
      KeepAliveProbe.Result offOff = null;
      for (Boolean serverSide : servers) {
        HostPort to = at;
        if (serverSide != null) {
          ProbeSite.Server s =
              site.start(new UploadServer.Options(new HostPort("127.0.0.1", 0), 0, 0, serverSide));
          out.println("  " + s.description());
          to = s.address();
        }
        for (boolean c : clients) {
          KeepAliveProbe.Result r;
          try {
            KeepAliveProbe.warmUp(to, bodyBytes);
            r = KeepAliveProbe.run(to, requests, bodyBytes, c);
          } catch (IOException e) {
            err.println("flushlab probe keepalive: " + to + ": " + IoErrors.describe(e));
            return EXIT_FAILED;
          }
          results.add(r);
          serverOf.add(serverSide == null ? "(the target's)" : serverSide ? "on" : "off");
          if (c && Boolean.TRUE.equals(serverSide)) onOn = r;
          if (!c && Boolean.FALSE.equals(serverSide)) offOff = r;
        }
      }
      double fastest = results.stream().mapToDouble(KeepAliveProbe.Result::minMs).min().orElse(0);
      StringBuilder table = new StringBuilder(KeepAliveProbe.HEADER);
      for (int i = 0; i < results.size(); i++) {
        table
            .append('\n')
            .append(
                KeepAliveProbe.row(
                    results.get(i), serverOf.get(i), results.get(i).stalls(fastest, stallMs)));
      }
      out.println(table);
      if (onOn != null && offOff != null) {
        out.printf(
            Locale.ROOT,
            "%nNagle on both ends: mean %.3f ms per request with %d stall(s), against %.3f ms with %d "
                + "with TCP_NODELAY on both ends (%.1fx)%n",
            offOff.meanMs(),
            offOff.stalls(fastest, stallMs),
            onOn.meanMs(),
            onOn.stalls(fastest, stallMs),
            offOff.meanMs() / onOn.meanMs());
      }
      out.printf(
          Locale.ROOT,
          "a stall: a request slower than the fastest of this probe (%.3f ms) by more than %s%n",
          fastest,
          stallOver.text());
      return EXIT_OK;
    } catch (VethLink.Unavailable e) {
      err.println("flushlab probe keepalive: " + e.getMessage());
      return EXIT_FAILED;
    }
  }

  private static List<Boolean> settings(String flag, String v) {
    switch (v) {
      case "on":
        return List.of(true);
      case "off":
        return List.of(false);
      case "both":
        return List.of(true, false);
      default:
        throw new IllegalArgumentException(flag + ": '" + v + "' is not one of on, off, both");
    }
  }
}
