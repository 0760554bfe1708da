package flushlab.report.page;

import static flushlab.Cli.flushlab;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import flushlab.Cdp;
import flushlab.Cli.Ran;
import flushlab.HostStalls;
import flushlab.Pixels;
import flushlab.client.Staircase;
import flushlab.core.Json;
import flushlab.map.ShaperModel;
import flushlab.map.TriggerKind;
import flushlab.run.MapAnswer;
import flushlab.run.ReplayedCell;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pages of real results: two small runs (a byte threshold of 2 KiB, then of 512 B, beside the
 * direct path, over two frame sizes), their report.html, the compare page of the two, and both
 * opened in headless Chromium.
 */
class ReportPagesTest {
  @TempDir static Path tmp;
  static Path before;
  static Path after;

  static final String SCENARIO =
      """
      name: NAME
      emitter:
        frames: 30
        interval: 10ms
      sweep:
        frame_size: [60B, 600B]
      targets:
        - {name: direct, kind: direct}
        - {name: threshold, kind: relay, shapers: [byte-threshold=THRESHOLD]}
      runs: 2
      guards:
        pacing_tolerance: 20ms
        certify: {runs: 2, frames: 11, interval: 20ms, max_frames_per_read: 1.10}
      """;

  static Path runScenario(String name, String threshold) throws Exception {
    Path file = tmp.resolve(name + ".yaml");
    Files.writeString(file, SCENARIO.replace("NAME", name).replace("THRESHOLD", threshold));
    Path results = tmp.resolve("results-" + name);
    Ran r = flushlab("run", "--results", results.toString(), file.toString());
    assertThat(r.code()).as(r.out() + r.err()).isZero();
    try (Stream<Path> l = Files.list(results)) {
      return l.filter(Files::isDirectory).findFirst().orElseThrow();
    }
  }

  @BeforeAll
  static void twoRuns() throws Exception {
    before = runScenario("before", "2KiB");
    after = runScenario("after", "512B");
  }

  @Test
  void everyChartHasDataForEveryTarget() throws Exception {
    JsonNode results = ResultsFolder.read(before);
    List<Chart> charts = RunCharts.of(results);
    List<String> targets = List.of("direct", "threshold");
    assertThat(charts.stream().filter(c -> c.section().equals("heatmap")).map(Chart::title))
        .containsExactlyElementsOf(targets);
    for (Chart c : charts) {
      switch (c.section()) {
        case "heatmap" -> {
          JsonNode cells = c.option().path("series").get(0).path("data");
          assertThat(cells.size())
              .as("heatmap cells of %s", c.title())
              .isEqualTo(2); // two frame sizes
        }
        case "staircase" ->
            assertThat(c.seriesWithData())
                .as("staircase %s %s", c.group(), c.title())
                .contains("received", "emitted");
        case "releases" -> {
          // a target whose stream came in no more than two releases (held whole to its end) has
          // none between its first and last to draw; every other target has points
          List<String> expected =
              targets.stream().filter(t -> releases(results, c.group(), t) > 2).toList();
          assertThat(expected).as("some target released mid-stream in %s", c.group()).isNotEmpty();
          assertThat(c.seriesWithData())
              .as("releases %s", c.group())
              .containsExactlyInAnyOrderElementsOf(expected);
          assertThat(c.seriesNames()).containsExactlyInAnyOrderElementsOf(targets);
        }
        default ->
            assertThat(c.seriesWithData())
                .as("%s %s %s", c.section(), c.group(), c.title())
                .containsExactlyInAnyOrderElementsOf(targets);
      }
    }
    assertThat(charts.stream().filter(c -> c.section().equals("staircase")))
        .hasSize(4); // 2 cells x 2 targets
    assertThat(charts.stream().filter(c -> c.section().equals("latency")))
        .hasSize(6); // 2 cells x 3 measures
    assertThat(charts.stream().filter(c -> c.section().equals("releases"))).hasSize(2);
    // the 2 KiB threshold holds the 60 B frames: its staircase ends far right of its own emit line
    Chart stair =
        charts.stream()
            .filter(c -> c.section().equals("staircase") && c.title().equals("threshold"))
            .findFirst()
            .orElseThrow();
    JsonNode recv = stair.option().path("series").get(0).path("data");
    JsonNode emit = stair.option().path("series").get(1).path("data");
    assertThat(recv.get(0).get(0).asDouble() - emit.get(0).get(0).asDouble())
        .as("first frame held (ms)")
        .isGreaterThan(50);
  }

