package flushlab.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import flushlab.run.Outcome;
import flushlab.scenario.ScenarioFixture;
import org.junit.jupiter.api.Test;

/**
 * H2O started by the lab from both templates: proxy.reverse.url streams a token stream over
 * HTTP/1.1, and over h2 when it terminates TLS; nothing left running after.
 */
class H2oTest {
  @Test
  void proxyReverseStreamsOverHttp11AndH2() throws Exception {
    RealProxiesTest.need(ProxyKind.H2O);
    Outcome o =
        ScenarioFixture.run(
            RealProxiesTest.scenario(
                """
        name: h2o
        emitter: {frames: 21, frame_size: 60B, interval: 20ms}
        sweep: {http: ["1.1", h2]}
        targets:
          - {name: direct-tls, kind: direct, tls: true}
          - {name: h2o-tls, kind: process, proxy: h2o, config: proxies/h2o-tls.conf}
        runs: 1
        guards: {pacing_tolerance: 10ms, certify: {runs: 3, frames: 11, interval: 20ms}}
        flush_trigger_map: false
        """));
    for (int cell = 0; cell < 2; cell++) {
      BatchResult r = RealProxiesTest.row(o, "h2o-tls", cell);
      assertThat(r.errorCount()).as(r.oneLine()).isZero();
      assertThat(r.frames()).isEqualTo(21);
      assertThat(r.framesPerRead()).as("cell %d: %s", cell, r.oneLine()).isLessThanOrEqualTo(1.2);
      assertThat(r.h2() != null).as("cell %d spoke h2", cell).isEqualTo(cell == 1);
    }
    assertThat(o.processes().get("h2o-tls").version()).contains("h2o version 2.2");
    ApacheTest.exited(o, "h2o-tls");
    Outcome plain =
        ScenarioFixture.run(
            RealProxiesTest.scenario(
                """
        name: h2o-plain
        emitter: {frames: 21, frame_size: 60B, interval: 20ms}
        targets:
          - {name: direct, kind: direct}
          - {name: h2o, kind: process, proxy: h2o, config: proxies/h2o-stock.conf}
        runs: 1
        guards: {pacing_tolerance: 10ms, certify: {runs: 3, frames: 11, interval: 20ms}}
        flush_trigger_map: false
        """));
    BatchResult r = RealProxiesTest.row(plain, "h2o", 0);
    assertThat(r.errorCount()).as(r.oneLine()).isZero();
    assertThat(r.framesPerRead()).as(r.oneLine()).isLessThanOrEqualTo(1.2);
    ApacheTest.exited(plain, "h2o");
  }

  /**
   * The compress handler with event streams marked compressible holds each event until the next one
   * arrives, for a browser (brotli): every frame waits about one interval, though each read still
   * carries one frame; a client that does not accept a coding is streamed at once.
   */
  @Test
  void itsCompressHandlerHoldsEachEventOneIntervalForABrowser() throws Exception {
    RealProxiesTest.need(ProxyKind.H2O);
    Outcome o =
        ScenarioFixture.run(
            RealProxiesTest.scenario(
                """
        name: h2o-compress
        emitter: {frames: 21, frame_size: 60B, interval: 40ms}
        sweep: {profile: [bare, browser]}
        targets:
          - {name: direct, kind: direct}
          - {name: compress, kind: process, proxy: h2o, config: proxies/h2o-compress.conf}
        runs: 1
        guards: {pacing_tolerance: 10ms, certify: {runs: 3, frames: 11, interval: 20ms}}
        flush_trigger_map: false
        """));
    BatchResult bare = RealProxiesTest.row(o, "compress", 0);
    BatchResult browser = RealProxiesTest.row(o, "compress", 1);
    assertThat(bare.errorCount() + browser.errorCount()).isZero();
    assertThat(bare.frames() + browser.frames()).isEqualTo(42);
    assertThat(bare.dominantCoding()).isNull();
    assertThat(bare.emitToRecvMs().p50()).as(bare.oneLine()).isLessThan(10.0);
    assertThat(browser.dominantCoding()).as(browser.oneLine()).isNotNull();
    assertThat(browser.emitToRecvMs().p50())
        .as("one interval (40 ms) late: " + browser.oneLine())
        .isBetween(30.0, 60.0);
    ApacheTest.exited(o, "compress");
  }
}
