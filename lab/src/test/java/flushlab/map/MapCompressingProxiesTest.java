package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import flushlab.HostStalls;
import flushlab.cli.Main;
import flushlab.core.Json;
import flushlab.proxy.ProxyKind;
import flushlab.proxy.ProxyProcess;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * `flushlab map --client browser` of a real compressing proxy says when compression is the cause.
 * Apart from `proxy.CompressingProxiesTest` (the same proxies read by curl and a browser), and
 * among the map's classes: as the proxy package's, the file system's last, it ended the suite alone
 * for its last 13-20 s (docs/TESTING.md).
 */
class MapCompressingProxiesTest {
  @TempDir Path dir;

  /**
   * `flushlab map --client browser`: nginx gzip with buffering on is an encoder nobody flushes for
   * a browser, Nagle for curl, and compression is the cause; off, both stream.
   */
  @ParameterizedTest
  @CsvSource({"nginx-gzip.conf, encoder, true", "nginx-gzip-buffering-off.conf, none, false"})
  void theMapAskedAsABrowserSaysWhenCompressionIsTheCause(
      String template, String kind, boolean cause) throws Exception {
    boolean installed = ProxyProcess.locate(ProxyKind.NGINX.binaryName) != null;
    if (!installed)
      System.out.println("SKIPPED (MapCompressingProxiesTest): nginx is not installed");
    Assumptions.assumeTrue(installed, "nginx is not installed");
    List<String> args =
        List.of(
            "map",
            "--proxy",
            "nginx",
            "--config",
            "scenarios/proxies/" + template,
            "--client",
            "browser",
            "--no-verify",
            "--results",
            dir.resolve("results").toString(),
            "--json",
            dir.resolve("map.json").toString());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(args.toArray(String[]::new), new PrintStream(out), new PrintStream(err));
    // not certified because this host stalled (h20, under a CPU hog: four certification runs, each
    // with 2 frames read in a stall)
    if (code != 0) HostStalls.skipIfSaidIn(out + "\n" + err);
    assertThat(code).as(out + "\n" + err).isZero();
    JsonNode a = Json.MAPPER.readTree(dir.resolve("map.json").toFile());
    System.out.println(
        "map nginx " + template + " --client browser -> " + a.get("verdict").asText());
    HostStalls.skipIfSaidIn(a.get("verdict").asText());
    assertThat(a.get("kind").asText()).as(a.get("verdict").asText()).isEqualTo(kind);
    JsonNode c = a.get("compression");
    assertThat(c.get("coding").asText()).isEqualTo("gzip");
    assertThat(c.get("cause").asBoolean()).as(a.get("verdict").asText()).isEqualTo(cause);
    if (cause) {
      assertThat(a.get("verdict").asText()).startsWith("compression is the cause");
      // for curl, stock nginx's writes under the client socket's Nagle, which no single fit names:
      // tried beside the
      // encoder the browser saw, that model is replayed on both clients' cells (--no-verify still
      // replays two stages)
      // the map's whole output with the answer: CI once answered inconclusive for curl here, and
      // its verdict alone did not say why
      assertThat(c.get("others").get("kind").asText())
          .as("%s%n%s", c.get("others").get("verdict").asText(), out)
          .isEqualTo("nagle");
      assertThat(a.get("model").get("chain").asText())
          .as(a.get("model").toString())
          .isEqualTo("nagle -> compress=gzip,flush=none");
      assertThat(a.get("replay").asText())
          .startsWith("verified: the model nagle -> compress=gzip,flush=none reproduces");
    } else {
      assertThat(c.get("others").get("kind").asText()).isEqualTo("none");
    }
  }
}
