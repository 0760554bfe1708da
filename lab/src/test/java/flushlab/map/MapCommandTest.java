package flushlab.map;

import com.fasterxml.jackson.databind.JsonNode;
import flushlab.cli.Main;
import flushlab.HostStalls;
import flushlab.core.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * `flushlab map` against built-in relays whose settings it is not told: each is drawn at random
 * on every run (the seed is printed; -Dflushlab.seed=N replays it), and the map must name the
 * kind and recover each value within 10 %.
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

  /** Asked to expect `none` (as a CI pipeline would), a target that drains fails the command with the difference; the answer is still written. */
  @Test
  void drain() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(new String[] {"map", "--shape", "drain-and-flush", "--expect", "none", "--results", dir.resolve("results").toString(),
        "--json", dir.resolve("map.json").toString()}, new PrintStream(out), new PrintStream(err));
    HostStalls.skipIfSaidIn(err.toString());
    JsonNode a = Json.MAPPER.readTree(dir.resolve("map.json").toFile());
    HostStalls.skipIfSaidIn(a.get("verdict").asText());
    kindIs(a, "drain");
    modelIs(a, "drain-and-flush");
    assertThat(code).as(out + "\n" + err).isEqualTo(1);
    assertThat(err.toString()).contains("--expect none: not met: the answer is drain, not none");
  }

  /** The relay counts the bytes it receives from upstream: chunk framing included, as threshold_bytes does. */
  @Test
  void byteThreshold() throws Exception {
    int n = between(300, 8000);
    JsonNode a = map("byte-threshold=" + n + "B");
    kindIs(a, "byte-threshold");
    within10Percent(a, "threshold_bytes", n);
    assertThat(a.get("threshold_body_bytes").asDouble()).isLessThan(a.get("threshold_bytes").asDouble());
    modelIs(a, "byte-threshold=(\\d+)B", n);
    // the model, given to --shape as printed, is mapped as the same mechanism at the same size
    String model = a.get("model").get("chain").asText();
    JsonNode again = map(model);
    assertThat(again.get("kind").asText()).as("the model " + model + ": " + again.get("verdict").asText()).isEqualTo("byte-threshold");
    within10Percent(again, "threshold_bytes", n);
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

  /** Frames stream, but the comments sent through a think arrive only with the first frame: first-content, not none. */
  @Test
  void holdingEverythingBeforeTheFirstFrameIsNamedFirstContent() throws Exception {
    JsonNode a = map("first-content=any");
    kindIs(a, "first-content");
    modelIs(a, "first-content=any");
  }

  @Test
  void holdTimer() throws Exception {
    int t = between(30, 400);
    JsonNode a = map("timer=" + t + "ms");
    kindIs(a, "timer");
    within10Percent(a, "timer_ms", t);
    modelIs(a, "timer=([0-9.]+)ms", t);
  }

  /**
   * Its releases carry several hundred KB (the large-frame cell), read in many reads: still one
   * release each, and no threshold. Timers up to 300 ms (releases up to ~600 KB): with the suite's
   * three classes at once a 390 ms timer's ~800 KB releases reached the client in parts a few ms
   * apart, which no single mechanism fits (the map said inconclusive). Releases split on their way
   * are the map's to learn (issue 35), not this test's to hide by retrying.
   */
  @Test
  void holdTimerWithReleasesOver64KiB() throws Exception {
    int t = between(150, 300);
    JsonNode a = map("timer=" + t + "ms");
    kindIs(a, "timer");
    within10Percent(a, "timer_ms", t);
    assertThat(a.get("threshold_bytes").isNull()).isTrue();
    double largest = 0;
    for (JsonNode c : a.get("cells")) largest = Math.max(largest, c.get("release_frames").asDouble() * c.get("frame_bytes").asDouble());
    assertThat(largest).as("bytes per release in the large-frame cell").isGreaterThan(64 * 1024);
  }

  @Test
  void periodicTimer() throws Exception {
    int p = between(60, 300);
    JsonNode a = map("timer=" + p + "ms,periodic=true");
    kindIs(a, "periodic-timer");
    within10Percent(a, "timer_ms", p);
    modelIs(a, "timer=([0-9.]+)ms,periodic=true", p);
  }

  @Test
  void thresholdOrTimer() throws Exception {
    int n = between(1000, 4000);
    int t = between(60, 300);
    // replayed (--verify): the model, a relay with both, reproduces every cell the target showed
    JsonNode a = mapWith(List.of("--shape", "threshold-or-timer,bytes=" + n + "B,after=" + t + "ms", "--verify"));
    kindIs(a, "threshold-or-timer");
    within10Percent(a, "threshold_bytes", n);
    within10Percent(a, "timer_ms", t);
    modelIs(a, "threshold-or-timer,bytes=(\\d+)B,after=([0-9.]+)ms", n, t);
    assertThat(a.get("replay").asText()).startsWith("verified: the model threshold-or-timer,bytes=");
  }

  /** The kernel's TCP_CORK: a ~200 ms hold, and full segments (64 KiB on loopback) at once. */
  @Test
  void cork() throws Exception {
    JsonNode a = map("cork");
    kindIs(a, "cork");
    modelIs(a, "cork");
    assertThat(a.get("timer_ms").asDouble()).as(a.get("verdict").asText()).isBetween(190.0, 215.0);
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
