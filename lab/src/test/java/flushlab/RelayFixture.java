package flushlab;

import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.RequestPlan;
import flushlab.relay.Relay;
import flushlab.relay.RelayLog;
import flushlab.relay.RelayOptions;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Starts relays in front of a {@link LabFixture}'s emitter and measures through them. */
public final class RelayFixture {
  private RelayFixture() {}

  public static Relay start(LabFixture lab, RelayOptions options) throws Exception {
    Relay relay = new Relay(options, RelayLog.SILENT);
    lab.vertx.deployVerticle(relay).await(10, TimeUnit.SECONDS);
    return relay;
  }

  public static Relay start(LabFixture lab, String... shapers) throws Exception {
    return start(lab, RelayOptions.loopback(lab.emitter.port(), List.of(shapers)));
  }

  /** Measures one request of the given /sse query through a fresh relay with these shapers. */
  public static BatchResult through(
      LabFixture lab, String query, ClientOptions options, String... shapers) throws Exception {
    Relay relay = start(lab, shapers);
    try {
      return lab.measure(
          RequestPlan.get("http://127.0.0.1:" + relay.port() + "/sse?" + query), options);
    } finally {
      lab.vertx.undeploy(relay.deploymentID()).await(10, TimeUnit.SECONDS);
    }
  }

  public static BatchResult through(LabFixture lab, String query, String... shapers)
      throws Exception {
    return through(lab, query, ClientOptions.single(), shapers);
  }
}
