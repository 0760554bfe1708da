package flushlab.relay;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.Await;
import flushlab.LabTest;
import flushlab.RelayFixture;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.RequestPlan;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pooled upstream connections are reused by the next client connection; fresh ones never are. Seed
 * 001 found that this difference alone can look like a difference between proxies.
 */
class UpstreamPoolingTest extends LabTest {

  private static int idleUpstreams(Relay relay) {
    try {
      return relay.idleUpstreams().await(5, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("the relay did not say how many upstreams it holds idle", e);
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aSecondClientConnectionReusesTheUpstreamOnlyWhenPooled(boolean pooled) throws Exception {
    Relay relay =
        RelayFixture.start(
            lab,
            RelayOptions.loopback(lab.emitter.port(), List.of("passthrough"))
                .withPoolUpstream(pooled));
    try {
      // keep-alive requests, so the emitter keeps the upstream connection open after each response
      RequestPlan plan =
          RequestPlan.get(
              "http://127.0.0.1:" + relay.port() + "/sse?frames=5&size=60&interval=1ms");
      ClientOptions one = ClientOptions.single().withKeepAlive(true);
      BatchResult first = lab.measure(plan, one);
      assertThat(first.streamsOk()).isEqualTo(1);
      if (pooled) {
        // the first client connection closed: wait (on the relay's own state) until its upstream is
        // back in the pool
        Await.until(
            "the relay pooled the first connection's upstream",
            10_000,
            () -> idleUpstreams(relay) > 0);
      }
      BatchResult second = lab.measure(plan, one);
      assertThat(second.streamsOk()).isEqualTo(1);
      assertThat(second.frames()).isEqualTo(5);
      assertThat(relay.pooledReuses().await(5, TimeUnit.SECONDS)).isEqualTo(pooled ? 1L : 0L);
    } finally {
      lab.vertx.undeploy(relay.deploymentID()).await(10, TimeUnit.SECONDS);
    }
  }
}
