package flushlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import flushlab.cli.Main;
import flushlab.core.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `flushlab probe idle` against an idle-timeout relay whose timeout it is not told (drawn at random,
 * the seed printed; -Dflushlab.seed=N replays it): found within 5 %, and the keep-alive comments
 * that reset it reported; a relay with no timeout is never given one.
 */
class IdleProbeCommandTest {
  @TempDir
  Path dir;

  JsonNode probe(String... args) throws Exception {
    Path json = dir.resolve("idle.json");
    String[] all = new String[args.length + 4];
    all[0] = "probe";
    all[1] = "idle";
    System.arraycopy(args, 0, all, 2, args.length);
    all[args.length + 2] = "--json";
    all[args.length + 3] = json.toString();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(all, new PrintStream(out), new PrintStream(err));
    assertThat(code).as(out + "\n" + err).isZero();
    JsonNode a = Json.MAPPER.readTree(json.toFile());
    System.out.println("probe idle " + String.join(" ", args) + " -> " + a.get("verdict").asText() + " (" + a.get("seconds").asDouble() + " s)");
    return a;
  }

  @Test
  void aHiddenIdleTimeoutIsFoundWithin5PercentAndCommentsResetIt() throws Exception {
    long seed = Long.getLong("flushlab.seed", System.nanoTime());
    System.out.println("IdleProbeCommandTest seed " + seed + " (replay with -Dflushlab.seed=" + seed + ")");
    int hidden = 300 + new Random(seed).nextInt(1201);
    JsonNode a = probe("--shape", "idle-timeout=" + hidden + "ms");
    assertThat(a.get("idle_timeout_ms").asDouble()).as(a.get("verdict").asText()).isBetween(hidden * 0.95, hidden * 1.05);
    assertThat(a.get("keep_alives_reset").asBoolean()).as(a.get("verdict").asText()).isTrue();
  }

  @Test
  void aTargetWithoutATimeoutIsNeverGivenOne() throws Exception {
    JsonNode a = probe("--shape", "passthrough", "--budget", "4s");
    assertThat(a.get("idle_timeout_ms").isNull()).isTrue();
    assertThat(a.get("verdict").asText()).startsWith("none found within the budget");
  }
}
