package flushlab.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.Await;
import flushlab.client.BatchResult;
import flushlab.run.Outcome;
import flushlab.scenario.ScenarioFixture;
import org.junit.jupiter.api.Test;

/**
 * Varnish started by the lab: the built-in VCL streams a token stream (beresp.do_stream); with
 * beresp.do_gzip it holds the stream for every client: gzipped, to its end, for a browser; and for
 * the lab's bare client, which does not accept gzip, gunzipped on delivery and held all the same;
 * nothing left running after the run.
 */
class VarnishTest {
  @Test
  void builtInVclStreamsAndDoGzipHoldsTheStreamForEveryClient() throws Exception {
    RealProxiesTest.need(ProxyKind.VARNISH);
    Outcome o =
        ScenarioFixture.run(
            RealProxiesTest.scenario(
                """
        name: varnish
        emitter: {frames: 21, frame_size: 60B, interval: 20ms}
        sweep: {profile: [bare, browser]}
        targets:
          - {name: direct, kind: direct}
          - {name: stock, kind: process, proxy: varnish, config: proxies/varnish-stock.vcl}
          - {name: gzip, kind: process, proxy: varnish, config: proxies/varnish-gzip.vcl}
        runs: 1
        guards: {pacing_tolerance: 10ms, certify: {runs: 3, frames: 11, interval: 20ms}}
        flush_trigger_map: false
        """));
    for (int cell = 0; cell < 2; cell++) {
      BatchResult stock = RealProxiesTest.row(o, "stock", cell);
      assertThat(stock.errorCount()).as(stock.oneLine()).isZero();
      assertThat(stock.framesPerRead())
          .as("cell %d: %s", cell, stock.oneLine())
          .isLessThanOrEqualTo(1.2);
    }
    BatchResult bare = RealProxiesTest.row(o, "gzip", 0);
    BatchResult browser = RealProxiesTest.row(o, "gzip", 1);
    assertThat(bare.errorCount() + browser.errorCount()).isZero();
    assertThat(bare.dominantCoding())
        .as("not compressed for a client that does not accept it")
        .isNull();
    assertThat(bare.framesPerRead())
        .as("held though not compressed: " + bare.oneLine())
        .isGreaterThan(2 * RealProxiesTest.row(o, "stock", 0).framesPerRead());
    assertThat(browser.dominantCoding().text()).isEqualTo("gzip");
    assertThat(browser.framesPerRead()).as(browser.oneLine()).isGreaterThanOrEqualTo(10.0);
    assertThat(o.processes().get("stock").version()).contains("varnish-7");
    for (String name : new String[] {"stock", "gzip"}) {
      long pid = o.processes().get(name).pid();
      Await.until(
          name + " (pid " + pid + ") has exited",
          10_000,
          () -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
    }
  }
}
