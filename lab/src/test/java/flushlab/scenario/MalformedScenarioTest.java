package flushlab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each mistake gives one message naming the file, the line, the key and what is allowed. */
class MalformedScenarioTest {
  static final String HEAD = "name: bad\n";
  static final String TARGETS = "targets:\n  - {name: direct, kind: direct}\n";

  static Stream<Arguments> mistakes() {
    return Stream.of(
        Arguments.of(
            "unknown top-level key", HEAD + "colour: red\n" + TARGETS, 2, "colour", "unknown key"),
        Arguments.of(
            "misspelt emitter key",
            HEAD + "emitter:\n  frame_sise: 60B\n" + TARGETS,
            3,
            "emitter.frame_sise",
            "allowed here: endpoint, frames, frame_size"),
        Arguments.of(
            "size without a unit",
            HEAD + "emitter:\n  frame_size: 60\n" + TARGETS,
            3,
            "emitter.frame_size",
            "not a size with a unit"),
        Arguments.of(
            "duration without a unit",
            HEAD + "emitter:\n  interval: 50\n" + TARGETS,
            3,
            "emitter.interval",
            "not a duration with a unit"),
        Arguments.of(
            "frames out of range",
            HEAD + "emitter:\n  frames: 0\n" + TARGETS,
            3,
            "emitter.frames",
            "allowed: 1..1000000"),
        Arguments.of(
            "wrong type: list for a value",
            HEAD + "client:\n  concurrency: [1, 2]\n" + TARGETS,
            3,
            "client.concurrency",
            "must be a single value"),
        Arguments.of(
            "bad choice",
            HEAD + "emitter:\n  endpoint: websocket\n" + TARGETS,
            3,
            "emitter.endpoint",
            "not one of sse, chat"),
        Arguments.of(
            "bad boolean",
            HEAD + "client:\n  keep_alive: yes please\n" + TARGETS,
            3,
            "client.keep_alive",
            "not true or false"),
        Arguments.of(
            "unknown client profile",
            HEAD + "sweep:\n  profile: [curl, safari]\n" + TARGETS,
            3,
            "sweep.profile",
            "'safari' is not one of bare, curl, browser, openai-python, openai-node"),
        Arguments.of(
            "unknown encoding",
            HEAD + "emitter:\n  encoding: lz4\n" + TARGETS,
            3,
            "emitter.encoding",
            "'lz4' is not one of identity, gzip, deflate, br, zstd"),
        Arguments.of(
            "bad flush policy in a sweep",
            HEAD + "emitter:\n  encoding: gzip\nsweep:\n  flush: [each, sometimes]\n" + TARGETS,
            5,
            "sweep.flush",
            "valid: each, none, next, end, bytes:N or input:N"),
        Arguments.of(
            "sweep of an unknown setting",
            HEAD + "sweep:\n  payload: [60B]\n" + TARGETS,
            3,
            "sweep.payload",
            "unknown key"),
        Arguments.of(
            "sweep value that is not a list",
            HEAD + "sweep:\n  interval: 5ms\n" + TARGETS,
            3,
            "sweep.interval",
            "non-empty list"),
        Arguments.of(
            "bad value inside a sweep",
            HEAD + "sweep:\n  interval: [5ms, fast]\n" + TARGETS,
            3,
            "sweep.interval",
            "'fast' is not a duration"),
        Arguments.of("missing targets", HEAD + "runs: 2\n", 1, "targets", "required"),
        Arguments.of(
            "unknown target kind",
            HEAD + "targets:\n  - name: x\n    kind: proxy\n",
            4,
            "targets[0].kind",
            "not one of direct, relay, process, external"),
        Arguments.of(
            "unknown shaper",
            HEAD
                + "targets:\n  - name: x\n    kind: relay\n    shapers:\n      - bytethreshold=2KiB\n",
            6,
            "targets[0].shapers",
            "unknown shaper 'bytethreshold'"),
        Arguments.of(
            "shaper parameter out of range",
            HEAD + "targets:\n  - name: x\n    kind: relay\n    shapers: [timer=2m]\n",
            5,
            "targets[0].shapers",
            "a duration 1ms..60s"),
        Arguments.of(
            "external target not marked",
            HEAD + "targets:\n  - name: gw\n    kind: external\n    address: 127.0.0.1:8080\n",
            3,
            "targets[0].external",
            "measures only servers it started"),
        Arguments.of(
            "external target without reason",
            HEAD
                + "targets:\n  - name: gw\n    kind: external\n    address: 127.0.0.1:8080\n    external: true\n",
            3,
            "targets[0].reason",
            "required with external: true"),
        Arguments.of(
            "duplicate target names",
            HEAD + "targets:\n  - {name: a, kind: direct}\n  - {name: a, kind: direct}\n",
            4,
            "targets[1].name",
            "used by another target"),
        Arguments.of(
            "runs out of range", HEAD + TARGETS + "runs: 0\n", 4, "runs", "whole number 1..1000"),
        Arguments.of(
            "bad pacing tolerance",
            HEAD + TARGETS + "guards:\n  pacing_tolerance: soon\n",
            5,
            "guards.pacing_tolerance",
            "not a duration"),
        Arguments.of(
            "unknown guard key",
            HEAD + TARGETS + "guards:\n  certfy: {runs: 2}\n",
            5,
            "guards.certfy",
            "allowed here: pacing_tolerance, certify"),
        Arguments.of(
            "frame smaller than the frame format",
            HEAD + "emitter:\n  frame_size: 20B\n" + TARGETS,
            3,
            "emitter.frame_size",
            "allowed: 48B.."),
        Arguments.of(
            "unknown key in a target",
            HEAD + "targets:\n  - {name: a, kind: direct, colour: red}\n",
            3,
            "targets[0].colour",
            "allowed here: name, kind"),
        Arguments.of(
            "adaptive on an unknown target",
            HEAD
                + TARGETS
                + "adaptive:\n  target: nginx\n  parameter: frame_size\n  low: 60B\n  high: 4KiB\n",
            5,
            "adaptive.target",
            "not a target of this scenario"),
        Arguments.of(
            "bad scenario name", "name: my scenario!\n" + TARGETS, 1, "name", "letters, digits"),
        Arguments.of(
            "expect of a target the scenario lacks",
            HEAD + TARGETS + "flush_trigger_map: true\nexpect:\n  nginx: none\n",
            6,
            "expect.nginx",
            "'nginx' is not a target of this scenario (targets: direct)"),
        Arguments.of(
            "expect that is neither a kind nor a model",
            HEAD + TARGETS + "flush_trigger_map: true\nexpect:\n  direct: fast\n",
            6,
            "expect.direct",
            "neither an answer's kind (none, drain, byte-threshold"),
        Arguments.of(
            "expect with a parameter out of range",
            HEAD + TARGETS + "flush_trigger_map: true\nexpect:\n  direct: timer=2m\n",
            6,
            "expect.direct",
            "a duration 1ms..60s"),
        Arguments.of(
            "expect without the flush-trigger map",
            HEAD + TARGETS + "expect:\n  direct: none\n",
            4,
            "expect",
            "set flush_trigger_map: true"),
        Arguments.of(
            "expect_tolerance without expect",
            HEAD + TARGETS + "expect_tolerance: 5%\n",
            4,
            "expect_tolerance",
            "only with an expect: block"),
        Arguments.of(
            "stream longer than an hour",
            HEAD + "emitter:\n  frames: 100000\n  interval: 50ms\n" + TARGETS,
            4,
            "emitter.interval",
            "over one hour"),
        Arguments.of(
            "YAML syntax error", HEAD + "emitter: {frames: 41\n" + TARGETS, 3, "YAML syntax", ""),
        Arguments.of(
            "a sweep far over the cell limit",
            HEAD
                + "sweep:\n  frames: ["
                + range(1, 3001)
                + "]\n  think: ["
                + range(3000, 6000).replace(",", "ms,")
                + "ms]\n"
                + TARGETS,
            3,
            "sweep",
            "makes 9000000 cells (allowed: at most 1000)"),
        Arguments.of(
            "an overlong value",
            HEAD + "description: " + "x".repeat(20_000) + "\n" + TARGETS,
            2,
            "YAML syntax",
            "a value of 20000 characters (allowed: at most 16384)"),
        Arguments.of(
            "a config template outside the scenario's folder",
            HEAD + "targets:\n  - {name: p, kind: process, proxy: nginx, config: /etc/hostname}\n",
            3,
            "targets[0].config",
            "outside the scenario's folder"),
        Arguments.of(
            "sweeping frame_size of a chat stream",
            HEAD + "emitter: {endpoint: chat}\nsweep:\n  frame_size: [60B, 2KiB]\n" + TARGETS,
            4,
            "sweep.frame_size",
            "does nothing for endpoint: chat"),
        Arguments.of(
            "frame_size of a chat stream",
            HEAD + "emitter:\n  endpoint: chat\n  frame_size: 2KiB\n" + TARGETS,
            4,
            "emitter.frame_size",
            "does nothing for endpoint: chat"),
        Arguments.of(
            "bisecting frame_size of a chat stream",
            HEAD
                + "emitter: {endpoint: chat}\n"
                + TARGETS
                + "adaptive: {target: direct, parameter: frame_size, low: 60B, high: 4KiB}\n",
            5,
            "adaptive.parameter",
            "does nothing for endpoint: chat"),
        Arguments.of(
            "a Responses API stream over its cap",
            HEAD + "emitter:\n  endpoint: responses\n  frames: 5000\n  interval: 1ms\n" + TARGETS,
            4,
            "emitter.frames",
            "allowed: at most 2000"),
        Arguments.of(
            "tls on a process target (its template decides)",
            HEAD
                + "targets:\n  - {name: p, kind: process, proxy: nginx, config: scenarios/proxies/nginx-tls.conf, tls: true}\n",
            3,
            "targets[0].tls",
            "does not apply to kind process"),
        Arguments.of(
            "ca_file without tls",
            HEAD
                + "targets:\n  - {name: g, kind: external, external: true, reason: r, address: \"127.0.0.1:9\", "
                + "ca_file: ca.pem}\n",
            3,
            "targets[0].ca_file",
            "applies only with tls: true"),
        Arguments.of(
            "a request header the lab writes itself",
            HEAD + "client:\n  headers: {Content-Length: \"5\"}\n" + TARGETS,
            3,
            "client.headers.Content-Length",
            "written by the lab itself"),
        Arguments.of(
            "a placement without a cluster section",
            HEAD + "emitter: {on: a}\n" + TARGETS,
            2,
            "emitter.on",
            "applies only to a scenario with a cluster: section"),
        Arguments.of(
            "a cluster without the emitter's agent",
            HEAD
                + "client: {on: [b]}\n"
                + TARGETS
                + "cluster: {name: lab, join: [\"10.0.0.1:5800\"]}\n",
            5,
            "emitter.on",
            "the agent that runs the emitter"),
        Arguments.of(
            "a relay without its agent in a cluster",
            HEAD
                + "emitter: {on: a}\nclient: {on: [b]}\n"
                + "targets:\n  - {name: r, kind: relay, shapers: [nagle]}\ncluster: {name: lab, join: [\"10.0.0.1:5800\"]}\n",
            5,
            "targets[0].on",
            "the agent that runs this relay"),
        Arguments.of(
            "an external target in a cluster",
            HEAD
                + "emitter: {on: a}\nclient: {on: [b]}\n"
                + "targets:\n  - {name: g, kind: external, external: true, reason: r, address: \"127.0.0.1:9\"}\n"
                + "cluster: {name: lab, join: [\"10.0.0.1:5800\"]}\n",
            5,
            "targets[0].kind",
            "is not placed on agents yet"),
        Arguments.of(
            "a proxy without its agent in a cluster",
            HEAD
                + "emitter: {on: a}\nclient: {on: [b]}\n"
                + "targets:\n  - {name: p, kind: process, proxy: nginx, config: scenarios/proxies/nginx-gzip.conf}\n"
                + "cluster: {name: lab, join: [\"10.0.0.1:5800\"]}\n",
            5,
            "targets[0].on",
            "the agent that runs this process"),
        Arguments.of(
            "an agent named twice for the clients",
            HEAD
                + "emitter: {on: a}\nclient: {on: [b, b]}\n"
                + TARGETS
                + "cluster: {name: lab, join: [\"10.0.0.1:5800\"]}\n",
            3,
            "client.on[1]",
            "is named twice"),
        Arguments.of(
            "more targets than a scenario may start",
            HEAD + "targets:\n" + "  - {kind: relay, shapers: [nagle], name: r}\n".repeat(65),
            3,
            "targets",
            "65 targets (allowed: at most 64"),
        Arguments.of(
            "a cluster without agents to join",
            HEAD + "emitter: {on: a}\nclient: {on: [b]}\n" + TARGETS + "cluster: {name: lab}\n",
            6,
            "cluster.join",
            "required: the agents to join"));
  }

