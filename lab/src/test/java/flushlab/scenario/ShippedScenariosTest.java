package flushlab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.HostStalls;
import flushlab.cli.Main;
import flushlab.core.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShippedScenariosTest {

  static List<Path> shipped() throws Exception {
    try (Stream<Path> s = Files.list(Path.of("scenarios"))) {
      return s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }
  }

  @Test
  void everyShippedScenarioValidates() throws Exception {
    List<Path> files = shipped();
    assertThat(files)
        .extracting(p -> p.getFileName().toString())
        .contains(
            "quickstart.yaml",
            "metric-validation.yaml",
            "flush-trigger-map.yaml",
            "slow-client-bulk.yaml",
            "faults.yaml",
            "network-path-cork.yaml",
            "tcp-upload-burst.yaml",
            "keepalive-nagle.yaml");
    for (Path f : files) {
      ScenarioFile any = ScenarioLoader.loadAny(f);
      if (any instanceof ProbeScenario p) {
        assertThat(p.servers()).isNotEmpty();
      } else {
        assertThat(((Scenario) any).targets()).isNotEmpty();
      }
    }
  }

  @Test
  void theReferenceDocumentsEveryKey() throws Exception {
    String readme = Files.readString(Path.of("scenarios/README.md"));
    // every table of the registry, as generated: a key added, removed or changed in Keys without
    // regenerating the page fails here
    for (Key.Section section : ScenarioReference.TABLES)
      assertThat(readme).contains(ScenarioReference.table(section));
    for (Key k : Keys.ALL) assertThat(readme).contains("`" + k.name() + "`");
  }

  @Test
  void quickstartRunsAndWritesAResultsFolderAPersonCanRead(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int rc =
        Main.run(
            new String[] {"run", "scenarios/quickstart.yaml", "--results", dir.toString()},
            new PrintStream(out),
            new PrintStream(err));
    if (rc != 0)
      HostStalls.skipIfSaidIn(
          out + "\n" + err); // not certified because this host stalled: no result
    assertThat(rc).as(out + "\n" + err).isZero();
    Path folder;
    try (Stream<Path> l = Files.list(dir)) {
      folder =
          l.filter(p -> p.getFileName().toString().endsWith("-quickstart"))
              .findFirst()
              .orElseThrow();
    }
    assertThat(folder.resolve("results.json")).exists();
    for (String target : new String[] {"direct", "passthrough", "drain-and-flush", "cork"}) {
      assertThat(folder.resolve("hlog").resolve(target + ".ttft.hlog")).exists();
    }
    assertThat(Files.readString(folder.resolve("report.html")))
        .contains("Arrival staircase", "drain-and-flush");
    String csv = Files.readString(folder.resolve("results.csv"));
    assertThat(csv.lines()).hasSize(5);
    String summary = Files.readString(folder.resolve("summary.md"));
    assertThat(summary)
        .contains("| direct |")
        .contains("| drain-and-flush |")
        .contains("| cork |")
        .contains("## Reproduce");
    // The structure the scenario exists to show (ratios, not times):
    String json = Files.readString(folder.resolve("results.json"));
    var root = Json.MAPPER.readTree(json);
    double direct = 0;
    double drain = 0;
    double cork = 0;
    Set<String> asserted = Set.of("direct", "drain-and-flush", "cork"); // the rows judged below
    for (var cell : root.get("cells")) {
      // a row every run of which was excluded has no figures (h21, under a CPU hog: cork's six
      // runs, its emitter late by 6-16 ms)
      if (asserted.contains(cell.get("target").asText()))
        HostStalls.skipIfEveryRunWasSpoiledByThisHost(cell);
      double fpr = cell.get("metrics").get("frames_per_read").asDouble();
      switch (cell.get("target").asText()) {
        case "direct":
          direct = fpr;
          break;
        case "drain-and-flush":
          drain = fpr;
          break;
        case "cork":
          cork = fpr;
          break;
        default:
          break;
      }
    }
    // as shipped, three runs of each (one run alone was excluded twice in a row, a host stall, in
    // one suite of five)
    assertThat(direct).as(out.toString()).isLessThanOrEqualTo(1.10);
    assertThat(drain).as(out.toString()).isGreaterThan(20);
    assertThat(cork).as(out.toString()).isGreaterThan(2);
    assertThat(root.get("schema_version").asInt()).isEqualTo(2);
    assertThat(root.get("environment").get("kernel_tcp").has("tcp_autocorking")).isTrue();
    try (Stream<Path> l = Files.list(dir)) {
      assertThat(l.filter(p -> p.getFileName().toString().endsWith(".partial"))).isEmpty();
    }
  }
}