  /**
   * This host's stalls, as results.json keeps them beside a row's stream, are shaded across its
   * staircase at their times.
   */
  @Test
  void hostStallsAreShadedOnTheStaircaseAtTheirTimes() throws Exception {
    JsonNode results = ResultsFolder.read(before);
    for (JsonNode row : results.path("cells")) {
      assertThat(row.path("arrivals").path("host_stalls_ms").isArray())
          .as("every row says where this host stalled")
          .isTrue();
    }
    ObjectNode first = (ObjectNode) results.path("cells").get(0);
    ArrayNode spans = ((ObjectNode) first.path("arrivals")).putArray("host_stalls_ms");
    spans.addArray().add(40.0).add(88.5);
    List<Chart> charts = RunCharts.of(results);
    Chart stair =
        charts.stream()
            .filter(
                c ->
                    c.section().equals("staircase")
                        && c.group().equals(first.path("cell_label").asText())
                        && c.title().equals(first.path("target").asText()))
            .findFirst()
            .orElseThrow();
    JsonNode area = stair.option().path("series").get(0).path("markArea").path("data");
    assertThat(area.size()).isEqualTo(1);
    assertThat(area.get(0).get(0).path("xAxis").asDouble()).isEqualTo(40.0);
    assertThat(area.get(0).get(1).path("xAxis").asDouble()).isEqualTo(88.5);
    // the emit line carries no shading of its own
    assertThat(stair.option().path("series").get(1).has("markArea")).isFalse();
  }

  /**
   * Releases of the first complete stream of a row (the one its charts draw): its samples plus the
   * first and last.
   */
  private static int releases(JsonNode results, String cell, String target) {
    for (JsonNode row : results.path("cells")) {
      if (row.path("cell_label").asText().equals(cell)
          && row.path("target").asText().equals(target)) {
        return row.path("arrivals").path("release_bytes").size() + 2;
      }
    }
    return 0;
  }

