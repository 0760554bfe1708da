package flushlab.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.Await;
import flushlab.client.BatchResult;
import flushlab.run.Outcome;
import flushlab.scenario.ScenarioFixture;
import flushlab.targets.ProcessInfo;
import org.junit.jupiter.api.Test;

/**
 * Apache httpd started by the lab: mod_proxy_http streams a token stream stock and with
 * flushpackets=on; terminating TLS with mod_http2 (its stock H2OutputBuffering on) it streams over
 * h2 too; version and run configuration recorded; nothing left running after the run.
 */
class ApacheTest {
  static void exited(Outcome o, String... names) throws InterruptedException {
    for (String name : names) {
      long pid = o.processes().get(name).pid();
      Await.until(
          name + " (pid " + pid + ") has exited",
          10_000,
          () -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
    }
  }

  @Test
  void modProxyHttpStreamsStockWithFlushpacketsAndOverH2() throws Exception {
    RealProxiesTest.need(ProxyKind.APACHE2);
    Outcome o =
        ScenarioFixture.run(
            RealProxiesTest.scenario(
                """
        name: apache
        emitter: {frames: 21, frame_size: 60B, interval: 20ms}
        targets:
          - {name: direct, kind: direct}
          - {name: stock, kind: process, proxy: apache2, config: proxies/apache2-stock.conf}
          - {name: flushpackets, kind: process, proxy: apache2, config: proxies/apache2-flushpackets.conf}
        runs: 1
        guards: {pacing_tolerance: 10ms, certify: {runs: 3, frames: 11, interval: 20ms}}
        flush_trigger_map: false
        """));
    for (String t : new String[] {"stock", "flushpackets"}) {
      BatchResult r = RealProxiesTest.row(o, t, 0);
      assertThat(r.errorCount()).as(t + ": " + r.oneLine()).isZero();
      assertThat(r.frames()).isEqualTo(21);
      assertThat(r.framesPerRead()).as(t + ": " + r.oneLine()).isLessThanOrEqualTo(1.2);
    }
    ProcessInfo info = o.processes().get("stock");
    assertThat(info.version()).contains("Apache/2.4");
    assertThat(info.configText()).contains("ProxyPass").doesNotContain("{{");
    assertThat(info.effectiveConfig()).contains("ServerRoot").contains("proxy_http_module");
    exited(o, "stock", "flushpackets");

    Outcome h2 =
        ScenarioFixture.run(
            RealProxiesTest.scenario(
                """
        name: apache-h2
        emitter: {frames: 21, frame_size: 60B, interval: 20ms}
        client: {http: h2}
        targets:
          - {name: direct-tls, kind: direct, tls: true}
          - {name: apache-h2, kind: process, proxy: apache2, config: proxies/apache2-h2.conf}
          - {name: apache-h2-buffering-off, kind: process, proxy: apache2, config: proxies/apache2-h2-buffering-off.conf}
        runs: 1
        guards: {pacing_tolerance: 10ms, certify: {runs: 3, frames: 11, interval: 20ms}}
        flush_trigger_map: false
        """));
    for (String t : new String[] {"apache-h2", "apache-h2-buffering-off"}) {
      BatchResult r = RealProxiesTest.row(h2, t, 0);
      assertThat(r.errorCount()).as(t + ": " + r.oneLine()).isZero();
      assertThat(r.h2()).as(t + " spoken over h2").isNotNull();
      assertThat(r.framesPerRead()).as(t + ": " + r.oneLine()).isLessThanOrEqualTo(1.2);
    }
    exited(h2, "apache-h2", "apache-h2-buffering-off");
  }

  /**
   * mod_deflate on event streams: a browser gets gzip, still one frame per read (mod_proxy_http
   * flushes, and the filter flushes with it).
   */
  @Test
  void modDeflateStreamsGzipToABrowser() throws Exception {
    RealProxiesTest.need(ProxyKind.APACHE2);
    Outcome o =
        ScenarioFixture.run(
            RealProxiesTest.scenario(
                """
        name: apache-deflate
        emitter: {frames: 21, frame_size: 60B, interval: 20ms}
        client: {profile: browser}
        targets:
          - {name: direct, kind: direct}
          - {name: deflate, kind: process, proxy: apache2, config: proxies/apache2-deflate.conf}
        runs: 1
        guards: {pacing_tolerance: 10ms, certify: {runs: 3, frames: 11, interval: 20ms}}
        flush_trigger_map: false
        """));
    BatchResult r = RealProxiesTest.row(o, "deflate", 0);
    assertThat(r.errorCount()).as(r.oneLine()).isZero();
    assertThat(r.frames()).isEqualTo(21);
    assertThat(r.dominantCoding().text()).as(r.oneLine()).isEqualTo("gzip");
    assertThat(r.framesPerRead()).as(r.oneLine()).isLessThanOrEqualTo(1.2);
    exited(o, "deflate");
  }
}
