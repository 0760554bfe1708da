package flushlab.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import com.beust.jcommander.ParametersDelegate;
import flushlab.cluster.ClusterLab;
import flushlab.core.HostPort;
import flushlab.core.IoErrors;
import flushlab.core.Json;
import flushlab.core.LabVertx;
import flushlab.map.FlushTrigger;
import flushlab.map.ModelExpectation;
import flushlab.report.Environment;
import flushlab.report.ReproBundle;
import flushlab.report.ResultsWriter;
import flushlab.report.RunReport;
import flushlab.report.page.ResultsFolder;
import flushlab.run.MapAnswer;
import flushlab.run.Outcome;
import flushlab.run.ScenarioRunner;
import flushlab.run.ShapesAnswer;
import flushlab.run.TargetCellResult;
import flushlab.scenario.ClusterPlacement;
import flushlab.scenario.MapScenario;
import flushlab.scenario.Scenario;
import flushlab.scenario.SettingKeys;
import flushlab.stream.Endpoint;
import flushlab.stream.ResponseShape;
import flushlab.targets.Target;
import flushlab.targets.TargetStartFailure;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

@Parameters(
    commandNames = "map",
    commandDescription = "Find what makes one target release held bytes, and at what size or time")
final class MapCommand implements Command {
  @ParametersDelegate TargetFlags targets = new TargetFlags();

  @ParametersDelegate ClusterFlags cluster = new ClusterFlags();

  @ParametersDelegate PathFlags path = new PathFlags();

  @Parameter(
      names = "--endpoint",
      description = "sse (frames of any size the map chooses) or chat (OpenAI chunks)")
  String endpoint = "sse";

  @Parameter(
      names = "--budget",
      description = "The most the map may take, certification included",
      converter = Converters.Duration.class)
  Converters.DurationArg budget = Converters.DurationArg.of("60s");

  @ParametersDelegate RequestFlags request = new RequestFlags();

  @Parameter(
      names = "--response",
      description =
          "The shape of every measured response, where a target decides by it: "
              + "content_type=TYPE,transfer=chunked|close|chunked-always|length (default: an event stream, chunked)")
  String response;

  @Parameter(
      names = "--shapes",
      description =
          "Map the target once per response shape, where it may decide by the response's headers: "
              + "'matrix' (an event stream and NDJSON, chunked; NDJSON and a JSON body with a Content-Length) or shapes as --response takes them, "
              + "separated by ';' (at most 8); --budget bounds each shape's map")
  String shapes;

  @ParametersDelegate MapAnswerFlags answerFlags = new MapAnswerFlags();

  @Parameter(names = "--json", description = "Also write the answer as JSON to this file")
  String json;

  @Parameter(names = "--results", description = "Folder that receives the run's folder")
  String resultsDir = "results";

  private String commandLine = "flushlab map";

  @Override
  public void invokedAs(String line) {
    this.commandLine = line;
  }

