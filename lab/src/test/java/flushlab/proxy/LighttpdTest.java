package flushlab.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.Await;
import flushlab.client.BatchResult;
import flushlab.run.Outcome;
import flushlab.scenario.ScenarioFixture;
import flushlab.targets.ProcessInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * lighttpd started by the lab from its two templates: stock (server.stream-response-body 0) holds a
 * token stream to its end, tuned (2) streams it; version and the parsed configuration recorded;
 * nothing left running after the run.
 */
class LighttpdTest {
  @Test
  void stockHoldsTheWholeStreamAndStreamResponseBody2StreamsIt() throws Exception {
    RealProxiesTest.need(ProxyKind.LIGHTTPD);
    Outcome o =
        ScenarioFixture.run(
            RealProxiesTest.scenario(
                """
        name: lighttpd
        emitter: {frames: 21, frame_size: 60B, interval: 20ms}
        targets:
          - {name: direct, kind: direct}
          - {name: stock, kind: process, proxy: lighttpd, config: proxies/lighttpd-stock.conf}
          - {name: streaming, kind: process, proxy: lighttpd, config: proxies/lighttpd-streaming.conf}
        runs: 1
        guards: {pacing_tolerance: 10ms, certify: {runs: 3, frames: 11, interval: 20ms}}
        flush_trigger_map: false
        """));
    BatchResult stock = RealProxiesTest.row(o, "stock", 0);
    BatchResult streaming = RealProxiesTest.row(o, "streaming", 0);
    assertThat(stock.errorCount() + streaming.errorCount()).isZero();
    assertThat(stock.framesPerRead()).as(stock.oneLine()).isGreaterThanOrEqualTo(19.0);
    assertThat(stock.ttftMs().p50()).as(stock.oneLine()).isGreaterThan(0.9 * 20 * 20);
    assertThat(streaming.framesPerRead()).as(streaming.oneLine()).isLessThanOrEqualTo(1.2);
    ProcessInfo info = o.processes().get("stock");
    assertThat(info.version()).contains("lighttpd/1.4");
    assertThat(info.configText()).contains("server.port").doesNotContain("{{");
    assertThat(info.effectiveConfig()).contains("proxy.server");
    // stopped with the run: SIGTERM, then (as for every proxy the lab starts) its whole process
    // group
    for (String name : new String[] {"stock", "streaming"}) {
      long pid = o.processes().get(name).pid();
      Await.until(
          name + " (pid " + pid + ") has exited",
          10_000,
          () -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
    }
  }

  /**
   * mod_deflate compresses what lighttpd buffers and leaves what it streams alone: with the stock
   * buffering a browser gets the stream gzipped at its end; with stream-response-body 2 it gets it
   * frame by frame, not compressed.
   */
  @Test
  void modDeflateCompressesTheBufferedResponseAndLeavesTheStreamedOneUncompressed()
      throws Exception {
    RealProxiesTest.need(ProxyKind.LIGHTTPD);
    boolean module = Files.exists(Path.of("/usr/lib/lighttpd/mod_deflate.so"));
    if (!module)
      System.out.println(
          "SKIPPED (LighttpdTest): no mod_deflate: apt-get install lighttpd-mod-deflate");
    Assumptions.assumeTrue(module, "no mod_deflate: apt-get install lighttpd-mod-deflate");
    Outcome o =
        ScenarioFixture.run(
            RealProxiesTest.scenario(
                """
        name: lighttpd-deflate
        emitter: {frames: 21, frame_size: 60B, interval: 20ms}
        client: {profile: browser}
        targets:
          - {name: direct, kind: direct}
          - {name: deflate, kind: process, proxy: lighttpd, config: proxies/lighttpd-deflate.conf}
          - {name: streaming-deflate, kind: process, proxy: lighttpd, config: proxies/lighttpd-streaming-deflate.conf}
        runs: 1
        guards: {pacing_tolerance: 10ms, certify: {runs: 3, frames: 11, interval: 20ms}}
        flush_trigger_map: false
        """));
    BatchResult buffered = RealProxiesTest.row(o, "deflate", 0);
    BatchResult streamed = RealProxiesTest.row(o, "streaming-deflate", 0);
    assertThat(buffered.errorCount() + streamed.errorCount()).isZero();
    assertThat(buffered.frames() + streamed.frames()).isEqualTo(42);
    assertThat(buffered.dominantCoding().text()).as(buffered.oneLine()).isEqualTo("gzip");
    assertThat(buffered.framesPerRead()).as(buffered.oneLine()).isGreaterThanOrEqualTo(19.0);
    assertThat(streamed.dominantCoding())
        .as("streamed uncompressed: " + streamed.oneLine())
        .isNull();
    assertThat(streamed.framesPerRead()).as(streamed.oneLine()).isLessThanOrEqualTo(1.2);
    ApacheTest.exited(o, "deflate", "streaming-deflate");
  }
}
