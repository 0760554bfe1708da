package flushlab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.core.LabVertx;
import flushlab.report.Environment;
import flushlab.report.ResultsWriter;
import flushlab.report.RunReport;
import flushlab.run.Outcome;
import flushlab.run.RunRecord;
import flushlab.run.ScenarioRunner;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ctrl-C keeps what was measured, marked interrupted, in a folder that says so. */
class InterruptTest {
  /**
   * An interrupt in the middle of a long run ends it now; the cut run is left out, not published
   * half-measured.
   */
  @Test
  void anInterruptDuringARunAbortsItAndLeavesItOut() throws Exception {
    Scenario s =
        ScenarioFixture.parse(
            """
        name: cutme
        emitter: {frames: 200, interval: 50ms}
        targets: [{name: direct, kind: direct}]
        runs: 2
        guards: {pacing_tolerance: 10ms, certify: {runs: 3, frames: 11, interval: 20ms}}
        """);
    long start = System.nanoTime();
    Outcome o =
        runInterrupting(
            s,
            (runner, target, cell, run, loop) -> {
              // 300 ms into the first 10-second run, as Ctrl-C would
              if (cell == 0 && run == 0) loop.owner().setTimer(300, id -> runner.interrupt());
            });
    double seconds = (System.nanoTime() - start) / 1e9;
    // frames 1 ms apart once shared a read on a busy CI machine (1.25 frames per read):
    // uncertified, so nothing ran to cut
    assertThat(o.certified())
        .as("the direct path certified at %s frames per read", o.certification().framesPerRead())
        .isTrue();
    assertThat(o.interrupted()).isTrue();
    assertThat(o.results()).isEmpty(); // the only run of the cell was cut
    assertThat(seconds).as("the 10 s run was aborted, not waited for").isLessThan(8.0);
  }

  @Test
  void anInterruptedRunKeepsItsMeasurementsMarkedInterrupted(@TempDir Path dir) throws Exception {
    Scenario s =
        ScenarioFixture.parse(
            """
        name: stopme
        emitter: {frames: 10, interval: 5ms}
        targets: [{name: direct, kind: direct}, {name: relay, kind: relay, shapers: [passthrough]}]
        runs: 5
        guards: {pacing_tolerance: 10ms, certify: {runs: 3, frames: 11, interval: 20ms}}
        """);
    Outcome o =
        runInterrupting(
            s,
            (runner, target, cell, run, loop) -> {
              if (cell == 0 && target.equals("direct") && run == 2)
                runner.interrupt(); // as the Ctrl-C hook does (not in certification, cell -1)
            });
    assertThat(o.interrupted()).isTrue();
    assertThat(o.results()).hasSize(1);
    // runs 0 and 1 (one the guards excluded measured once more, as a host stall can make it); run
    // 2, cut by the
    // interrupt, is a partial measurement and is left out
    assertThat(o.results().get(0).runs())
        .extracting(RunRecord::run)
        .containsOnly(0, 1)
        .contains(0, 1);
    Path folder =
        ResultsWriter.write(dir, RunReport.of(s, o, "test", Environment.capture(true))).folder();
    assertThat(folder.getFileName().toString()).endsWith("-stopme-interrupted");
    assertThat(Files.readString(folder.resolve("results.json")))
        .contains("\"status\" : \"interrupted\"");
    assertThat(Files.readString(folder.resolve("summary.md"))).contains("Interrupted");
    try (Stream<Path> l = Files.list(dir)) {
      assertThat(l.filter(p -> p.getFileName().toString().contains("partial"))).isEmpty();
    }
  }

  /** Where a test interrupts a run: before each run, with the runner to interrupt. */
  private interface Interrupter {
    void beforeRun(ScenarioRunner runner, String target, int cell, int run, Context emitterLoop);
  }

  /**
   * Runs {@code s} on a Vert.x of its own (closed after), calling {@code when} before every run,
   * certification's included.
   */
  private static Outcome runInterrupting(Scenario s, Interrupter when) throws Exception {
    Vertx vertx = LabVertx.create(3);
    try {
      AtomicReference<ScenarioRunner> runner = new AtomicReference<>();
      runner.set(
          new ScenarioRunner(s, vertx)
              .beforeRun((t, cell, run, loop) -> when.beforeRun(runner.get(), t, cell, run, loop)));
      return runner.get().run(line -> {});
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }
}