  @Test
  void theReportIsWrittenWithTheRunRegeneratedWholeAndNeedsNoNetwork() throws Exception {
    Path page = before.resolve("report.html");
    String written = Files.readString(page);
    assertThat(written)
        .contains(
            "<title>flushlab: before</title>", "Frames per read", "Arrival staircase", "Summary");
    assertThat(written).doesNotContainPattern("(src|href)\\s*=\\s*[\"']?(https?:)?//");
    Files.delete(page);
    Ran r = flushlab("report", before.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(Files.readString(page)).isEqualTo(written);
    Ran bad = flushlab("report", tmp.resolve("nope").toString());
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("nope").contains("not a folder");
  }

  @Test
  void histogramLogsHoldOneUntaggedIntervalPerKeptRunAtItsRealTime() throws Exception {
    JsonNode results = ResultsFolder.read(before);
    for (String target : List.of("direct", "threshold")) {
      List<long[]> runs = new ArrayList<>();
      for (JsonNode row : results.path("cells")) {
        if (!row.path("target").asText().equals(target)) continue;
        for (JsonNode run : row.path("runs")) {
          if (!run.path("excluded").asBoolean())
            runs.add(
                new long[] {
                  run.path("started_epoch_ms").asLong(), run.path("ended_epoch_ms").asLong()
                });
        }
      }
      HistogramLogReader reader =
          new HistogramLogReader(before.resolve("hlog").resolve(target + ".gap.hlog").toString());
      int i = 0;
      for (EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; i++) {
        assertThat(h.getTag()).as("untagged, so HistogramLogProcessor's default reads it").isNull();
        // the log writes times as seconds with three decimals; reading them back may round down by
        // 1 ms
        assertThat(h.getStartTimeStamp()).isCloseTo(runs.get(i)[0], Assertions.within(1L));
        assertThat(h.getEndTimeStamp()).isGreaterThanOrEqualTo(h.getStartTimeStamp());
      }
      assertThat(i).as("intervals in %s's log", target).isEqualTo(runs.size());
    }
  }

  @Test
  void theComparePageHighlightsOnlyDifferencesBeyondTheNoise() throws Exception {
    List<ComparePage.Difference> diffs =
        ComparePage.differences(ResultsFolder.read(before), ResultsFolder.read(after));
    // 60 B frames: 2 KiB holds the 30-frame stream to its end (15 per read), 512 B about 8 a
    // release
    ComparePage.Difference fpr =
        diffs.stream()
            .filter(
                d ->
                    d.target().equals("threshold")
                        && d.measure().equals("frames per read")
                        && d.cell().equals("frame_size=60B"))
            .findFirst()
            .orElseThrow();
    assertThat(fpr.a()).isGreaterThan(fpr.b() * 1.5);
    assertThat(fpr.beyondNoise()).isTrue();
    // the direct path did not change: its frames per read stay within the floor, unless this host
    // stood still longer than the frames' 10 ms interval through a kept run of it (frames sent
    // through the stall are read together, as a proxy would give them: s270 on 2026-12-07)
    List<ComparePage.Difference> directMoved =
        diffs.stream()
            .filter(d -> d.target().equals("direct") && d.measure().equals("frames per read"))
            .filter(ComparePage.Difference::beyondNoise)
            .toList();
    if (!directMoved.isEmpty()) {
      for (Path folder : List.of(before, after))
        for (JsonNode row : ResultsFolder.read(folder).path("cells"))
          if (row.path("target").asText().equals("direct"))
            HostStalls.skipIfAKeptRunStalledOver(row, 10, "the direct path moved: " + directMoved);
    }
    assertThat(directMoved).isEmpty();
    Path page = tmp.resolve("compare.html");
    Ran r = flushlab("compare", before.toString(), after.toString(), "--out", page.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(Files.readString(page)).contains("Differences (B - A)", "class=\"beyond\"");
  }

  // --- headless Chromium -------------------------------------------------------------------

  static final String CHROMIUM = "/usr/bin/chromium";

  @Test
  void theReportDrawsEveryChartInHeadlessChromium() throws Exception {
    assumeTrue(
        Files.isExecutable(Path.of(CHROMIUM)),
        "no " + CHROMIUM + " here (.ci/run installs Debian's chromium)");
    checkInBrowser(before.resolve("report.html"), "report");
  }

  @Test
  void theComparePageDrawsEveryChartInHeadlessChromium() throws Exception {
    assumeTrue(
        Files.isExecutable(Path.of(CHROMIUM)),
        "no " + CHROMIUM + " here (.ci/run installs Debian's chromium)");
    Path page = tmp.resolve("compare-browser.html");
    assertThat(
            flushlab("compare", before.toString(), after.toString(), "--out", page.toString())
                .code())
        .isZero();
    checkInBrowser(page, "compare");
  }

  /**
   * A map's replay, as `map --repro` writes it: one staircase a cell with the target's stream and
   * the model's on the same axes (a cell the model reproduced, and one it did not, which the
   * chart's subtitle names), the emitted frames beside them, drawn in headless Chromium.
   */
  @Test
  void theReplayPageOverlaysTheTargetAndItsModelCellByCell() throws Exception {
    // a 200 ms hold: four frames every 50 ms leave together; the model holds the same way in the
    // first cell, not in the second
    List<Double> emitted = List.of(50.0, 100.0, 150.0, 200.0, 250.0, 300.0, 350.0, 400.0);
    List<Double> held = List.of(201.0, 201.0, 201.0, 201.0, 401.0, 401.0, 401.0, 401.0);
    List<Double> streamed = List.of(50.2, 100.2, 150.2, 200.2, 250.2, 300.2, 350.2, 400.2);
    MapAnswer answer =
        new MapAnswer(
            "relay timer=200ms",
            true,
            TriggerKind.TIMER,
            null,
            null,
            200.0,
            null,
            "timer ~200 ms",
            9.5,
            2,
            List.of(),
            List.of(),
            List.of(),
            null,
            new ShaperModel("timer=200ms", null),
            "not verified: the model timer=200ms reproduces 1 of 2 cells",
            null,
            null,
            null,
            List.of(
                new ReplayedCell(
                    "frame_size=60B interval=50ms",
                    null,
                    new Staircase(held, emitted),
                    new Staircase(held, emitted)),
                new ReplayedCell(
                    "frame_size=4096B interval=50ms",
                    "frames per read 4.00 on the target, 1.00 on the model",
                    new Staircase(held, emitted),
                    new Staircase(streamed, emitted))));
    List<Chart> charts = ReplayPage.charts(answer);
    assertThat(charts)
        .extracting(Chart::title)
        .containsExactly("frame_size=60B interval=50ms", "frame_size=4096B interval=50ms");
    for (Chart c : charts)
      assertThat(c.seriesWithData())
          .containsExactly("target received", "model received", "emitted");
    assertThat(charts.get(0).option().at("/title/subtext").asText()).isEqualTo("the model agrees");
    assertThat(charts.get(1).option().at("/title/subtext").asText())
        .isEqualTo("differs: frames per read 4.00 on the target, 1.00 on the model");
    // the model's second stream is drawn where it arrived, not where the target's did
    assertThat(charts.get(1).option().at("/series/1/data/0/0").asDouble()).isEqualTo(50.2);
    assertThat(charts.get(1).option().at("/series/0/data/0/0").asDouble()).isEqualTo(201.0);
    String html = ReplayPage.render(answer);
    assertThat(html)
        .contains("the model <code>timer=200ms</code>")
        .contains("reproduces 1 of 2 cells")
        .doesNotContainPattern("(src|href)\\s*=\\s*[\"']?(https?:)?//");
    Path page = tmp.resolve("replay.html");
    Files.writeString(page, html);
    assumeTrue(
        Files.isExecutable(Path.of(CHROMIUM)),
        "no " + CHROMIUM + " here (.ci/run installs Debian's chromium)");
    checkInBrowser(page, "replay");
  }

  /** Nothing replayed, no page. */
  @Test
  void aMapThatReplayedNothingHasNoReplayPage() {
    MapAnswer answer =
        new MapAnswer(
            "relay",
            true,
            TriggerKind.NONE,
            null,
            null,
            null,
            null,
            "none",
            9.5,
            0,
            List.of(),
            List.of(),
            List.of(),
            null,
            ShaperModel.none("streams"),
            null,
            null,
            null,
            null,
            List.of());
    assertThat(ReplayPage.render(answer)).isNull();
  }

  /**
   * One browser for the class's pages (each launch costs seconds of two shared cores), opened by
   * the first that needs it.
   */
  private static Cdp browser;

  @AfterAll
  static void closeBrowser() throws Exception {
    if (browser != null) browser.close();
  }

  /**
   * Opens the page with the network cut off (every host resolves to nothing, every proxy is a
   * closed port): the script must have drawn every chart, reported no error, and each chart's area
   * in the screenshot must not be blank (the spread of its pixels' brightness).
   */
  private static void checkInBrowser(Path page, String name) throws Exception {
    if (browser == null) {
      browser =
          new Cdp(
              "about:blank",
              List.of("--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9"));
    }
    metrics(1280, 2000);
    String url = page.toUri().toString();
    assertThat(browser.navigate(url, 30_000)).as("%s loaded", url).isTrue();
    // the page's script marks its body when it ran to its end, or when it met an error
    assertThat(
            browser.waitFor(
                "document.body.dataset.ready === 'true' || document.body.hasAttribute('data-errors')",
                30_000))
        .as("the page's script finished")
        .isTrue();
    String attrs =
        browser
            .eval(
                "Array.from(document.body.attributes).map(a => ' ' + a.name + '=\"' + a.value + '\"').join('')")
            .asText();
    assertThat(attrs)
        .as("the page's script ran to its end")
        .contains("data-ready=\"true\"")
        .doesNotContain("data-errors");
    int charts = countCharts(page);
    assertThat(attrs).contains("data-charts-drawn=\"" + charts + "\"");
    Matcher rm =
        Pattern.compile("\\[\"(chart\\d+)\",(\\d+),(\\d+),(\\d+),(\\d+)\\]").matcher(attrs);
    List<int[]> rects = new ArrayList<>();
    int bottom = 0;
    while (rm.find()) {
      int[] r = {
        Integer.parseInt(rm.group(2)),
        Integer.parseInt(rm.group(3)),
        Integer.parseInt(rm.group(4)),
        Integer.parseInt(rm.group(5))
      };
      rects.add(r);
      bottom = Math.max(bottom, r[1] + r[3]);
    }
    assertThat(rects).hasSize(charts);
    metrics(1280, bottom + 40);
    Path shot = tmp.resolve(name + ".png");
    Files.write(shot, browser.screenshotPng());
    BufferedImage img = ImageIO.read(shot.toFile());
    System.out.println(
        name
            + ": "
            + charts
            + " charts; screenshot "
            + shot
            + " ("
            + img.getWidth()
            + "x"
            + img.getHeight()
            + ")");
    for (int[] r : rects) {
      double sd = Pixels.brightnessSpread(img, r[0] + 8, r[1] + 8, r[2] - 16, r[3] - 16);
      assertThat(sd).as("pixel spread inside the chart at %d,%d", r[0], r[1]).isGreaterThan(10);
    }
    assertThat(Pixels.brightnessSpread(img, 0, 0, 4, 4))
        .as("a margin is blank, as a control")
        .isLessThan(1);
  }

  /** The page's viewport, as a window of that size would give it. */
  private static void metrics(int width, int height) throws Exception {
    browser.call(
        "Emulation.setDeviceMetricsOverride",
        Json.MAPPER
            .createObjectNode()
            .put("width", width)
            .put("height", height)
            .put("deviceScaleFactor", 1)
            .put("mobile", false));
  }

  private static int countCharts(Path page) throws Exception {
    Matcher m = Pattern.compile("<div class=\"chart\" id=").matcher(Files.readString(page));
    int n = 0;
    while (m.find()) n++;
    return n;
  }
}
