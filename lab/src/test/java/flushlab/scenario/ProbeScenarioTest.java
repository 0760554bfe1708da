package flushlab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import flushlab.HostStalls;
import flushlab.cli.Main;
import flushlab.core.Json;
import flushlab.report.page.ProbeCharts;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Probe scenarios (probe: upload | keepalive): validated by the registry, run by 'flushlab run',
 * results kept like a run's.
 */
class ProbeScenarioTest {
  private static ScenarioError refused(String yaml) {
    return catchThrowableOfType(
        ScenarioError.class, () -> ScenarioLoader.parseAny(Path.of("p.yaml"), yaml));
  }

  @Test
  void aProbeScenarioRefusesStreamKeysAndBadServersByLineAndKey() {
    ScenarioError e =
        refused(
            """
        name: p
        probe: upload
        targets: [{name: direct, kind: direct}]
        upload: {sizes: [16KiB], attempts: 0, colour: blue}
        keepalive: {requests: 3}
        servers:
          - {name: a, rcvbuf: 1B}
          - {name: a, mtu: 1500}
        """);
    assertThat(String.join("\n", e.messages()))
        .contains("p.yaml:3:1: targets: does not apply to a probe scenario (probe: upload)")
        .contains("upload.sizes: must be a list of 2-64 sizes")
        .contains("upload.attempts: 0 is out of range (allowed: 1..50)")
        .contains("upload.colour")
        .contains("keepalive: applies only with probe: keepalive")
        .contains("servers[0].rcvbuf: 1B is out of range")
        .contains("servers[1].name: 'a' is used by another server")
        .contains("servers[1].mtu: servers[1].path: the loopback path's MTU is fixed at 65536");
  }

  @Test
  void aStreamScenarioRefusesProbeKeys() {
    ScenarioError e =
        refused("name: s\ntargets: [{name: direct, kind: direct}]\nservers: [{name: a}]\n");
    assertThat(String.join("\n", e.messages()))
        .contains("servers: applies only to a probe scenario");
  }

  @Test
  void flushlabRunRunsAnUploadAndAKeepAliveScenarioAndKeepsTheirResults(@TempDir Path dir)
      throws Exception {
    Files.writeString(
        dir.resolve("up.yaml"),
        """
        name: up
        probe: upload
        upload: {sizes: [16KiB, 64KiB], attempts: 1}
        servers:
          - {name: stock}
          - {name: big, rcvbuf: 1MiB, read_delay: 5ms}
        """);
    Files.writeString(
        dir.resolve("ka.yaml"),
        """
        name: ka
        probe: keepalive
        keepalive: {requests: 8, client_nodelay: on}
        servers: [{name: nodelay}]
        """);
    for (String f : new String[] {"up.yaml", "ka.yaml"}) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      int rc =
          Main.run(
              new String[] {
                "run", dir.resolve(f).toString(), "--results", dir.resolve("out").toString()
              },
              new PrintStream(out),
              new PrintStream(out));
      if (rc != 0)
        HostStalls.skipIfSaidIn(
            out.toString()); // not certified because this host stalled: no result
      assertThat(rc).as(out.toString()).isZero();
    }
    JsonNode up = results(dir.resolve("out"), "up");
    assertThat(up.path("kind").asText()).isEqualTo("probe");
    assertThat(up.path("probe").asText()).isEqualTo("upload");
    JsonNode big = up.path("servers").get(1);
    assertThat(big.path("rcvbuf_asked").asInt()).isEqualTo(1 << 20);
    JsonNode stock = up.path("servers").get(0);
    assertThat(stock.has("rcvbuf_asked")).as("nothing asked: the kernel's default").isFalse();
    assertThat(big.path("rcvbuf_granted").asInt())
        .as("1 MiB asked: the kernel grants more than its default")
        .isGreaterThan(stock.path("rcvbuf_granted").asInt());
    assertThat(big.path("read_delay_ms").asDouble()).isEqualTo(5.0);
    assertThat(big.path("upload").path("sweep")).hasSize(2);
    assertThat(big.path("upload").path("sweep").get(0).path("p50_ms").asDouble())
        .as("a busy server answers after its delay")
        .isGreaterThanOrEqualTo(5.0);
    JsonNode ka = results(dir.resolve("out"), "ka");
    JsonNode rows = ka.path("servers").get(0).path("keepalive").path("rows");
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).path("requests").asInt()).isEqualTo(8);
    assertThat(rows.get(0).path("client_nodelay").asBoolean()).isTrue();
  }

  private static JsonNode results(Path root, String name) throws Exception {
    try (Stream<Path> l = Files.list(root)) {
      Path folder =
          l.filter(p -> p.getFileName().toString().endsWith("-" + name)).findFirst().orElseThrow();
      assertThat(folder.resolve("summary.md")).exists();
      JsonNode results = Json.MAPPER.readTree(folder.resolve("results.json").toFile());
      // the page: its charts have a series with data for every server the probe measured
      var charts = ProbeCharts.of(results);
      assertThat(charts).isNotEmpty();
      for (var c : charts) assertThat(c.seriesWithData()).as("chart %s", c.title()).isNotEmpty();
      assertThat(Files.readString(folder.resolve("report.html")))
          .contains("flushlab probe", "data-page=\"probe\"");
      return results;
    }
  }
}
