package flushlab.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import flushlab.run.Outcome;
import flushlab.scenario.ScenarioFixture;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Apache Traffic Server started by the lab from its sectioned templates: stock and cache-off stream
 * a token stream; its compress plugin at the default 'flush false' holds the gzip stream for a
 * browser to its end while a client that does not accept gzip is streamed, and 'flush true' streams
 * both; over TLS it speaks h2 and streams. Each server leaves no process, folder or listening port
 * behind.
 */
class TrafficServerTest {
  private static final Pattern PORT = Pattern.compile("server_ports STRING (\\d+):");
  private static final Pattern CACHE = Pattern.compile("(?m)^(\\S+)/cache 64M$");

  @Test
  void stockStreamsAndTheCompressPluginHoldsTheGzipStreamUnlessItFlushes() throws Exception {
    RealProxiesTest.need(ProxyKind.TRAFFICSERVER);
    Outcome o =
        ScenarioFixture.run(
            RealProxiesTest.scenario(
                """
        name: trafficserver
        emitter: {frames: 21, frame_size: 60B, interval: 20ms}
        sweep: {profile: [bare, browser]}
        targets:
          - {name: direct, kind: direct}
          - {name: stock, kind: process, proxy: trafficserver, config: proxies/trafficserver-stock.conf}
          - {name: nocache, kind: process, proxy: trafficserver, config: proxies/trafficserver-nocache.conf}
          - {name: compress, kind: process, proxy: trafficserver, config: proxies/trafficserver-compress.conf}
          - {name: compress-flush, kind: process, proxy: trafficserver, config: proxies/trafficserver-compress-flush.conf}
        runs: 1
        guards: {pacing_tolerance: 10ms, certify: {runs: 3, frames: 11, interval: 20ms}}
        flush_trigger_map: false
        """));
    for (String name : new String[] {"stock", "nocache", "compress-flush"}) {
      for (int cell = 0; cell < 2; cell++) {
        BatchResult r = RealProxiesTest.row(o, name, cell);
        assertThat(r.errorCount()).as(r.oneLine()).isZero();
        assertThat(r.frames()).isEqualTo(21);
        assertThat(r.framesPerRead())
            .as("%s cell %d: %s", name, cell, r.oneLine())
            .isLessThanOrEqualTo(1.2);
      }
    }
    assertThat(RealProxiesTest.row(o, "compress-flush", 1).dominantCoding().text())
        .isEqualTo("gzip");
    BatchResult bare = RealProxiesTest.row(o, "compress", 0);
    BatchResult browser = RealProxiesTest.row(o, "compress", 1);
    assertThat(bare.errorCount() + browser.errorCount()).isZero();
    assertThat(bare.dominantCoding())
        .as("not compressed for a client that does not accept it")
        .isNull();
    assertThat(bare.framesPerRead()).as(bare.oneLine()).isLessThanOrEqualTo(1.2);
    assertThat(browser.dominantCoding().text()).isEqualTo("gzip");
    assertThat(browser.frames()).isEqualTo(21);
    assertThat(browser.framesPerRead())
        .as("held to its end: " + browser.oneLine())
        .isGreaterThanOrEqualTo(10.0);
    assertThat(o.processes().get("stock").version()).startsWith("Traffic Server 9.");
    leftNothing(o, "stock", "nocache", "compress", "compress-flush");
  }

  @Test
  void overTlsItSpeaksH2AndStreams() throws Exception {
    RealProxiesTest.need(ProxyKind.TRAFFICSERVER);
    Outcome o =
        ScenarioFixture.run(
            RealProxiesTest.scenario(
                """
        name: trafficserver-tls
        emitter: {frames: 21, frame_size: 60B, interval: 20ms}
        sweep: {http: ["1.1", h2]}
        targets:
          - {name: direct, kind: direct}
          - {name: tls, kind: process, proxy: trafficserver, config: proxies/trafficserver-tls.conf}
        runs: 1
        guards: {pacing_tolerance: 10ms, certify: {runs: 3, frames: 11, interval: 20ms}}
        flush_trigger_map: false
        """));
    for (int cell = 0; cell < 2; cell++) {
      BatchResult r = RealProxiesTest.row(o, "tls", cell);
      assertThat(r.errorCount()).as(r.oneLine()).isZero();
      assertThat(r.frames()).isEqualTo(21);
      assertThat(r.framesPerRead()).as("cell %d: %s", cell, r.oneLine()).isLessThanOrEqualTo(1.2);
      assertThat(r.h2() != null).as("cell %d spoke h2", cell).isEqualTo(cell == 1);
    }
    leftNothing(o, "tls");
  }

  /**
   * The process has exited, its private folder is gone and nothing listens on its port any more.
   */
  private static void leftNothing(Outcome o, String... names) throws Exception {
    ApacheTest.exited(o, names);
    for (String name : names) {
      String text = o.processes().get(name).configText();
      Matcher port = PORT.matcher(text);
      Matcher cache = CACHE.matcher(text);
      assertThat(port.find() && cache.find())
          .as("%s's filled template names its port and folder", name)
          .isTrue();
      assertThat(Files.exists(Path.of(cache.group(1))))
          .as("%s's folder %s", name, cache.group(1))
          .isFalse();
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", Integer.parseInt(port.group(1))), 500);
        throw new AssertionError(name + " left port " + port.group(1) + " listening");
      } catch (ConnectException expected) {
        // nothing listens there
      }
    }
  }
}
