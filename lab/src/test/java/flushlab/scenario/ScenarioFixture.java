package flushlab.scenario;

import flushlab.core.LabVertx;
import flushlab.run.Outcome;
import flushlab.run.ScenarioRunner;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Parses a scenario from text and runs it in-process. */
final class ScenarioFixture {
  private ScenarioFixture() {}

  static Scenario parse(String yaml) throws ScenarioError {
    return ScenarioLoader.parse(Path.of("test.yaml"), yaml);
  }

  /** For tests that build cells from a known-good scenario. */
  static Scenario parseUnchecked(String yaml) {
    try {
      return parse(yaml);
    } catch (ScenarioError e) {
      throw new IllegalStateException(e);
    }
  }

  static Outcome run(Scenario s, ScenarioRunner.RunHook hook) throws Exception {
    Vertx vertx = LabVertx.create(3);
    try {
      return new ScenarioRunner(s, vertx).beforeRun(hook).run(line -> {});
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  static Outcome run(Scenario s) throws Exception {
    return run(s, (t, c, r, loop) -> {});
  }
}
