package flushlab.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import flushlab.core.LabVertx;
import flushlab.report.Environment;
import flushlab.report.ResultsWriter;
import flushlab.report.SummaryMarkdown;
import flushlab.scenario.Scenario;
import flushlab.scenario.ScenarioError;
import flushlab.scenario.ScenarioLoader;
import flushlab.scenario.ScenarioRunner;
import io.vertx.core.Vertx;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

@Parameters(commandNames = "run", commandDescription = "Run a scenario and write results/<timestamp>-<name>/")
final class RunCommand implements Command {
  static final int EXIT_UNCERTIFIED = 3;
  static final int EXIT_INTERRUPTED = 130;

  @Parameter(description = "SCENARIO.yaml")
  List<String> files = new ArrayList<>();

  @Parameter(names = "--results", description = "Folder that receives the run's folder")
  String resultsDir = "results";

  @Override
  public int run(PrintStream out, PrintStream err) throws Exception {
    if (files.size() != 1) throw new IllegalArgumentException("give exactly one scenario file, e.g. scenarios/quickstart.yaml");
    Path file = Path.of(files.get(0));
    Scenario scenario;
    try {
      scenario = ScenarioLoader.load(file);
    } catch (ScenarioError e) {
      for (String m : e.messages()) err.println(m);
      return EXIT_USAGE;
    }
    String command = "./run-scenario.sh " + file;
    out.printf("flushlab run %s: %d cell(s) x %d target(s) x %d run(s); expected duration about %.0fs%n", scenario.name(),
        scenario.cells().size(), scenario.targets().size(), scenario.runs(), ScenarioRunner.expectedSeconds(scenario));
    Vertx vertx = LabVertx.create(3);
    ScenarioRunner runner = new ScenarioRunner(scenario, vertx, out);
    CountDownLatch written = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      runner.interrupt();
      try {
        written.await(60, TimeUnit.SECONDS); // let the run write what it measured, marked interrupted
      } catch (InterruptedException ignored) {
        Thread.currentThread().interrupt();
      }
    });
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      ScenarioRunner.Outcome o;
      try (Progress p = new Progress(out, runner::progress)) {
        o = runner.run(out::println);
      } catch (ScenarioRunner.TargetStartFailure e) {
        err.println("flushlab run: " + e.getMessage());
        return EXIT_FAILED;
      }
      Map<String, Object> env = Environment.capture(vertx.isNativeTransportEnabled());
      Path folder = ResultsWriter.write(Path.of(resultsDir), scenario, o, command, env);
      out.println();
      out.print(SummaryMarkdown.render(scenario, o, command, env).split("\n## Reproduce")[0]);
      out.println("results: " + folder);
      if (o.interrupted()) return EXIT_INTERRUPTED;
      if (!o.certified()) {
        err.println("flushlab run: this host is not certified (the direct path is not clean); no finding is published");
        return EXIT_UNCERTIFIED;
      }
      return EXIT_OK;
    } finally {
      written.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException ignored) {
        // the JVM is already shutting down (Ctrl-C): the hook is what is waiting for us
      }
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }
}
