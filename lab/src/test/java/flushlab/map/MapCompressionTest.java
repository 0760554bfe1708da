package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import flushlab.FreePort;
import flushlab.HostStalls;
import flushlab.ScriptedServer;
import flushlab.cli.Main;
import flushlab.core.Json;
import io.vertx.core.Vertx;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * `flushlab map` against built-in compressors whose flush policy and size it is not told (drawn at
 * random; the seed is printed, -Dflushlab.seed=N replays it): asked as a client that accepts gzip
 * and as one that does not, it must say compression is the cause, name what each client saw, and
 * give the compressor as the model.
 */
class MapCompressionTest extends MapTestBase {
  /**
   * A compressing relay that sends its output once N compressed bytes wait, N hidden: the lab's own
   * client (no Accept-Encoding) sees it stream; the map asks once more as a browser, is answered in
   * gzip, and locates N in compressed bytes.
   */
  @Test
  void aCompressingRelaysHiddenFlushSizeIsFoundAsAClientThatAcceptsGzip() throws Exception {
    int n = between(800, 4000);
    JsonNode a = map("compress=gzip,flush=bytes,bytes=" + n + "B");
    assertThat(a.get("kind").asText())
        .as("the bare client's answer: " + a.get("verdict").asText())
        .isEqualTo("none");
    JsonNode c = a.get("compression");
    assertThat(c.get("coding").asText()).isEqualTo("gzip");
    assertThat(c.get("cause").asBoolean()).as(a.get("verdict").asText()).isTrue();
    assertThat(c.get("accepting_client").asText()).startsWith("browser");
    JsonNode accepting = c.get("accepting");
    assertThat(accepting.get("kind").asText())
        .as(accepting.get("verdict").asText() + "; evidence: " + accepting.get("evidence"))
        .isEqualTo("byte-threshold");
    within10Percent(accepting, "threshold_bytes", n);
    assertThat(accepting.get("threshold_body_bytes").asDouble())
        .as("in event bytes, more than compressed")
        .isGreaterThan(accepting.get("threshold_bytes").asDouble());
    assertThat(a.get("verdict").asText()).startsWith("compression is the cause");
    // the model is the compressor: it holds the stream for clients that accept gzip only
    modelIs(a, "compress=gzip,flush=bytes,bytes=(\\d+)B", n);
  }

  /**
   * A compressor flushed by its input's size (every N bytes of events, however small they
   * compress), asked as a browser: a decoded threshold of N, and the compressor that counts so as
   * its model.
   */
  @Test
  void aCompressorFlushedEveryNBytesOfInputIsADecodedThreshold() throws Exception {
    int n = between(800, 3500);
    JsonNode a =
        mapWith(
            List.of(
                "--shape", "compress=gzip,flush=input,bytes=" + n + "B", "--client", "browser"));
    kindIs(a, "decoded-threshold");
    within10Percent(a, "threshold_bytes", n);
    // asked as a browser first, the other kind of client is asked too, and streams
    assertThat(a.get("compression").get("others").get("kind").asText()).isEqualTo("none");
    modelIs(a, "compress=gzip,flush=input,bytes=(\\d+)B", n);
  }

  /**
   * A byte threshold and a compressor flushing every write, in an order drawn at random, asked as a
   * browser and replayed (`--verify`): both kinds of client see the threshold, so the model is both
   * stages, in the order the accepting client's count gives (compressed bytes: the compressor came
   * first; event bytes: the threshold did), and it reproduces every cell.
   */
  @Test
  void aThresholdBesideACompressorIsModelledAsBothStagesInTheirOrder() throws Exception {
    int n = between(1200, 3500);
    boolean compressorFirst = between(0, 1) == 1;
    String each = "compress=gzip,flush=each";
    String hidden =
        compressorFirst
            ? each + " -> byte-threshold=" + n + "B"
            : "byte-threshold=" + n + "B -> " + each;
    JsonNode a = mapReplayed(List.of("--shape", hidden, "--client", "browser", "--verify"));
    assertThat(a.get("compression").get("others").get("kind").asText())
        .as(a.get("verdict").asText())
        .isEqualTo("byte-threshold");
    within10Percent(a.get("compression").get("others"), "threshold_bytes", n);
    if (compressorFirst) {
      modelIs(a, "compress=gzip,flush=each -> byte-threshold=(\\d+)B", n);
    } else {
      kindIs(a, "decoded-threshold");
      modelIs(a, "byte-threshold=(\\d+)B -> compress=gzip,flush=each", n);
    }
    assertThat(a.get("replay").asText()).as(hidden).startsWith("verified: the model ");
  }

  /**
   * A server whose every stream the client cannot read (labelled br, its bytes gzip): no cell has a
   * frame, so the map names no mechanism; it says inconclusive, why, and fails.
   */
  @Test
  void aTargetWhoseStreamsCannotBeDecodedIsInconclusiveNeverNone() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      byte[] gz;
      try (ByteArrayOutputStream b = new ByteArrayOutputStream();
          GZIPOutputStream z = new GZIPOutputStream(b)) {
        z.write(ScriptedServer.frames(60, 0, 1, 2));
        z.finish();
        gz = b.toByteArray();
      }
      byte[] head =
          ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Encoding: br\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII);
      byte[] body = gz;
      ScriptedServer server =
          ScriptedServer.playing(
              vertx,
              List.of(
                  new ScriptedServer.Step(0, () -> head), new ScriptedServer.Step(5, () -> body)));
      List<String> args =
          List.of(
              "map",
              "--results",
              dir.resolve("results").toString(),
              "--json",
              dir.resolve("map.json").toString(),
              "--target",
              "127.0.0.1:" + server.port(),
              "--emitter-listen",
              "127.0.0.1:" + FreePort.forALaterServer(),
              "--client",
              "browser",
              "--no-verify");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int code = Main.run(args.toArray(String[]::new), new PrintStream(out), new PrintStream(err));
      JsonNode a = Json.MAPPER.readTree(dir.resolve("map.json").toFile());
      System.out.println("undecodable target -> " + a.get("verdict").asText());
      // a certification this host's stalls refused says so (s257), and nothing of the target
      HostStalls.skipIfSaidIn(a.get("verdict").asText());
      assertThat(code).as(out + "\n" + err).isNotZero();
      assertThat(a.get("kind").asText()).isEqualTo("inconclusive");
      assertThat(a.get("verdict").asText())
          .contains("could not be decoded")
          .doesNotContain("none:");
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }
}
