package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * `flushlab map` against built-in relays that hold for a time (a hold timer, a periodic clock, a
 * threshold or a timer, the kernel's cork), their settings drawn at random on every run (the seed
 * is printed; -Dflushlab.seed=N replays it): the map must name the kind and recover each value
 * within 10 %. Apart from {@link MapCommandTest} so that no one class of maps outlasts the rest of
 * the suite's tail (docs/TESTING.md).
 */
class MapTimersTest extends MapTestBase {
  /**
   * A hold of 150-400 ms, and half the time first-content after it (a gateway that holds until the
   * first token, behind a buffer with a timer): the hold lets a think's comments go before the
   * think ends (the think grows with the hold, up to 2 s), so the think cell tells the two apart,
   * and the model is the chain.
   */
  @Test
  void holdTimer() throws Exception {
    boolean thenFirstContent = between(0, 1) == 1;
    // past ~270 ms the think cell's think grows with the hold (a 400 ms one would hold its comments
    // anyway)
    int t = between(150, 400);
    JsonNode a = map("timer=" + t + "ms" + (thenFirstContent ? " -> first-content=any" : ""));
    kindIs(a, "timer");
    within10Percent(a, "timer_ms", t);
    // the 4 KiB cell's releases carry several hundred KB, read in many reads: still one release
    // each, and no threshold
    // (a hold under 150 ms, as short as 30, is drawn by MapWindowsAndPairsTest's hold then one-late
    // and the map tests of two stages)
    assertThat(a.get("threshold_bytes").isNull()).isTrue();
    double largest = 0;
    for (JsonNode c : a.get("cells"))
      largest =
          Math.max(largest, c.get("release_frames").asDouble() * c.get("frame_bytes").asDouble());
    assertThat(largest).as("bytes per release in the large-frame cell").isGreaterThan(64 * 1024);
    if (thenFirstContent) {
      assertThat(a.path("then").asText()).as(a.get("verdict").asText()).isEqualTo("first-content");
      modelIs(a, "timer=([0-9.]+)ms -> first-content=any", t);
    } else {
      assertThat(a.path("then").isNull() || a.path("then").isMissingNode())
          .as(a.get("verdict").asText())
          .isTrue();
      modelIs(a, "timer=([0-9.]+)ms", t);
    }
  }

  /**
   * One-late in front of a hold of 190-260 ms (a framework that writes each event when the next one
   * comes, behind a proxy's flush timer): on the map's own cells it releases as the hold alone, one
   * frame more or less a release, and the hold's model may reproduce them all; only a cell of
   * frames further apart than the hold shows each frame one interval late. The map measures that
   * cell before it gives the hold, and answers both stages, replayed (a chain bench answered
   * `one-late -> timer=227ms` with the hold alone, verified 5 of 5 cells, 2026-12-06). Where the 50
   * ms cell's releases already differ from the hold's by a frame (231 ms did, 220 did not), the
   * hold's model is refused and the pairs fitted are told apart by a cell every 300 ms, where a
   * hold's wait, not an interval's, tells one-late in front from a short hold in front. Four to
   * nine pairs reproduce the map's cells alike there, each replayed on every cell before that cell
   * (4.5 s a stream) is measured and replayed on each: more than the default 60 s on a host whose
   * replays are measured again after its stalls (two fresh-clone suites, 2026-12-07: four alike
   * with 17 s left, nine with the budget out before the two with one-late). The answer is what this
   * test holds; how fast a map answers, bench/map.sh.
   */
  @Test
  void oneLateInFrontOfAHoldIsToldFromTheHoldAlone() throws Exception {
    int t = between(190, 260);
    JsonNode a =
        mapReplayed(
            List.of("--shape", "one-late", "--shape", "timer=" + t + "ms", "--budget", "100s"));
    modelIs(a, "one-late -> timer=([0-9.]+)ms", t);
    assertThat(a.get("replay").asText()).startsWith("verified");
  }

  /**
   * A clock alone, mapped as users do (replayed): before it is given, it is held, to its own
   * values, to frames a little under its period apart, which a hold behind it would keep longer;
   * the clock alone reproduces that cell too, and no hold is named.
   */
  @Test
  void periodicTimer() throws Exception {
    int p = between(60, 300);
    JsonNode a = mapReplayed(List.of("--shape", "timer=" + p + "ms,periodic=true"));
    kindIs(a, "periodic-timer");
    within10Percent(a, "timer_ms", p);
    modelIs(a, "timer=([0-9.]+)ms,periodic=true", p);
    assertThat(a.get("replay").asText()).startsWith("verified");
    assertThat(a.get("cells").toString()).contains("frames=8\"");
  }

  /**
   * A hold behind a clock: the hold counts from when a frame came, and in every default cell the
   * oldest frame of a release waited most of the period in the clock, so the two release as the
   * clock alone (a chain bench answered `timer=178ms,periodic=true -> timer=55ms` with the clock,
   * verified 5 of 5 cells, 2026-12-06). Frames a little under the period apart meet the ticks a few
   * milliseconds after they came, and there the hold keeps them: the map measures that cell, and
   * answers both stages, replayed.
   */
  @Test
  void aHoldBehindAClockIsToldByFramesJustUnderItsPeriodApart() throws Exception {
    int p = between(120, 300);
    int h = between(30, (int) (0.6 * p));
    JsonNode a =
        mapReplayed(
            List.of("--shape", "timer=" + p + "ms,periodic=true", "--shape", "timer=" + h + "ms"));
    modelIs(a, "timer=([0-9.]+)ms,periodic=true -> timer=([0-9.]+)ms", p, h);
    assertThat(a.get("replay").asText()).startsWith("verified");
  }

