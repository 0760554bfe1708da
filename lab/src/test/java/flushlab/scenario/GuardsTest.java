package flushlab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.cli.Main;
import flushlab.report.Environment;
import flushlab.report.RunReport;
import flushlab.report.SummaryMarkdown;
import flushlab.run.Exclusion;
import flushlab.run.Outcome;
import flushlab.run.RunRecord;
import flushlab.run.TargetCellResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GuardsTest {

  @Test
  void runsWithALateEmitterAreExcludedAndCountedAndDoNotShapeTheNumbers() throws Exception {
    Scenario s =
        ScenarioFixture.parse(
            """
        name: late
        emitter: {frames: 30, frame_size: 60B, interval: 10ms}
        targets: [{name: direct, kind: direct}]
        runs: 4
        guards: {pacing_tolerance: 20ms, certify: {runs: 1}}
        flush_trigger_map: false
        """);
    // Runs 1 and 3 of the target: stall the emitter's event loop for 120 ms, 60 ms into the stream.
    Outcome o =
        ScenarioFixture.run(
            s,
            (target, cell, run, loop) -> {
              if (cell >= 0 && run % 2 == 1) {
                loop.runOnContext(
                    v ->
                        loop.owner()
                            .setTimer(
                                60,
                                id -> {
                                  long until = System.nanoTime() + 120_000_000L;
                                  while (System.nanoTime() < until) Thread.onSpinWait();
                                }));
              }
            });
    TargetCellResult r = o.results().get(0);
    assertThat(r.excludedRuns()).as("the stalled runs").isGreaterThanOrEqualTo(1);
    // the runs the test stalled, and only those, are excluded as the emitter's lateness; a run this
    // host stalled through (a suite run beside two other classes saw run 2 excluded so, "the
    // client's
    // host stalled 16 ms at 0.04 s") is excluded too, and says it was the host
    List<RunRecord> late =
        r.runs().stream()
            .filter(x -> x.excluded() && x.exclusion().cause() == Exclusion.Cause.EMITTER_LATE)
            .toList();
    assertThat(late)
        .as("runs excluded for a late emitter")
        .anyMatch(x -> x.run() % 2 == 1)
        .allMatch(x -> x.exclusionReason().contains("emitter late"));
    // a run the test did not stall is late only in a stall of this host (s115: run 0's emitter
    // wrote 20.8 ms late at the
    // stream's start, its loop asleep past its tick 36 ms, while this host stalled 29 ms)
    assertThat(late)
        .filteredOn(x -> x.run() % 2 == 0)
        .as("late runs the test did not stall")
        .allMatch(RunRecord::spoiledByHostStall);
    assertThat(r.runs())
        .filteredOn(x -> x.excluded() && !late.contains(x))
        .as("other exclusions")
        .allMatch(RunRecord::spoiledByHostStall);
    // an excluded run is measured once more, once (stalled again here, it may be excluded again):
    // at most two records a run,
    // and a second only after an excluded first
    for (int run = 0; run < 4; run++) {
      int n = run;
      List<RunRecord> mine = r.runs().stream().filter(x -> x.run() == n).toList();
      assertThat(mine).as("records of run %d", run).hasSizeBetween(1, 2);
      if (mine.size() == 2) assertThat(mine.get(0).excluded()).isTrue();
      else
        assertThat(mine.get(0).excluded())
            .as("an excluded run with no second measurement")
            .isFalse();
    }
    // What is kept is the clean runs: no 120 ms hole in the gaps.
    assertThat(r.included().frames()).isEqualTo(30L * (r.runs().size() - r.excludedRuns()));
    assertThat(r.included().gapMs().max()).isLessThan(60.0);
    // ...while the excluded runs did carry the stall, so the guard removed apparatus noise.
    assertThat(late).allMatch(x -> x.result().gapMs().max() > 60.0);
  }

  /**
   * A row whose every run the guard excluded has no numbers; a row of zeros would read as a
   * measurement.
   */
  @Test
  void aRowWhoseEveryRunWasExcludedSaysSoInsteadOfShowingZeros() throws Exception {
    Scenario s =
        ScenarioFixture.parse(
            """
        name: allout
        emitter: {frames: 20, frame_size: 60B, interval: 10ms}
        targets: [{name: direct, kind: direct}, {name: relay, kind: relay, shapers: [passthrough]}]
        runs: 2
        guards: {pacing_tolerance: 20ms, certify: {runs: 1}}
        flush_trigger_map: false
        """);
    Outcome o =
        ScenarioFixture.run(
            s,
            (target, cell, run, loop) -> {
              if (target.equals("relay")) {
                loop.runOnContext(
                    v ->
                        loop.owner()
                            .setTimer(
                                40,
                                id -> {
                                  long until = System.nanoTime() + 80_000_000L;
                                  while (System.nanoTime() < until) Thread.onSpinWait();
                                }));
              }
            });
    assertThat(o.results().get(1).excludedRuns())
        .as("2 runs, each measured once more and stalled again")
        .isEqualTo(4);
    String md = SummaryMarkdown.render(RunReport.of(s, o, "test", Environment.capture(true)));
    assertThat(md).contains("| relay | excluded (every run) | - | - | - | - | - | 4 of 4 | 0 |");
    assertThat(md).doesNotContain("| relay | 0.0ms");
  }

  @Test
  void aNoisyDirectPathStopsTheScenarioWithNoFindings(@TempDir Path dir) throws Exception {
    // Certify with frames written as fast as the socket takes them: the kernel merges them on the
    // direct path itself, so this host cannot be certified for that stream. The ceiling is 1.0:
    // a client that kept up with most of 3000 back-to-back frames once read 1.10 or less, but
    // none reads every one of them on its own.
    Path file = dir.resolve("noisy.yaml");
    Files.writeString(
        file,
        """
        name: noisy
        emitter: {frames: 10, interval: 10ms}
        targets: [{name: cork, kind: relay, shapers: [cork]}]
        runs: 1
        guards: {certify: {runs: 2, frames: 3000, interval: 0ms, max_frames_per_read: 1.0}}
        """);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int rc =
        Main.run(
            new String[] {"run", file.toString(), "--results", dir.resolve("results").toString()},
            new PrintStream(out),
            new PrintStream(err));
    assertThat(rc).isEqualTo(3);
    assertThat(err.toString()).contains("not certified");
    List<Path> folders;
    try (Stream<Path> l = Files.list(dir.resolve("results"))) {
      folders = l.toList();
    }
    assertThat(folders).hasSize(1);
    assertThat(folders.get(0).getFileName().toString()).endsWith("-noisy-uncertified");
    String json = Files.readString(folders.get(0).resolve("results.json"));
    assertThat(json).contains("\"status\" : \"uncertified\"").contains("\"cells\" : [ ]");
    assertThat(Files.readString(folders.get(0).resolve("summary.md")))
        .contains("NOT certified")
        .doesNotContain("| cork |");
  }
}
