package flushlab.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.LabTest;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.ClientProfile;
import flushlab.client.RequestPlan;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Real compressing proxies read as curl (no Accept-Encoding) and as a browser (gzip, deflate, br,
 * zstd): each passes curl's stream as it came, and treats the browser's as its compression does.
 * Every stream is read whole: the client decodes what it asked for as it arrives. The map of the
 * same proxies is `map.MapCompressingProxiesTest`.
 */
class CompressingProxiesTest extends LabTest {
  private static final int FRAMES = 30;
  private static final long INTERVAL_MS = 20;

  /** What a browser's stream looks like through each. */
  enum Seen {
    /** gzip, the whole stream in one read at its end. */
    HELD_WHOLE,
    /** gzip, each event at once. */
    STREAMED,
    /** gzip, each event held until the next arrives (one interval late). */
    ONE_EVENT_LATE,
    /** not compressed at all, each event at once. */
    NOT_COMPRESSED
  }

  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource({
    "NGINX, nginx-gzip.conf, HELD_WHOLE",
    "NGINX, nginx-gzip-buffering-off.conf, STREAMED",
    "HAPROXY, haproxy-compression.cfg, ONE_EVENT_LATE",
    "CADDY, caddy-encode.Caddyfile, NOT_COMPRESSED",
    "CADDY, caddy-encode-event-stream.Caddyfile, HELD_WHOLE",
    "CADDY, caddy-encode-min-length.Caddyfile, NOT_COMPRESSED"
  })
  void curlAndABrowserSeeWhatTheProxysCompressionDoes(ProxyKind kind, String template, Seen seen)
      throws Exception {
    assumeInstalled(kind);
    try (ProxyProcess p =
        ProxyProcess.start(
            kind, Path.of("scenarios/proxies", template), "127.0.0.1", lab.emitter.port())) {
      RequestPlan plan =
          RequestPlan.get(
              "http://127.0.0.1:"
                  + p.port()
                  + "/sse?frames="
                  + FRAMES
                  + "&size=60&interval="
                  + INTERVAL_MS
                  + "ms");
      // under the pacing guard and the hiccup meter: a run this host's stalls or contention merged
      // is measured once more
      long interval = INTERVAL_MS * 1_000_000L;
      BatchResult curl =
          whole(
              lab.measurePaced(
                  interval,
                  template + "'s process",
                  List.of(p.pid()),
                  plan.withProfile(ClientProfile.CURL),
                  ClientOptions.single()));
      BatchResult browser =
          whole(
              lab.measurePaced(
                  interval,
                  template + "'s process",
                  List.of(p.pid()),
                  plan.withProfile(ClientProfile.BROWSER),
                  ClientOptions.single()));
      System.out.printf(
          "CompressingProxiesTest: %s as curl: %s%n  as a browser: %s%n",
          template, curl.oneLine(), browser.oneLine());
      assertThat(curl.contentCodings())
          .as("curl sends no Accept-Encoding")
          .isEqualTo(Map.of("identity", 1));
      assertThat(curl.framesPerRead()).isLessThanOrEqualTo(1.1);
      assertThat(browser.decodedBodyBytes()).as("the decoded body").isEqualTo(FRAMES * 60L);
      switch (seen) {
        case HELD_WHOLE -> {
          assertThat(browser.contentCodings()).isEqualTo(Map.of("gzip", 1));
          assertThat(browser.readsWithFrames())
              .as("the stream arrives at its end")
              .isLessThanOrEqualTo(2);
        }
        case STREAMED -> {
          assertThat(browser.contentCodings()).isEqualTo(Map.of("gzip", 1));
          assertThat(browser.framesPerRead()).isLessThanOrEqualTo(1.1);
          assertThat(browser.emitToRecvMs().p50()).isLessThan(INTERVAL_MS / 2.0);
        }
        case ONE_EVENT_LATE -> {
          assertThat(browser.contentCodings()).isEqualTo(Map.of("gzip", 1));
          assertThat(browser.framesPerRead()).isLessThanOrEqualTo(1.1);
          assertThat(browser.emitToRecvMs().p50())
              .as("each event waits for the next")
              .isBetween(0.8 * INTERVAL_MS, 1.5 * INTERVAL_MS);
          assertThat(curl.emitToRecvMs().p50()).isLessThan(INTERVAL_MS / 2.0);
        }
        case NOT_COMPRESSED -> {
          assertThat(browser.contentCodings()).isEqualTo(Map.of("identity", 1));
          assertThat(browser.framesPerRead()).isLessThanOrEqualTo(1.1);
        }
      }
    }
  }

  static void assumeInstalled(ProxyKind kind) {
    boolean installed = ProxyProcess.locate(kind.binaryName) != null;
    if (!installed)
      System.out.println(
          "SKIPPED (CompressingProxiesTest): " + kind.binaryName + " is not installed");
    Assumptions.assumeTrue(installed, kind.binaryName + " is not installed");
  }

  private static BatchResult whole(BatchResult r) {
    assertThat(r.errorCount()).as(r.oneLine()).isZero();
    assertThat(r.frames()).isEqualTo(FRAMES);
    assertThat(r.lostFrames() + r.corruptFrames() + r.duplicateFrames() + r.reorderedFrames())
        .isZero();
    return r;
  }
}
