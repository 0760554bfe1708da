package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import flushlab.HostStalls;
import flushlab.cli.Main;
import flushlab.core.Json;
import flushlab.relay.shaper.ShaperRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the `flushlab map` tests share: a seed drawn per class (printed; -Dflushlab.seed=N replays
 * it) for the hidden values, a results folder per test, and the checks an answer is held to (its
 * kind, and each value within 10 % of the hidden one). The tests are split by what they map so that
 * no one class of them outlasts the rest of the suite: built-in single mechanisms ({@link
 * MapCommandTest}), the timers ({@link MapTimersTest}), windows and pairs ({@link
 * MapWindowsAndPairsTest}), compressors ({@link MapCompressionTest}), and real proxies and the
 * user's own targets ({@link MapTargetsTest}).
 */
abstract class MapTestBase {
  static Random random;

  /**
   * What the last map printed on its way (each cell, each replay, each candidate refused): a failed
   * check shows it, since CI keeps only the failures of a suite, not its reports (a fresh-clone CI
   * run failed `oneLateInFrontOfAHoldIsToldFromTheHoldAlone` with a two-hold model and nothing said
   * of how it came to be given, 2026-12-07).
   */
  static String lastMapSaid = "";

  @BeforeAll
  static void seed(TestInfo info) {
    long seed = Long.getLong("flushlab.seed", System.nanoTime());
    String name = info.getTestClass().map(Class::getSimpleName).orElse("a map test");
    System.out.println(name + " seed " + seed + " (replay with -Dflushlab.seed=" + seed + ")");
    random = new Random(seed);
  }

  @TempDir Path dir;

  static int between(int lo, int hi) {
    return lo + random.nextInt(hi - lo + 1);
  }

  /** Runs `flushlab map --shape ...` and returns its JSON answer. */
  JsonNode map(String... shapes) throws Exception {
    List<String> target = new ArrayList<>();
    for (String s : shapes) {
      target.add("--shape");
      target.add(s);
    }
    return mapWith(target);
  }

  /**
   * Runs `flushlab map --no-verify` with these target flags and returns its JSON answer: these
   * tests hold the answer against the hidden chain itself, which says more than a replay of its
   * model would, in half the time. A two-stage answer is replayed all the same (it is only ever
   * given replayed); the tests of the replay map as users do, through {@link #mapReplayed}.
   */
  JsonNode mapWith(List<String> targetFlags) throws Exception {
    List<String> flags = new ArrayList<>(targetFlags);
    flags.add("--no-verify");
    return mapReplayed(flags);
  }

  /**
   * Runs `flushlab map` with these target flags as they are (its answer replayed, unless they say
   * --no-verify) and returns its JSON answer.
   */
  JsonNode mapReplayed(List<String> targetFlags) throws Exception {
    return mapReplayed(targetFlags, verdict -> false);
  }

