package flushlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.ForkedLab;
import flushlab.FreePort;
import flushlab.HostStalls;
import flushlab.core.Build;
import flushlab.core.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `flushlab run` end to end: where results go, what they record, how the run ends. */
class RunCommandTest {
  /**
   * A short scenario with the default guards (three short certification runs): these tests are
   * about what a run writes.
   */
  static final String TINY =
      """
      name: tiny
      emitter: {frames: 5, interval: 20ms}
      targets: [{name: direct, kind: direct}]
      runs: 1
      guards: {pacing_tolerance: 10ms, certify: {runs: 3, frames: 11, interval: 20ms}}
      """;

  @Test
  void anUnwritableResultsFolderStopsTheRunBeforeAnythingIsMeasured(@TempDir Path dir)
      throws Exception {
    Path scenario = Files.writeString(dir.resolve("tiny.yaml"), TINY);
    CliTest.Ran r = CliTest.run("run", "--results", "/proc/nope", scenario.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err())
        .contains("--results /proc/nope: cannot write results there")
        .contains("nothing was run");
    assertThat(r.out()).doesNotContain("certification");
  }

  /**
   * The scenario's expect: block, as CI uses it: an answer other than the one expected exits 1 and
   * says what it was.
   */
  @Test
  void anExpectationTheAnswerDoesNotMeetExits1WithTheDifference(@TempDir Path dir)
      throws Exception {
    Path scenario =
        Files.writeString(
            dir.resolve("tiny.yaml"),
            TINY
                + """
        flush_trigger_map: true
        expect: {direct: byte-threshold}
        """);
    CliTest.Ran r =
        CliTest.run("run", "--results", dir.resolve("out").toString(), scenario.toString());
    if (r.code() == Command.EXIT_UNCERTIFIED) HostStalls.skipIfSaidIn(r.err());
    assertThat(r.code()).as(r.out() + r.err()).isEqualTo(1);
    // the direct path holds nothing: its answer is none (inconclusive when this host stalled
    // through the cell), never a threshold
    assertThat(r.err())
        .as(r.out() + r.err())
        .contains("flushlab run: expect direct: byte-threshold: not met: the answer is ");
    assertThat(r.out()).doesNotContain("expect: direct: met");
  }

  @Test
  void resultsRecordTheCommandThatWasRunWithItsFlags(@TempDir Path dir) throws Exception {
    Path scenario = Files.writeString(dir.resolve("tiny.yaml"), TINY);
    Path results = dir.resolve("out");
    CliTest.Ran r = CliTest.run("run", "--results", results.toString(), scenario.toString());
    assertThat(r.code()).as(r.out() + r.err()).isZero();
    Path folder;
    try (Stream<Path> l = Files.list(results)) {
      folder =
          l.filter(p -> p.getFileName().toString().endsWith("-tiny")).findFirst().orElseThrow();
    }
    String json = Files.readString(folder.resolve("results.json"));
    assertThat(json)
        .contains("run --results " + results + " " + scenario)
        .doesNotContain("run-scenario.sh");
  }

  @Test
  void anExternalTargetNobodyListensOnStopsTheRunWithExit1(@TempDir Path dir) throws Exception {
    int closed;
    closed = FreePort.forALaterServer();
    Path scenario =
        Files.writeString(
            dir.resolve("ext.yaml"),
            TINY.replace(
                "targets: [{name: direct, kind: direct}]",
                "targets: [{name: direct, kind: direct}, {name: gw, kind: external, address: 127.0.0.1:"
                    + closed
                    + ", external: true, reason: test}]"));
    CliTest.Ran r =
        CliTest.run("run", "--results", dir.resolve("out").toString(), scenario.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("target gw: nothing accepts connections at 127.0.0.1:" + closed);
  }

  /**
   * Results name the commit the jar was built from, even when the lab runs inside another git
   * repository (asking git at run time recorded that repository's commit).
   */
  @Test
  void resultsNameTheCommitTheLabWasBuiltFromNotTheOneItRunsIn(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("tiny.yaml"), TINY);
    for (String[] git :
        new String[][] {
          {"init", "-q"},
          {
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            "another repository"
          }
        }) {
      String[] cmd = new String[git.length + 1];
      cmd[0] = "git";
      System.arraycopy(git, 0, cmd, 1, git.length);
      assertThat(new ProcessBuilder(cmd).directory(dir.toFile()).inheritIO().start().waitFor())
          .isZero();
    }
    String otherCommit =
        new String(
                new ProcessBuilder("git", "rev-parse", "HEAD")
                    .directory(dir.toFile())
                    .start()
                    .getInputStream()
                    .readAllBytes())
            .trim();
    try (ForkedLab lab = ForkedLab.start(dir, List.of(), "run", "--results", "out", "tiny.yaml")) {
      assertThat(lab.process().waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(lab.process().exitValue()).as(lab.output()).isZero();
    }
    Path folder;
    try (Stream<Path> l = Files.list(dir.resolve("out"))) {
      folder = l.findFirst().orElseThrow();
    }
    var env = Json.MAPPER.readTree(folder.resolve("results.json").toFile()).get("environment");
    assertThat(env.get("git_commit").asText())
        .isEqualTo(Build.commit())
        .doesNotStartWith(otherCommit);
  }

  /**
   * SIGTERM (what `kill` and service managers send) ends a run like Ctrl-C: results kept, exit 130.
   */
  @Test
  void sigtermKeepsWhatWasMeasuredAndExits130(@TempDir Path dir) throws Exception {
    Files.writeString(
        dir.resolve("long.yaml"),
        """
        name: long
        emitter: {frames: 400, interval: 50ms}
        targets: [{name: direct, kind: direct}, {name: relay, kind: relay, shapers: [passthrough]}]
        runs: 3
        guards: {pacing_tolerance: 10ms, certify: {runs: 3, frames: 11, interval: 20ms}}
        """);
    try (ForkedLab lab = ForkedLab.start(dir, List.of(), "run", "--results", "out", "long.yaml")) {
      lab.awaitLine("certification: .*certified", 60_000);
      lab.process().destroy(); // SIGTERM
      assertThat(lab.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(lab.process().exitValue()).as(lab.output()).isEqualTo(130);
    }
    try (Stream<Path> l = Files.list(dir.resolve("out"))) {
      Path folder =
          l.filter(p -> p.getFileName().toString().endsWith("-long-interrupted"))
              .findFirst()
              .orElseThrow();
      assertThat(Files.readString(folder.resolve("results.json")))
          .contains("\"status\" : \"interrupted\"");
    }
  }
}