  @Override
  public int run(PrintStream out, PrintStream err) throws Exception {
    long started = System.nanoTime();
    Target t = targets.target(path.path(), request, err);
    Converters.durationRange("--budget", budget, 5_000_000_000L, 3_600_000_000_000L);
    Endpoint streamEndpoint =
        Endpoint.named(SettingFlags.check("--endpoint", SettingKeys.ENDPOINT, endpoint));
    ModelExpectation expected = answerFlags.expectation();
    answerFlags.replay(); // --verify with --no-verify is refused before anything runs
    ResponseShape shape = responseShape(streamEndpoint);
    List<ResponseShape> shapeList = shapeList(streamEndpoint, expected);
    HostPort listen = targets.emitterListen();
    Exposure.warnIfNotLoopback(err, "--emitter-listen", listen, "the emitter");
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
    answerFlags.checkRepro();
    Path root = Path.of(resultsDir);
    try {
      ResultsWriter.checkWritable(root);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "--results "
              + resultsDir
              + ": cannot write results there ("
              + IoErrors.describe(e)
              + ")");
    }
    ClusterPlacement placed = cluster.placement(t, err);
    if (shapeList != null) {
      if (placed != null)
        throw new IllegalArgumentException(
            "--shapes maps on this host; map one shape at a time with --response on a cluster");
      return mapShapes(t, streamEndpoint, listen, shapeList, root, out, err);
    }
    return mapOnce(
            t, streamEndpoint, listen, shape, placed, expected, root, started, true, out, err)
        .code();
  }

  /** One map's exit code and answer (null when the map could not start its target). */
  private record Mapped(int code, MapAnswer answer) {}

  /**
   * The map of one response shape: start, certify, measure, report (and, mapping a single shape,
   * write --json and --repro and check --expect).
   */
  private Mapped mapOnce(
      Target t,
      Endpoint streamEndpoint,
      HostPort listen,
      ResponseShape shape,
      ClusterPlacement placed,
      ModelExpectation expected,
      Path root,
      long started,
      boolean single,
      PrintStream out,
      PrintStream err)
      throws Exception {
    Scenario scenario =
        MapScenario.of(
            t,
            streamEndpoint,
            listen,
            commandLine,
            request.model(),
            request.resolvedHeaders(System.getenv()),
            request.profile(),
            request.http(t.speaksTls()),
            shape);
    byte[] secret = placed == null ? null : cluster.secret();
    if (placed != null) {
      scenario = scenario.withCluster(placed);
      if (t.speaksTls())
        throw new IllegalArgumentException(
            "--cluster maps targets that speak plain TCP so far; this template terminates TLS");
    }
    out.printf(
        "flushlab map: %s; %s frames%s; budget %s%s%n",
        t.describe(),
        endpoint,
        shape.equals(ResponseShape.EVENT_STREAM) ? "" : " as " + shape.text(),
        budget,
        placed == null
            ? ""
            : "; on lab '"
                + placed.name()
                + "': emitter on "
                + placed.emitterOn()
                + ", client on "
                + String.join(", ", placed.clientOn())
                + (placed.targetOn().isEmpty()
                    ? ""
                    : ", target on " + placed.targetOn().values().iterator().next()));
    Vertx vertx = LabVertx.create(3);
    ScenarioRunner runner =
        new ScenarioRunner(scenario, vertx).verifyByReplay(answerFlags.replay());
    if (placed != null) {
      runner.onRemoteLab(ClusterLab.opener(secret));
      Arrays.fill(secret, (byte) 0);
    }
    int code = EXIT_FAILED;
    MapAnswer answer = null;
    try (Interruption signal = new Interruption(runner::interrupt)) {
      try {
        Outcome o;
        try {
          o = runner.map(out::println, budget.nanos() / 1e9 - (System.nanoTime() - started) / 1e9);
        } catch (TargetStartFailure e) {
          err.println("flushlab map: " + e.getMessage());
          return new Mapped(code, null);
        }
        answer = MapAnswer.of(scenario.targets().get(0).name(), o, seconds(started));
        code = report(scenario, o, answer, vertx, root, single, out, err);
        if (code == EXIT_OK && expected != null)
          code = MapAnswerFlags.checkExpected(expected, o, out, err);
      } finally {
        vertx.close().await(10, TimeUnit.SECONDS);
        signal.done(code);
      }
      return new Mapped(code, answer);
    }
  }

  /**
   * `--shapes`: one map a shape, each within --budget, then each shape's answer in one line and
   * whether the target decides by the shape. Stops at a shape that was interrupted or could not
   * start the target; the exit code is the first shape's that was not 0.
   */
  private int mapShapes(
      Target t,
      Endpoint streamEndpoint,
      HostPort listen,
      List<ResponseShape> list,
      Path root,
      PrintStream out,
      PrintStream err)
      throws Exception {
    List<ShapesAnswer.ShapeAnswer> answers = new ArrayList<>();
    int code = EXIT_OK;
    for (int i = 0; i < list.size(); i++) {
      ResponseShape shape = list.get(i);
      out.printf(
          "%nshape %d of %d: %s (--response %s)%n",
          i + 1, list.size(), shape.describe(), shape.text());
      Mapped m =
          mapOnce(
              t,
              streamEndpoint,
              listen,
              shape,
              null,
              null,
              root,
              System.nanoTime(),
              false,
              out,
              err);
      if (m.code() != EXIT_OK && code == EXIT_OK) code = m.code();
      if (m.answer() == null || m.code() == EXIT_INTERRUPTED) break;
      answers.add(new ShapesAnswer.ShapeAnswer(shape, m.answer()));
    }
    ShapesAnswer all = ShapesAnswer.of(t.name(), answers);
    out.println();
    out.println("per response shape:");
    for (ShapesAnswer.ShapeAnswer a : answers)
      out.println("  " + a.response().describe() + ": " + a.brief());
    if (answers.size() < list.size())
      out.println("  (" + (list.size() - answers.size()) + " shape(s) not mapped)");
    out.println(all.verdict());
    if (json != null) writeJson(all, out);
    return code;
  }

  /** --shapes, checked before anything starts: null when not given. */
  private List<ResponseShape> shapeList(Endpoint streamEndpoint, ModelExpectation expected) {
    if (shapes == null) return null;
    if (response != null)
      throw new IllegalArgumentException(
          "--shapes and --response: one or the other (--response maps one shape)");
    if (streamEndpoint != Endpoint.SSE)
      throw new IllegalArgumentException(
          "--shapes: shapes the sse endpoint's responses (--endpoint sse)");
    if (expected != null || answerFlags.repro != null) {
      throw new IllegalArgumentException(
          "--shapes gives an answer per shape; --expect and --repro take one: map that shape with --response");
    }
    try {
      return ResponseShape.parseList(shapes);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "--shapes "
              + shapes
              + ": "
              + e.getMessage()
              + " (give 'matrix', or shapes as --response takes "
              + "them separated by ';')");
    }
  }

  /** Writes {@code answer} to --json whole (a sibling file renamed into place). */
  private void writeJson(Object answer, PrintStream out) throws IOException {
    ResultsFolder.writeWhole(Path.of(json), Json.pretty(answer));
    out.println("json: " + json);
  }

  /** --response, checked before anything starts: the sse endpoint's frames in that shape. */
  private ResponseShape responseShape(Endpoint streamEndpoint) {
    if (response == null) return ResponseShape.EVENT_STREAM;
    if (streamEndpoint != Endpoint.SSE)
      throw new IllegalArgumentException(
          "--response: shapes the sse endpoint's responses (--endpoint sse)");
    try {
      return ResponseShape.parse(response);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--response " + response + ": " + e.getMessage());
    }
  }

  private static double seconds(long started) {
    return Math.round((System.nanoTime() - started) / 1e7) / 100.0;
  }

  private int report(
      Scenario scenario,
      Outcome o,
      MapAnswer a,
      Vertx vertx,
      Path root,
      boolean single,
      PrintStream out,
      PrintStream err)
      throws IOException {
    double seconds = a.seconds();
    RunReport report =
        RunReport.of(
            scenario, o, commandLine, Environment.capture(vertx.isNativeTransportEnabled()));
    ResultsWriter.Written written = ResultsWriter.write(root, report);
    FlushTrigger trigger = o.triggers().values().stream().findFirst().orElse(null);
    if (trigger != null) AnswerLines.print(trigger, seconds, o.results().size(), out);
    out.println("results: " + written.folder());
    if (single && json != null) writeJson(a, out);
    if (single
        && answerFlags.repro != null
        && trigger != null
        && o.certified()
        && !o.interrupted()) {
      String wrote = ReproBundle.write(Path.of(answerFlags.repro), scenario, a, o.processes());
      out.println("repro: " + answerFlags.repro + " (" + wrote + ")");
    }
    if (written.fallbackReason() != null) {
      err.println(
          "flushlab map: "
              + written.fallbackReason()
              + "; the results were written to "
              + written.folder()
              + " instead");
    }
    if (o.interrupted()) return EXIT_INTERRUPTED;
    if (!o.certified()) {
      err.println(
          "flushlab map: this host is " + o.certification().verdict() + "; no answer is published");
      return EXIT_UNCERTIFIED;
    }
    // no answer from missing data: a map that read no stream at all (the budget ran out before its
    // first cell, e.g. a slow warm-up on a busy host) has measured nothing, and says so
    if (o.results().stream().allMatch(r -> r.everyStream().streams() == 0)) {
      err.println(
          "flushlab map: "
              + scenario.targets().get(0).name()
              + ": no stream was measured within the budget ("
              + budget
              + ", "
              + seconds
              + " s spent); give the map a longer --budget");
      return EXIT_FAILED;
    }
    TargetCellResult last = o.results().isEmpty() ? null : o.results().get(o.results().size() - 1);
    if (last != null && last.included().streamsOk() == 0 && last.included().errorCount() > 0) {
      err.println(
          "flushlab map: "
              + scenario.targets().get(0).name()
              + ": every stream of "
              + last.cell().label()
              + " failed: "
              + last.included().firstError()
              + (targets.external()
                  ? "; is it forwarding to the emitter at " + scenario.emitterListen() + "?"
                  : ""));
      return EXIT_FAILED;
    }
    return written.fallbackReason() != null ? EXIT_FAILED : EXIT_OK;
  }
}