  /**
   * As {@link #mapReplayed(List)}, but an answer {@code judged} accepts is judged even when it also
   * says this host stalled while its cells were measured: its finding stands on what the stall
   * could not have made (a cell that fell behind by seconds, not a spread of a few milliseconds).
   */
  JsonNode mapReplayed(List<String> targetFlags, Predicate<String> judged) throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "map",
                "--results",
                dir.resolve("results").toString(),
                "--json",
                dir.resolve("map.json").toString()));
    args.addAll(targetFlags);
    String shapes =
        String.join(" ", targetFlags.stream().filter(f -> !f.equals("--no-verify")).toList());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(args.toArray(String[]::new), new PrintStream(out), new PrintStream(err));
    // what the map said on its way (each replay, each exclusion) stays in the test's report: a run
    // that fails once in a suite is read from it
    System.out.print(out);
    lastMapSaid = out.toString();
    if (code != 0) HostStalls.skipIfSaidIn(err.toString());
    // an answer this host's stalls left inconclusive fails an --expect too: the stall is what to
    // report
    if (Files.exists(dir.resolve("map.json"))) {
      String verdict =
          Json.MAPPER.readTree(dir.resolve("map.json").toFile()).get("verdict").asText();
      if (!judged.test(verdict)) HostStalls.skipIfSaidIn(verdict);
    }
    assertThat(code).as(out + "\n" + err).isZero();
    JsonNode answer = Json.MAPPER.readTree(dir.resolve("map.json").toFile());
    System.out.println(
        "map "
            + shapes
            + " -> "
            + answer.get("verdict").asText()
            + " ("
            + answer.get("seconds").asDouble()
            + " s, "
            + answer.get("cell_count").asInt()
            + " cells)");
    return answer;
  }

  /**
   * A replayed answer's bundle (`--verify --repro`): every replayed cell carries one stream through
   * the target and one through the model, of the same frames, and report.html draws one chart a
   * cell; the README says the model was replayed and how it went.
   */
  static void replayIsInTheBundle(JsonNode answer, Path bundle) throws Exception {
    Matcher m =
        Pattern.compile("reproduces (\\d+) of (\\d+) cells").matcher(answer.get("replay").asText());
    assertThat(m.find()).as(answer.get("replay").asText()).isTrue();
    JsonNode cells = answer.get("replayed_cells");
    assertThat(cells).as("replayed_cells in map.json").isNotNull();
    assertThat(cells.size()).isEqualTo(Integer.parseInt(m.group(2)));
    for (JsonNode c : cells) {
      int onTarget = c.at("/target/recv_ms").size();
      assertThat(onTarget).as("the target's stream of %s", c.get("label").asText()).isPositive();
      assertThat(c.at("/model/recv_ms").size())
          .as("the model's stream of %s, as long as the target's", c.get("label").asText())
          .isEqualTo(onTarget);
      assertThat(c.path("difference").isNull() || c.path("difference").isMissingNode())
          .as("a verified replay's cell %s: %s", c.get("label").asText(), c.path("difference"))
          .isTrue();
    }
    String page = Files.readString(bundle.resolve("report.html"));
    assertThat(Pattern.compile("<div class=\"chart\" id=").matcher(page).results().count())
        .isEqualTo(cells.size());
    assertThat(Files.readString(bundle.resolve("README.md")))
        .contains("Replayed on the target's path")
        .contains("`report.html`");
  }

  /**
   * The answer's model is a chain `--shape` takes, matching {@code pattern}; each number it
   * captures within 10 % of the hidden value in the same place of {@code expected}.
   */
  static void modelIs(JsonNode answer, String pattern, double... expected) {
    JsonNode model = answer.get("model");
    assertThat(model.get("chain").isTextual())
        .as(
            "a model for "
                + answer.get("verdict").asText()
                + ": "
                + model
                + "; the map said:\n"
                + lastMapSaid)
        .isTrue();
    String chain = model.get("chain").asText();
    assertThat(ShaperRegistry.parseChain(chain)).as(chain).isNotEmpty();
    Matcher m = Pattern.compile(pattern).matcher(chain);
    assertThat(m.matches())
        .as(chain + " matches " + pattern + "; the map said:\n" + lastMapSaid)
        .isTrue();
    for (int i = 0; i < expected.length; i++) {
      assertThat(Double.parseDouble(m.group(i + 1)))
          .as("value %d of %s; the map said:\n%s", i + 1, chain, lastMapSaid)
          .isBetween(expected[i] * 0.9, expected[i] * 1.1);
    }
  }

  /**
   * Whether the answer is `inconclusive` for models that each reproduced every cell alike (the
   * issue's other right answer); when it is, one of them must match {@code pattern}, each number it
   * captures within 10 % of the hidden value in the same place of {@code expected}.
   */
  static boolean namedAmongAlike(JsonNode answer, String pattern, double... expected) {
    String verdict = answer.get("verdict").asText();
    // the chains, up to what follows them: a parenthesis (the cell that would tell them apart, or
    // that was measured and told nothing), a semicolon or the other client's answer; a chain has
    // none of those (s136 read "(frame_size=60B interval=391ms frames=8, where their simulations
    // part, was measured and both reproduce it)" as part of the last chain, and failed a right
    // answer)
    Matcher said = Pattern.compile("reproduce every cell alike: ([^(;—]*)").matcher(verdict);
    if (!answer.get("kind").asText().equals("inconclusive") || !said.find()) return false;
    List<String> chains = List.of(said.group(1).trim().split(", | and "));
    assertThat(chains)
        .as(verdict)
        .anySatisfy(
            chain -> {
              Matcher m = Pattern.compile(pattern).matcher(chain);
              assertThat(m.matches()).as(chain + " matches " + pattern).isTrue();
              for (int i = 0; i < expected.length; i++) {
                assertThat(Double.parseDouble(m.group(i + 1)))
                    .isBetween(expected[i] * 0.9, expected[i] * 1.1);
              }
            });
    return true;
  }

  /** The answer names {@code kind}; otherwise the failure shows its verdict and evidence. */
  static void kindIs(JsonNode answer, String kind) {
    assertThat(answer.get("kind").asText())
        .as(answer.get("verdict").asText() + "; evidence: " + answer.get("evidence"))
        .isEqualTo(kind);
  }

  static void within10Percent(JsonNode answer, String field, double expected) {
    assertThat(answer.get(field).isNumber()).as(field + " in " + answer).isTrue();
    assertThat(answer.get(field).asDouble())
        .as(field + " (expected %s): %s", expected, answer.get("verdict").asText())
        .isBetween(expected * 0.9, expected * 1.1);
  }
}
