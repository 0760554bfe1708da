package flushlab.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import flushlab.run.Outcome;
import flushlab.scenario.ScenarioFixture;
import org.junit.jupiter.api.Test;

/**
 * Squid in accelerator mode started by the lab streams a token stream one frame per read; nothing
 * left running after.
 */
class SquidTest {
  @Test
  void acceleratorModeStreams() throws Exception {
    RealProxiesTest.need(ProxyKind.SQUID);
    Outcome o =
        ScenarioFixture.run(
            RealProxiesTest.scenario(
                """
        name: squid
        emitter: {frames: 21, frame_size: 60B, interval: 20ms}
        targets:
          - {name: direct, kind: direct}
          - {name: squid, kind: process, proxy: squid, config: proxies/squid-accel.conf}
        runs: 1
        guards: {pacing_tolerance: 10ms, certify: {runs: 3, frames: 11, interval: 20ms}}
        flush_trigger_map: false
        """));
    BatchResult r = RealProxiesTest.row(o, "squid", 0);
    assertThat(r.errorCount()).as(r.oneLine()).isZero();
    assertThat(r.frames()).isEqualTo(21);
    assertThat(r.framesPerRead()).as(r.oneLine()).isLessThanOrEqualTo(1.2);
    assertThat(o.processes().get("squid").version()).contains("Squid Cache: Version 5");
    assertThat(o.processes().get("squid").effectiveConfig()).contains("http_port");
    ApacheTest.exited(o, "squid");
  }
}
