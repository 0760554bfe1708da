package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import flushlab.HostStalls;
import flushlab.cli.Main;
import flushlab.core.Json;
import flushlab.relay.shaper.ShaperRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * `flushlab map` against built-in relays whose settings it is not told: each is drawn at random on
 * every run (the seed is printed; -Dflushlab.seed=N replays it), and the map must name the kind and
 * recover each value within 10 %.
 */
class MapCommandTest extends MapTestBase {
  @Test
  void none() throws Exception {
    JsonNode a = mapWith(List.of("--shape", "passthrough", "--expect", "none"));
    assertThat(a.get("kind").asText()).isEqualTo("none");
    modelIs(a, "passthrough");
    assertThat(a.get("threshold_bytes").isNull()).isTrue();
    assertThat(a.get("timer_ms").isNull()).isTrue();
  }

  /**
   * Asked to expect `none` (as a CI pipeline would), a target that drains fails the command with
   * the difference; the answer is still written.
   */
  @Test
  void drain() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        Main.run(
            new String[] {
              "map",
              "--shape",
              "drain-and-flush",
              "--no-verify",
              "--expect",
              "none",
              "--results",
              dir.resolve("results").toString(),
              "--json",
              dir.resolve("map.json").toString()
            },
            new PrintStream(out),
            new PrintStream(err));
    HostStalls.skipIfSaidIn(err.toString());
    JsonNode a = Json.MAPPER.readTree(dir.resolve("map.json").toFile());
    HostStalls.skipIfSaidIn(a.get("verdict").asText());
    kindIs(a, "drain");
    modelIs(a, "drain-and-flush");
    assertThat(code).as(out + "\n" + err).isEqualTo(1);
    assertThat(err.toString()).contains("--expect none: not met: the answer is drain, not none");
  }

  /**
   * The relay counts the bytes it receives from upstream: chunk framing included, as
   * threshold_bytes does. A third of the time first-content is in front of it, a third behind: the
   * think cell's comments every millisecond pass the threshold before the think ends, so the map
   * sees whether something held them for the first frame, and the first frame's time says on which
   * side.
   */
  @Test
  void byteThreshold() throws Exception {
    int n = between(300, 8000);
    int firstContent = between(0, 2); // 0 none, 1 in front, 2 behind
    String threshold = "byte-threshold=" + n + "B";
    JsonNode a =
        firstContent == 0
            ? map(threshold)
            : firstContent == 1
                ? map("first-content=any", threshold)
                : map(threshold, "first-content=any");
    kindIs(a, "byte-threshold");
    within10Percent(a, "threshold_bytes", n);
    assertThat(a.get("threshold_body_bytes").asDouble())
        .isLessThan(a.get("threshold_bytes").asDouble());
    if (firstContent == 0) {
      modelIs(a, "byte-threshold=(\\d+)B", n);
      assertThat(a.get("before").isNull() && a.get("then").isNull())
          .as(a.get("verdict").asText())
          .isTrue();
    } else {
      // behind the threshold, the first frame waits in it, unless the comments had nearly filled it
      // (a suite run: 2.9 ms
      // after the think, behind 2208 B): then the answer is first-content in front, and the hidden
      // order alike
      String behind = "byte-threshold=(\\d+)B -> first-content=any";
      boolean late = a.get("then").asText("").equals("first-content");
      if (firstContent == 1)
        assertThat(late)
            .as("in front, the first frame goes at once: " + a.get("verdict").asText())
            .isFalse();
      modelIs(a, late ? behind : "first-content=any -> byte-threshold=(\\d+)B", n);
      if (!late)
        assertThat(a.at("/model/alike").toString())
            .as("the other order alike")
            .contains(" -> first-content=any");
    }
    // the model, given to --shape as printed, is a relay: the map replays it by default
    // (MapTimersTest, MapCompressionTest do),
    // so the second map of it that stood here is left to them
    assertThat(ShaperRegistry.parseChain(a.get("model").get("chain").asText()))
        .hasSize(firstContent == 0 ? 1 : 2);
    assertThat(a.get("timer_ms").isNull()).isTrue();
  }

  /**
   * Each event held until the next, behind a path latency it is not told (0-20 ms): named one-late
   * from any frames and intervals, never a hold timer of one interval.
   */
  @Test
  void oneEventLateIsNamedNotATimer() throws Exception {
    int latency = between(0, 20);
    JsonNode a = latency == 0 ? map("one-late") : map("latency=" + latency + "ms", "one-late");
    kindIs(a, "one-late");
    assertThat(a.get("timer_ms").isNull()).isTrue();
    modelIs(a, "one-late");
  }

  /**
   * Frames stream, but the comments sent through a think arrive only with the first frame:
   * first-content, not none.
   */
  @Test
  void holdingEverythingBeforeTheFirstFrameIsNamedFirstContent() throws Exception {
    JsonNode a = map("first-content=any");
    kindIs(a, "first-content");
    modelIs(a, "first-content=any");
  }

  /** A noisy path in front: latency with jitter (order kept) does not move a byte threshold. */
  @Test
  void byteThresholdBehindLatencyWithJitter() throws Exception {
    int n = between(1000, 6000);
    JsonNode a = map("latency=3ms,jitter=1ms", "byte-threshold=" + n + "B");
    kindIs(a, "byte-threshold");
    within10Percent(a, "threshold_bytes", n);
  }
}
