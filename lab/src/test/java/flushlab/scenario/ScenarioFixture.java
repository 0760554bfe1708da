package flushlab.scenario;

import flushlab.HostStalls;
import flushlab.core.LabVertx;
import flushlab.run.Outcome;
import flushlab.run.ScenarioRunner;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Parses a scenario from text and runs it in-process. */
public final class ScenarioFixture {
  private ScenarioFixture() {}

  public static Scenario parse(String yaml) throws ScenarioError {
    return ScenarioLoader.parse(Path.of("test.yaml"), yaml);
  }

  /** For tests that build cells from a known-good scenario. */
  public static Scenario parseUnchecked(String yaml) {
    try {
      return parse(yaml);
    } catch (ScenarioError e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Runs the scenario; a test whose measurement this host's stalls spoiled twice in a row (the lab
   * measured it once more and it stalled again) is skipped as a host stall ({@link HostStalls}).
   */
  public static Outcome run(Scenario s, ScenarioRunner.RunHook hook) throws Exception {
    Outcome o = runAsMeasured(s, hook);
    HostStalls.skipIfStalled(o);
    return o;
  }

  /**
   * Runs the scenario and returns what it measured, host stalls and all (for the tests of the
   * guards themselves).
   */
  public static Outcome runAsMeasured(Scenario s, ScenarioRunner.RunHook hook) throws Exception {
    Vertx vertx = LabVertx.create(3);
    try {
      return new ScenarioRunner(s, vertx)
          .beforeRun(hook)
          .run(line -> System.out.println("  " + line));
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  public static Outcome run(Scenario s) throws Exception {
    return run(s, (t, c, r, loop) -> {});
  }
}
