package flushlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.Cli;
import flushlab.ForkedLab;
import flushlab.LabFixture;
import flushlab.core.Json;
import flushlab.emitter.EmitterOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Headers a gateway needs: a key read from the environment reaches the server (an emitter that
 * answers 401 without it), and no value, from the environment or written literally, is in any file
 * of the results.
 */
class RequestHeadersTest {
  private static final String LITERAL = "literal-trace-value-7f3a";

  private static String scenario(int port) {
    return """
        name: keyed
        emitter: {endpoint: chat, frames: 8, interval: 5ms}
        client:
          model: gpt-test
          headers:
            Authorization: "Bearer ${FLUSHLAB_TEST_KEY}"
            X-Trace: %s   # a literal value
        targets:
          - {name: direct, kind: direct}
          - {name: keyed, kind: external, external: true, address: "127.0.0.1:%d", reason: an emitter that wants a key}
        runs: 1
        # this test is about headers: a busy host's late frame must not leave the run uncertified
        guards: {pacing_tolerance: 10ms, certify: {runs: 3, frames: 11, interval: 20ms}}
        """
        .formatted(LITERAL, port);
  }

  private static String allResultText(Path dir) throws Exception {
    StringBuilder all = new StringBuilder();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.filter(Files::isRegularFile).toList())
        all.append(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1));
    }
    return all.toString();
  }

  @Test
  void aKeyFromTheEnvironmentReachesTheServerAndNoValueReachesTheResults(@TempDir Path dir)
      throws Exception {
    String key = "sk-test-" + Long.toHexString(System.nanoTime());
    try (LabFixture keyed = new LabFixture(EmitterOptions.loopback(0).withApiKey(key), 2)) {
      Files.writeString(dir.resolve("keyed.yaml"), scenario(keyed.emitter.port()));
      try (ForkedLab lab =
          ForkedLab.start(
              dir,
              Map.of("FLUSHLAB_TEST_KEY", key),
              List.of(),
              "run",
              "--results",
              "out",
              "keyed.yaml")) {
        lab.process().waitFor();
        assertThat(lab.process().exitValue()).as(lab.output()).isZero();
        assertThat(lab.output()).doesNotContain(key).doesNotContain(LITERAL);
      }
      String results = allResultText(dir.resolve("out"));
      assertThat(results).contains("\"Authorization: <redacted>\"").contains("X-Trace: <redacted>");
      assertThat(results).doesNotContain(key).doesNotContain(LITERAL);
      Path json;
      try (Stream<Path> files = Files.walk(dir.resolve("out"))) {
        json =
            files
                .filter(f -> f.getFileName().toString().equals("results.json"))
                .findFirst()
                .orElseThrow();
      }
      var root = Json.MAPPER.readTree(json.toFile());
      // the stream to the keyed emitter succeeded: the header reached it (without it: 401, and no
      // stream)
      var cell =
          StreamSupport.stream(root.get("cells").spliterator(), false)
              .filter(c -> c.get("target").asText().equals("keyed"))
              .findFirst()
              .orElseThrow();
      // read from the run as recorded: a run the pacing guard excluded (a host stall) still shows
      // whether the header was let in, which is what this test is about; the guard stays on
      var run = cell.get("runs").get(0);
      assertThat(run.at("/metrics/streams_ok").asInt())
          .as("run: %s", run.get("exclusion_reason"))
          .isEqualTo(1);
      assertThat(run.at("/metrics/frames").asInt()).isEqualTo(8);
      // every row records which client it was and the exact head it sent, the user's values hidden
      assertThat(cell.get("client_profile").asText()).isEqualTo("bare");
      List<String> sent = new ArrayList<>();
      cell.get("request_headers").forEach(h -> sent.add(h.asText()));
      assertThat(sent)
          .contains("User-Agent: flushlab", "Authorization: <redacted>", "X-Trace: <redacted>");
      assertThat(keyed.emitter.audits().summary(1))
          .as("the keyed emitter served the stream")
          .isNotNull();
    }
  }

  @Test
  void aVariableThatIsNotSetStopsTheRunNamingFileLineAndKey(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("keyed.yaml"), scenario(9));
    Cli.Ran r = Cli.flushlab("validate", dir.resolve("keyed.yaml").toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err())
        .contains("keyed.yaml:6")
        .contains("client.headers.Authorization")
        .contains("FLUSHLAB_TEST_KEY")
        .contains("not set");
  }

  @Test
  void headerValuesOnTheCommandLineAreRedactedFromTheRecordedInvocation() {
    List<String> words =
        new ArrayList<>(
            List.of("map", "--header", "Authorization: Bearer sk-live-123", "--header=X-A: b"));
    Invocation.redactHeaderValues(words);
    assertThat(words)
        .containsExactly(
            "map", "--header", "Authorization: <redacted>", "--header=X-A: <redacted>");
  }
}
