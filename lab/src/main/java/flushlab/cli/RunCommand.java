package flushlab.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import flushlab.client.StreamError;
import flushlab.cluster.Agent;
import flushlab.cluster.ClusterLab;
import flushlab.cluster.ClusterSecret;
import flushlab.core.IoErrors;
import flushlab.core.LabVertx;
import flushlab.report.Environment;
import flushlab.report.ProbeReport;
import flushlab.report.ResultsWriter;
import flushlab.report.RunReport;
import flushlab.report.SummaryMarkdown;
import flushlab.run.Outcome;
import flushlab.run.ProbeScenarioRunner;
import flushlab.run.ScenarioRunner;
import flushlab.run.TargetCellResult;
import flushlab.scenario.ClusterPlacement;
import flushlab.scenario.Expectations;
import flushlab.scenario.ProbeScenario;
import flushlab.scenario.Scenario;
import flushlab.scenario.ScenarioError;
import flushlab.scenario.ScenarioFile;
import flushlab.scenario.ScenarioLoader;
import flushlab.targets.TargetStartFailure;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

@Parameters(
    commandNames = "run",
    commandDescription = "Run a scenario and write results/<timestamp>-<name>/")
final class RunCommand implements Command {
  @Parameter(description = "SCENARIO.yaml")
  List<String> files = new ArrayList<>();

  @Parameter(names = "--results", description = "Folder that receives the run's folder")
  String resultsDir = "results";

  private String commandLine = "flushlab run";

  @Override
  public void invokedAs(String line) {
    this.commandLine = line;
  }

  @Override
  public int run(PrintStream out, PrintStream err) throws Exception {
    if (files.size() != 1)
      throw new IllegalArgumentException(
          "give exactly one scenario file, e.g. scenarios/quickstart.yaml");
    ScenarioFile file;
    try {
      file = ScenarioLoader.loadAny(Path.of(files.get(0)));
    } catch (ScenarioError e) {
      for (String m : e.messages()) err.println(m);
      return EXIT_USAGE;
    }
    Path root = Path.of(resultsDir);
    if (!resultsWritable(root, err)) return EXIT_USAGE;
    if (file instanceof ProbeScenario probe) return runProbe(probe, root, out, err);
    Scenario scenario = (Scenario) file;
    ClusterPlacement placed = scenario.cluster();
    if (placed == null) {
      Exposure.warnIfNotLoopback(err, "emitter.listen", scenario.emitterListen(), "the emitter");
    } else {
      Exposure.warnIfNotLoopback(
          err,
          "cluster.at",
          placed.at(),
          "the coordinator's handshake, Hazelcast and event-bus ports");
    }
    out.printf(
        "flushlab run %s: %d cell(s) x %d target(s) x %d run(s); expected duration about %.0fs%s%n",
        scenario.name(),
        scenario.cells().size(),
        scenario.targets().size(),
        scenario.runs(),
        scenario.expectedSeconds(),
        placed == null
            ? ""
            : "; on lab '"
                + placed.name()
                + "': emitter on "
                + placed.emitterOn()
                + ", clients on "
                + String.join(", ", placed.clientOn()));
    Vertx vertx = LabVertx.create(3);
    // on a lab's agents the same runner measures through them: one pipeline, one results folder
    ScenarioRunner runner = new ScenarioRunner(scenario, vertx);
    if (placed != null) {
      byte[] secret = ClusterSecret.read(placed.secretFile(), "cluster.secret_file");
      runner.onRemoteLab(ClusterLab.opener(secret));
      Arrays.fill(secret, (byte) 0);
    }
    int code = EXIT_FAILED;
    try (Interruption signal = new Interruption(runner::interrupt)) {
      try {
        code = measureAndWrite(scenario, runner, vertx, root, out, err);
      } finally {
        vertx.close().await(10, TimeUnit.SECONDS);
        signal.done(code);
      }
      return code;
    }
  }

