package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.RelayFixture;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.RequestPlan;
import flushlab.relay.Relay;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A slow client behind passthrough pauses upstream reads (no unbounded queue in the relay); behind
 * a bounded proxy buffer big enough for the body, upstream is never paused; a small one pauses
 * upstream at its cap.
 */
class ProxyBufferTest extends ShaperTestBase {
  static final String BULK = "total=8MiB&size=16KiB&interval=0ms";
  static final ClientOptions SLOW = ClientOptions.single().withSlowReaderPauseNanos(5_000_000L);

  private long upstreamPausesThrough(String shaper, long[] framesOut) throws Exception {
    Relay relay = RelayFixture.start(lab, shaper);
    try {
      BatchResult r =
          lab.measure(RequestPlan.get("http://127.0.0.1:" + relay.port() + "/sse?" + BULK), SLOW);
      assertThat(r.errorCount()).isZero();
      assertThat(r.lostFrames()).isZero();
      framesOut[0] = r.frames();
      return relay.upstreamPauses();
    } finally {
      lab.vertx.undeploy(relay.deploymentID()).await(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aSlowClientPausesUpstreamThroughPassthrough() throws Exception {
    long[] frames = new long[1];
    assertThat(upstreamPausesThrough("passthrough", frames)).isGreaterThan(0);
    assertThat(frames[0]).isEqualTo(512);
  }

  @Test
  void aProxyBufferLargerThanTheBodyNeverPausesUpstream() throws Exception {
    long[] frames = new long[1];
    assertThat(upstreamPausesThrough("proxy-buffer=64MiB", frames)).isZero();
    assertThat(frames[0]).isEqualTo(512);
  }

  @Test
  void aSmallProxyBufferPausesUpstreamAtItsCap() throws Exception {
    long[] frames = new long[1];
    assertThat(upstreamPausesThrough("proxy-buffer=64KiB", frames)).isGreaterThan(0);
  }
}