  /** "a,a+1,...,b-1" */
  static String range(int a, int b) {
    StringBuilder sb = new StringBuilder();
    for (int i = a; i < b; i++) sb.append(i == a ? "" : ",").append(i);
    return sb.toString();
  }

  /**
   * A template that listens where it says, not where the lab tells it, runs on loopback only: on a
   * veth path the scenario is refused as it is read, at the key, before any path or emitter is made
   * for it.
   */
  @Test
  void aTemplateWithoutListenHostIsRefusedForAVethPathAsTheScenarioIsRead(@TempDir Path dir)
      throws Exception {
    Files.writeString(
        dir.resolve("fixed.cfg"),
        Files.readString(Path.of("scenarios/proxies/haproxy-stock.cfg"))
            .replace("{{listen_host}}", "127.0.0.1"));
    String target = "targets:\n  - {name: p, kind: process, proxy: haproxy, config: fixed.cfg";
    Path file = dir.resolve("test.yaml");
    assertThat(ScenarioLoader.parse(file, HEAD + target + "}\n").targets()).hasSize(1);
    ScenarioError e =
        catchThrowableOfType(
            ScenarioError.class,
            () -> ScenarioLoader.parse(file, HEAD + target + ", path: veth}\n"));
    assertThat(e).as("a loopback-only template on a veth path").isNotNull();
    assertThat(e.messages()).hasSize(1);
    assertThat(e.messages().get(0))
        .startsWith(file + ":3:")
        .contains("targets[0].config")
        .contains("has no {{listen_host}}");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mistakes")
  void namesTheLineAndTheKey(String what, String yaml, int line, String key, String allowed) {
    ScenarioError e = catchThrowableOfType(ScenarioError.class, () -> ScenarioFixture.parse(yaml));
    assertThat(e).as("no error for: " + what).isNotNull();
    assertThat(e.messages()).as(what).hasSize(1);
    String m = e.messages().get(0);
    assertThat(m).as(what).startsWith("test.yaml:" + line + ":").contains(key).contains(allowed);
  }
}