  private int measureAndWrite(
      Scenario scenario,
      ScenarioRunner runner,
      Vertx vertx,
      Path root,
      PrintStream out,
      PrintStream err)
      throws Exception {
    Outcome o;
    try (Progress p = new Progress(out, runner::progress)) {
      o = runner.run(out::println);
    } catch (TargetStartFailure | Agent.JoinFailure e) {
      err.println("flushlab run: " + e.getMessage());
      return EXIT_FAILED;
    } catch (IllegalStateException | IllegalArgumentException e) {
      // on a lab's agents: an agent not in the lab, a cell too large for a share, a clock not
      // answered
      if (scenario.cluster() == null) throw e;
      err.println("flushlab run: " + e.getMessage());
      return EXIT_FAILED;
    }
    RunReport report =
        RunReport.of(
            scenario, o, commandLine, Environment.capture(vertx.isNativeTransportEnabled()));
    ResultsWriter.Written written = ResultsWriter.write(root, report);
    out.println();
    out.print(SummaryMarkdown.findings(report));
    out.println("results: " + written.folder());
    int code = writtenWhereAsked(written, err) ? EXIT_OK : EXIT_FAILED;
    for (TargetCellResult r : o.results()) {
      if (neverConnected(r)) {
        err.println(
            "flushlab run: target "
                + r.target()
                + " could not be reached in cell "
                + r.cell().label()
                + ": "
                + r.runs().get(0).result().errors().get(0).get("example"));
        code = EXIT_FAILED;
      }
    }
    if (o.partial()) {
      err.println(
          "flushlab run: partial: an agent's share did not come back (the runs name it); what arrived is kept");
      code = EXIT_FAILED;
    }
    if (o.stoppedEarly() != null) {
      err.println(
          "flushlab run: stopped early: "
              + o.stoppedEarly()
              + "; the runs after it were not measured");
      code = EXIT_FAILED;
    }
    if (o.interrupted()) return EXIT_INTERRUPTED;
    if (!o.certified()) {
      err.println(
          "flushlab run: this host is "
              + o.certification().verdict()
              + "; no finding is published");
      return EXIT_UNCERTIFIED;
    }
    // the scenario's expect: block, as map --expect: a CI pipeline's check that a proxy's buffering
    // did not change
    for (Expectations.Checked c : scenario.expect().check(o.triggers())) {
      if (c.met()) {
        out.println("expect: " + c.target() + ": met: " + c.expected());
      } else {
        err.println(
            "flushlab run: expect "
                + c.target()
                + ": "
                + c.expected()
                + ": not met: "
                + c.difference());
        code = EXIT_FAILED;
      }
    }
    return code;
  }

  /**
   * Checked before anything is measured: a run must not be lost to an unwritable folder at its end.
   */
  private boolean resultsWritable(Path root, PrintStream err) {
    try {
      ResultsWriter.checkWritable(root);
      return true;
    } catch (IOException e) {
      err.println(
          "flushlab run: --results "
              + resultsDir
              + ": cannot write results there ("
              + IoErrors.describe(e)
              + "); nothing was run");
      return false;
    }
  }

  /** A probe scenario: its servers in order, then a results folder like a run's. */
  private int runProbe(ProbeScenario scenario, Path root, PrintStream out, PrintStream err)
      throws Exception {
    out.printf(
        "flushlab run %s: probe %s, %d server(s)%n",
        scenario.name(), scenario.probe().text(), scenario.servers().size());
    Vertx vertx = LabVertx.create(1);
    ProbeScenarioRunner runner = new ProbeScenarioRunner(scenario, vertx);
    int code = EXIT_FAILED;
    try (Interruption signal = new Interruption(runner::interrupt)) {
      try {
        ProbeReport report =
            ProbeReport.of(
                scenario,
                runner.run(out::println),
                commandLine,
                Environment.capture(vertx.isNativeTransportEnabled()));
        ResultsWriter.Written written =
            ResultsWriter.write(root, report, Instant.parse(report.started()).toEpochMilli());
        out.println("results: " + written.folder());
        code = writtenWhereAsked(written, err) ? EXIT_OK : EXIT_FAILED;
        for (var s : report.servers()) {
          if (s.error() != null) {
            err.println("flushlab run: server " + s.name() + " was not measured: " + s.error());
            code = EXIT_FAILED;
          }
        }
        if (report.interrupted()) code = EXIT_INTERRUPTED;
      } finally {
        vertx.close().await(10, TimeUnit.SECONDS);
        signal.done(code);
      }
      return code;
    }
  }

  /**
   * Whether the results went where they were asked to; if not, says where they went instead and why
   * (a run's figures are never lost, but a script must see that the folder it named is empty).
   */
  private static boolean writtenWhereAsked(ResultsWriter.Written written, PrintStream err) {
    if (written.fallbackReason() == null) return true;
    err.println(
        "flushlab run: "
            + written.fallbackReason()
            + "; the results were written to "
            + written.folder()
            + " instead");
    return false;
  }

  /**
   * Every stream of every run failed to connect: the target was not there, which is not a
   * measurement.
   */
  private static boolean neverConnected(TargetCellResult r) {
    if (r.runs().isEmpty()) return false;
    for (var run : r.runs()) {
      var b = run.result();
      if (b.streams() == 0 || b.streamsOk() > 0) return false;
      for (var s : b.streamResults()) if (s.error() != StreamError.CONNECT_FAILED) return false;
    }
    return true;
  }
}
