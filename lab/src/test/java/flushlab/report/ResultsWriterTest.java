package flushlab.report;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.Outcomes;
import flushlab.core.IoErrors;
import flushlab.run.Certification;
import flushlab.run.Outcome;
import flushlab.scenario.Scenario;
import flushlab.scenario.ScenarioLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A measured run is never lost to the way its results are written. */
class ResultsWriterTest {
  static Scenario scenario() throws Exception {
    return ScenarioLoader.parse(
        Path.of("test.yaml"), "name: same\ntargets: [{name: direct, kind: direct}]\n");
  }

  /** An outcome started at a fixed instant, so that runs collide on their folder name. */
  static Outcome outcome() {
    return Outcomes.certifiedAs(new Certification(true, 1.0, 0.1, List.of(), "certified"));
  }

  @Test
  void twoRunsOfOneScenarioStartedInTheSameSecondKeepBothResults(@TempDir Path dir)
      throws Exception {
    Scenario s = scenario();
    int writers = 4;
    CyclicBarrier together = new CyclicBarrier(writers);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<Path>> written = new ArrayList<>();
      for (int i = 0; i < writers; i++) {
        String command = "writer " + i;
        Callable<Path> write =
            () -> {
              together.await();
              return ResultsWriter.write(
                      dir, RunReport.of(s, outcome(), command, Environment.capture(true)))
                  .folder();
            };
        written.add(pool.submit(write));
      }
      List<Path> folders = new ArrayList<>();
      for (Future<Path> f : written) folders.add(f.get());
      assertThat(folders)
          .doesNotHaveDuplicates()
          .allSatisfy(f -> assertThat(f.getParent()).isEqualTo(dir));
      List<String> commands = new ArrayList<>();
      for (Path f : folders) {
        String json = Files.readString(f.resolve("results.json"));
        commands.add(
            json.substring(
                json.indexOf("\"command\" : \"") + 13, json.indexOf("\"command\" : \"") + 21));
        assertThat(f.resolve("summary.md")).exists();
      }
      assertThat(commands)
          .containsExactlyInAnyOrder("writer 0", "writer 1", "writer 2", "writer 3");
      try (Stream<Path> left = Files.list(dir)) {
        assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains("partial"));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void resultsThatCannotGoWhereAskedGoToTheTemporaryFolderWithTheReason(@TempDir Path dir)
      throws Exception {
    Path notAFolder =
        Files.writeString(dir.resolve("results"), "a file where the folder should be");
    String tmp = System.getProperty("java.io.tmpdir");
    System.setProperty("java.io.tmpdir", dir.toString());
    try {
      ResultsWriter.Written w =
          ResultsWriter.write(
              notAFolder, RunReport.of(scenario(), outcome(), "test", Environment.capture(true)));
      assertThat(w.fallbackReason()).contains("could not write under " + notAFolder);
      assertThat(w.folder().getParent()).isEqualTo(dir.resolve("flushlab-results"));
      assertThat(w.folder().resolve("results.json")).exists();
    } finally {
      System.setProperty("java.io.tmpdir", tmp);
    }
  }

  @Test
  void anUnwritableResultsFolderIsFoundBeforeTheRunWithAReason() throws Exception {
    Throwable t =
        Assertions.catchThrowable(() -> ResultsWriter.checkWritable(Path.of("/proc/nope")));
    assertThat(t).isInstanceOf(IOException.class);
    assertThat(IoErrors.describe((IOException) t))
        .isNotEqualTo("/proc/nope")
        .contains("/proc/nope");
  }

  /** /proc files state a size unrelated to their content: read as the kernel has them. */
  @Test
  void kernelTcpSettingsAreRecordedWhole() {
    Path rmem = Path.of("/proc/sys/net/ipv4/tcp_rmem");
    Assumptions.assumeTrue(Files.isReadable(rmem), "no " + rmem + " on this machine");
    Environment.KernelTcp tcp = Environment.capture(true).kernelTcp();
    assertThat(tcp.tcpRmem()).matches("\\d+ \\d+ \\d+");
    assertThat(tcp.tcpWmem()).matches("\\d+ \\d+ \\d+");
    assertThat(tcp.rmemMax()).matches("\\d{3,}");
  }
}
