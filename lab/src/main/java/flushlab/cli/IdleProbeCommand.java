package flushlab.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import com.beust.jcommander.ParametersDelegate;
import flushlab.core.HostPort;
import flushlab.core.IoErrors;
import flushlab.core.Json;
import flushlab.core.LabVertx;
import flushlab.report.page.ResultsFolder;
import flushlab.run.IdleProbe;
import flushlab.targets.Target;
import flushlab.targets.TargetStartFailure;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

@Parameters(
    commandNames = "idle",
    commandDescription =
        "Find a target's idle timeout (how long a stream may think before it is "
            + "cut) with think times, and whether SSE comment keep-alives reset it")
final class IdleProbeCommand implements Command {
  @ParametersDelegate TargetFlags targets = new TargetFlags();

  @ParametersDelegate PathFlags path = new PathFlags();

  @Parameter(
      names = "--budget",
      description = "The most the probe may take: every think fits it or is not tried",
      converter = Converters.Duration.class)
  Converters.DurationArg budget = Converters.DurationArg.of("120s");

  @ParametersDelegate RequestFlags request = new RequestFlags();

  @Parameter(
      names = "--json",
      description =
          "Also write the answer as JSON to this file (idle_timeout_ms, keep_alives_reset, trials)")
  String json;

  @Override
  public int run(PrintStream out, PrintStream err) throws Exception {
    if (json != null) {
      try {
        ResultsFolder.checkWritable(Path.of(json));
      } catch (IOException e) {
        throw new IllegalArgumentException(
            "--json "
                + json
                + ": cannot write there ("
                + IoErrors.describe(e)
                + "); nothing was measured");
      }
    }
    Target t = targets.target(path.path(), request, err);
    Converters.durationRange("--budget", budget, 1_000_000_000L, 3_600_000_000_000L);
    HostPort listen = targets.emitterListen();
    Exposure.warnIfNotLoopback(err, "--emitter-listen", listen, "the emitter");
    out.printf("flushlab probe idle: %s; budget %s%n", t.describe(), budget);
    Vertx vertx = LabVertx.create(2);
    try {
      IdleProbe.Answer a;
      try {
        var headers = request.resolvedHeaders(System.getenv()).toSend();
        var profile = request.profile();
        a =
            new IdleProbe(
                    vertx,
                    t,
                    listen,
                    budget.nanos() / 1e9,
                    plan -> plan.withHeaders(headers).withProfile(profile),
                    out::println)
                .run();
      } catch (TargetStartFailure e) {
        err.println("flushlab probe idle: " + e.getMessage());
        return EXIT_FAILED;
      }
      out.println();
      out.println(a.verdict());
      out.printf("answered in %.1f s from %d trial(s)%n", a.seconds(), a.trials().size());
      if (json != null) {
        ResultsFolder.writeWhole(Path.of(json), Json.pretty(a));
        out.println("json: " + json);
      }
      return a.idleTimeoutMs() != null || a.verdict().startsWith("none found")
          ? EXIT_OK
          : EXIT_FAILED;
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }
}
