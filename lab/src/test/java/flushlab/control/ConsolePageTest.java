package flushlab.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import flushlab.Cdp;
import flushlab.LabFixture;
import flushlab.Pixels;
import flushlab.core.HostPort;
import flushlab.emitter.ChatFrameSource;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/**
 * The console page in headless Chromium: a stream through the direct path and a relay, live, then
 * the relay switched on the page.
 */
class ConsolePageTest {

  @Test
  void thePageShowsTheLabsFiguresAndARelaySwitchedToDrainAndFlushOnThePage() throws Exception {
    assumeTrue(
        Cdp.available(), "no " + Cdp.CHROMIUM + " here (.ci/run installs Debian's chromium)");
    try (LabFixture lab = new LabFixture()) {
      ControlServer control =
          new ControlServer(
              "127.0.0.1", 0, line -> {}, new HostPort("127.0.0.1", lab.emitter.port()));
      lab.vertx.deployVerticle(control).await(10, TimeUnit.SECONDS);
      HttpClient http = HttpClient.newHttpClient();
      HttpResponse<String> created =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + control.port() + "/proxies"))
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"name\":\"relay\",\"listen\":\"127.0.0.1:0\",\"upstream\":\"127.0.0.1:"
                              + lab.emitter.port()
                              + "\"}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(created.statusCode()).isEqualTo(201);

      try (Cdp page =
          new Cdp("http://127.0.0.1:" + control.port() + "/?autostart=1&tokens=30&delay=20")) {
        assertThat(page.waitFor("document.body.dataset.runsDone === '2'", 30_000))
            .as(
                "both streams ended on the page; errors: %s",
                page.eval("document.body.dataset.errors || ''"))
            .isTrue();
        assertThat(page.eval("document.body.dataset.errors || ''").asText()).isEmpty();
        for (String target : new String[] {"direct", "relay"}) {
          String panel = "document.querySelector('[data-target=\"" + target + "\"]')";
          assertThat(page.eval(panel + ".dataset.frames").asText()).isEqualTo("30");
          assertThat(page.eval(panel + ".dataset.fpr").asDouble())
              .as("%s frames per read", target)
              .isLessThan(1.5);
          assertThat(page.eval(panel + ".querySelector('.text').textContent").asText())
              .startsWith(ChatFrameSource.word(0) + " " + ChatFrameSource.word(1));
        }
        // the console's own host stalls, pushed once a second: a figure, never the placeholder
        assertThat(page.waitFor("document.body.dataset.hostStalls !== undefined", 5_000))
            .as("the live host-stalls figure")
            .isTrue();
        assertThat(page.eval("document.getElementById('stalls-figure').textContent").asText())
            .matches("none over 5 ms|\\d+ over 5 ms, .*");
        // the chart areas drew something
        byte[] png = page.screenshotPng();
        // kept with the build's other test output, not in /tmp where every run would leave one more
        Path saved =
            Files.createDirectories(Path.of("target", "screenshots")).resolve("console-page.png");
        Files.write(saved, png);
        System.out.println("console page screenshot: " + saved);
        BufferedImage shot = ImageIO.read(new ByteArrayInputStream(png));
        JsonNode rects =
            page.eval(
                "Array.from(document.querySelectorAll('.chart')).map(e => { const r = e.getBoundingClientRect();"
                    + " return [r.left, r.top, r.width, r.height].map(Math.round); })");
        assertThat(rects.size()).isEqualTo(2);
        for (JsonNode r : rects) {
          assertThat(
                  Pixels.brightnessSpread(
                      shot,
                      r.get(0).asInt() + 4,
                      r.get(1).asInt() + 4,
                      r.get(2).asInt() - 8,
                      r.get(3).asInt() - 8))
              .as("pixel spread in the chart at %s", r)
              .isGreaterThan(10);
        }

        // switch the relay to drain-and-flush on the page, as a presenter would, and stream again
        page.eval(
            "(() => { const s = document.querySelector('[data-target=\"relay\"] select'); s.value = '1';"
                + " s.dispatchEvent(new Event('change')); return true; })()");
        assertThat(
                page.waitFor(
                    "document.querySelector('[data-target=\"relay\"] .chain').textContent.includes('drain-and-flush')",
                    10_000))
            .isTrue();
        page.eval("document.getElementById('start').click()");
        assertThat(page.waitFor("document.body.dataset.runsDone === '4'", 30_000)).isTrue();
        assertThat(
                page.eval("document.querySelector('[data-target=\"relay\"]').dataset.fpr")
                    .asDouble())
            .as("the relay's frames per read after the switch")
            .isEqualTo(30.0);
        assertThat(
                page.eval("document.querySelector('[data-target=\"direct\"]').dataset.fpr")
                    .asDouble())
            .isLessThan(1.5);

        // a change through the API (as a Toxiproxy client makes it) shows on the page at the next
        // run
        HttpResponse<String> cork =
            http.send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + control.port() + "/proxies/relay/toxics"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"type\":\"cork\"}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(cork.statusCode()).isEqualTo(200);
        page.eval("document.getElementById('start').click()");
        assertThat(page.waitFor("document.body.dataset.runsDone === '6'", 30_000)).isTrue();
        assertThat(
                page.waitFor(
                    "document.querySelector('[data-target=\"relay\"] .chain').textContent.includes('cork')",
                    10_000))
            .as("the page shows the chain the API set")
            .isTrue();
      }
    }
  }
}