  /**
   * A threshold or a timer behind a load balancer's idle timeout of 2-3.5 s, mapped as a user would
   * (replayed, with a bundle): no cell pauses long enough to show the timeout, so only the silent
   * stream beside the cells can; the model puts it first, its silence counted from the request, and
   * the replay cuts a silent stream on the model as long after its request.
   */
  @Test
  void thresholdOrTimerBehindAnIdleTimeout() throws Exception {
    int n = between(1000, 4000);
    int t = between(60, 300);
    int idle = between(2000, 3500);
    Path bundle = dir.resolve("bundle");
    JsonNode a =
        mapReplayed(
            List.of(
                "--shape",
                "idle-timeout=" + idle + "ms",
                "--shape",
                "threshold-or-timer,bytes=" + n + "B,after=" + t + "ms",
                "--repro",
                bundle.toString()));
    kindIs(a, "threshold-or-timer");
    within10Percent(a, "threshold_bytes", n);
    within10Percent(a, "timer_ms", t);
    assertThat(a.at("/idle/cut_ms").asDouble())
        .as(a.get("idle").toString())
        .isBetween(0.95 * idle, 1.05 * idle);
    modelIs(
        a,
        "idle-timeout=([0-9.]+)ms -> threshold-or-timer,bytes=(\\d+)B,after=([0-9.]+)ms",
        idle,
        n,
        t);
    assertThat(a.get("replay").asText())
        .startsWith("verified: the model idle-timeout=")
        .endsWith("its silent stream was cut as the target's was");
    assertThat(a.get("evidence").toString()).contains("silent stream: cut");
    replayIsInTheBundle(a, bundle);
  }

  /**
   * The kernel's TCP_CORK: a ~200 ms hold, and full segments (64 KiB on loopback) at once. The hold
   * read is the kernel's 200 ms ceiling plus its timer's slack and this host's scheduling: 205-212
   * ms on a quiet host, 215.1 ms once in a fresh clone's suite (2026-12-06); a quarter of a ceiling
   * above it is still nothing but the cork.
   */
  @Test
  void cork() throws Exception {
    JsonNode a = map("cork");
    kindIs(a, "cork");
    modelIs(a, "cork");
    assertThat(a.get("timer_ms").asDouble()).as(a.get("verdict").asText()).isBetween(190.0, 250.0);
  }

  /**
   * A hold slower than the cork's ceiling, then the cork, mapped as a user would (every answer
   * replayed): no one mechanism's model reproduces the cells (the map often reads a threshold or a
   * timer of ~650 KB or ~545 ms first, and its replay refuses that), so the map replays the hold
   * then the cork and gives it only as it reproduced every cell. 300-340 ms: releases farther apart
   * than the ceiling, each leaving alone ~210 ms later. Not always yet: the 4 KiB cell releases
   * ~650-720 KB at a time, which a map now and then reads whole on the target and in parts on the
   * model (360 ms: 175 frames a release against 4; 321 ms in a fresh clone's suite: 159 against 2),
   * and the replay refuses the right model there (docs/MAP.md). That case may leave the answer
   * inconclusive, and so may a clock of the hold's period then the cork, which can reproduce every
   * cell alike: then both are named.
   */
  @Test
  void aHoldThenTheCorkIsNamedAsBothOnceItsReplayReproducesTheTarget() throws Exception {
    int t = between(300, 340);
    JsonNode a = mapReplayed(List.of("--shape", "timer=" + t + "ms -> cork"));
    String verdict = a.get("verdict").asText();
    // the hold and a clock of the same period both reproduce every cell, the one that should tell
    // them too: both named, the other right answer (s149: `timer=311.4ms -> cork` and
    // `timer=311.4ms,periodic=true -> cork` for a hidden 302 ms)
    if (namedAmongAlike(a, "timer=([0-9.]+)ms -> cork", t)) return;
    if (a.get("kind").asText().equals("inconclusive")) {
      // Still open (issue 35): the 4 KiB cell's ~650 KB releases can reach the client in parts on
      // one side and whole
      // on the other (s43: 159 frames a release on the target, 2 on the model, T = 321). Then the
      // answer must be that
      // case exactly: the hold then the cork tried, its hold within 5 %, every cell reproduced but
      // that one.
      Matcher tried =
          Pattern.compile(
                  "\\(timer=([0-9.]+)ms -> cork reproduces (\\d+) of (\\d+) cells; frame_size=4096B interval=2ms "
                      + "frames=\\d+: frames per release \\d+ and \\d+\\)")
              .matcher(verdict);
      assertThat(tried.find()).as(verdict).isTrue();
      assertThat(Double.parseDouble(tried.group(1))).as(verdict).isBetween(0.95 * t, 1.05 * t);
      assertThat(Integer.parseInt(tried.group(2)))
          .as(verdict)
          .isEqualTo(Integer.parseInt(tried.group(3)) - 1);
      System.out.println(
          "MapTimersTest: timer="
              + t
              + "ms -> cork: the open case of a release read in parts on one side");
      return;
    }
    kindIs(a, "timer");
    assertThat(a.path("then").asText()).as(a.get("verdict").asText()).isEqualTo("cork");
    assertThat(a.get("timer_ms").asDouble())
        .as(a.get("verdict").asText())
        .isBetween(0.95 * t, 1.05 * t);
    modelIs(a, "timer=([0-9.]+)ms -> cork", t);
    assertThat(a.get("replay").asText())
        .startsWith("verified: the model timer=")
        .contains("-> cork reproduces");
  }
}
