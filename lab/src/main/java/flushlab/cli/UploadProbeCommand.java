package flushlab.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import com.beust.jcommander.ParametersDelegate;
import flushlab.core.HostPort;
import flushlab.core.LabVertx;
import flushlab.core.Units;
import flushlab.netpath.NetworkPath;
import flushlab.netpath.VethLink;
import flushlab.scenario.ProbeKeys;
import flushlab.tcpprobe.ProbeSite;
import flushlab.tcpprobe.UploadAttempt;
import flushlab.tcpprobe.UploadProbe;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

@Parameters(
    commandNames = "upload",
    commandDescription =
        "Time a request burst (head and body in one write) to the response "
            + "head, over a sweep of body sizes, and bisect the size where the time jumps")
final class UploadProbeCommand implements Command {
  @Parameter(
      names = "--target",
      description =
          "host:port of a server that answers POST /upload (or any path) once it has read "
              + "the body; without it the lab starts its own upload server (see --rcvbuf, --read-delay)")
  String target;

  @ParametersDelegate PathFlags path = new PathFlags();

  @ParametersDelegate UploadFlags server = new UploadFlags();

  @Parameter(
      names = "--sizes",
      splitter = Converters.WholeValue.class,
      description =
          "Body sizes to sweep, comma-separated "
              + "(default 16KiB,32KiB,64KiB,128KiB,256KiB,512KiB,1MiB)")
  String sizes = "16KiB,32KiB,64KiB,128KiB,256KiB,512KiB,1MiB";

  @Parameter(names = "--attempts", description = "Fresh connections per size; the median counts")
  int attempts = 3;

  @Parameter(
      names = "--stall-over",
      description = "A size stalls when its median is over the smallest size's by more than this",
      converter = Converters.Duration.class)
  Converters.DurationArg stallOver = Converters.DurationArg.of("20ms");

  @Parameter(
      names = "--tolerance",
      description = "Bisect until the sizes either side of the jump are this close (a fraction)")
  double tolerance = 0.02;

  @Parameter(
      names = "--timeout",
      description = "Most one attempt may wait for the response head",
      converter = Converters.Duration.class)
  Converters.DurationArg timeout = Converters.DurationArg.of("10s");

  static final long MAX_SIZE = 64L << 20;

  @Override
  public int run(PrintStream out, PrintStream err) throws Exception {
    NetworkPath where = path.path();
    List<Integer> sweep = parseSizes();
    // ranges as the probe scenario keys these mirror (upload.attempts, stall_over, tolerance,
    // timeout)
    SettingFlags.intValue("--attempts", ProbeKeys.ATTEMPTS, attempts);
    SettingFlags.check("--stall-over", ProbeKeys.STALL_OVER, stallOver.text());
    SettingFlags.check("--tolerance", ProbeKeys.BISECT_TOLERANCE, Double.toString(tolerance));
    SettingFlags.check("--timeout", ProbeKeys.ATTEMPT_TIMEOUT, timeout.text());
    double stallMs = stallOver.nanos() / 1e6;
    long timeoutNanos = timeout.nanos();
    HostPort at;
    if (target != null) {
      server.refuseWithout("no --target (the lab's own upload server)");
      if (where.isVeth())
        throw new IllegalArgumentException(
            "--path veth: only the lab's own upload server runs across the link; drop --target");
      at = HostPort.parse("--target", target, false);
    } else {
      at = null;
    }
    Vertx vertx = LabVertx.create(1);
    NetClient client =
        vertx.createNetClient(new NetClientOptions().setTcpNoDelay(true).setConnectTimeout(5000));
    try (ProbeSite site = ProbeSite.open(where)) {
      HostPort to = at;
      if (to == null) {
        ProbeSite.Server s = site.start(server.options(new HostPort("127.0.0.1", 0), true));
        to = s.address();
        out.println("flushlab probe upload: " + s.description());
      }
      out.println(
          "flushlab probe upload: "
              + to
              + " over "
              + where.describe()
              + (site.link() != null ? " (" + site.link() + ")" : "")
              + "; "
              + attempts
              + " fresh connection(s) per size; native transport "
              + (vertx.isNativeTransportEnabled() ? "epoll (TCP_INFO read)" : "off (no TCP_INFO)"));
      out.println(UploadProbe.HEADER);
      HostPort dest = to;
      UploadProbe probe =
          new UploadProbe(
              attempts,
              stallMs,
              tolerance,
              bytes ->
                  UploadAttempt.run(vertx, client, dest, bytes, timeoutNanos)
                      .await(timeoutNanos / 1_000_000 + 10_000, TimeUnit.MILLISECONDS),
              out::println);
      UploadProbe.Answer a = probe.run(sweep);
      out.println();
      out.println(a.verdict());
      if (a.sweep().stream().anyMatch(UploadProbe.SizeResult::failed)) {
        err.println("flushlab probe upload: " + a.verdict());
        return EXIT_FAILED;
      }
      return EXIT_OK;
    } catch (VethLink.Unavailable e) {
      err.println("flushlab probe upload: " + e.getMessage());
      return EXIT_FAILED;
    } finally {
      vertx.close().await(5, TimeUnit.SECONDS);
    }
  }

  private List<Integer> parseSizes() {
    List<Integer> out = new ArrayList<>();
    for (String s : sizes.split(",")) {
      long b;
      try {
        b = Units.parseBytes(s.trim());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "--sizes: '" + s.trim() + "' is not a size (e.g. 16KiB, 1MiB, 390000B)");
      }
      if (b < 1 || b > MAX_SIZE)
        throw new IllegalArgumentException(
            "--sizes: " + s.trim() + " is out of range (allowed: 1 B..64 MiB)");
      out.add((int) b);
    }
    if (out.size() < 2)
      throw new IllegalArgumentException(
          "--sizes: give at least two sizes (the smallest is the baseline)");
    return out;
  }
}
