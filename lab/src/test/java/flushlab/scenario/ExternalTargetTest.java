package flushlab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import flushlab.FreePort;
import flushlab.core.Json;
import flushlab.core.LabVertx;
import flushlab.relay.Relay;
import flushlab.relay.RelayLog;
import flushlab.relay.RelayOptions;
import flushlab.report.Environment;
import flushlab.report.RunReport;
import flushlab.run.Outcome;
import flushlab.run.TargetCellResult;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The lab refuses a server it did not start unless marked, and records why a marked one is
 * measured.
 */
class ExternalTargetTest {

  @Test
  void anUnmarkedExternalTargetIsRefused() {
    ScenarioError e =
        catchThrowableOfType(
            ScenarioError.class,
            () ->
                ScenarioFixture.parse(
                    """
        name: ext
        targets:
          - {name: gw, kind: external, address: 127.0.0.1:8080}
        """));
    assertThat(e.messages())
        .singleElement()
        .asString()
        .contains("targets[0].external")
        .contains("measures only servers it started")
        .contains("external: true");
  }

  @Test
  void aMarkedExternalTargetIsMeasuredAndItsReasonRecorded() throws Exception {
    int emitterPort;
    emitterPort = FreePort.forALaterServer();
    // "someone else's gateway": a relay in another Vert.x, forwarding to where the lab's emitter
    // will listen
    Vertx other = LabVertx.create(1);
    try {
      Relay gateway =
          new Relay(RelayOptions.loopback(emitterPort, List.of("passthrough")), RelayLog.SILENT);
      other.deployVerticle(gateway).await(10, TimeUnit.SECONDS);
      Scenario s =
          ScenarioFixture.parse(
              """
          name: ext
          emitter: {listen: 127.0.0.1:%d, frames: 10, interval: 10ms}
          targets:
            - {name: direct, kind: direct}
            - {name: gw, kind: external, address: 127.0.0.1:%d, external: true, reason: staging gateway owned by team X}
          runs: 1
          guards: {certify: {runs: 1}}
          """
                  .formatted(emitterPort, gateway.port()));
      Outcome o = ScenarioFixture.run(s);
      TargetCellResult gw =
          o.results().stream().filter(r -> r.target().equals("gw")).findFirst().orElseThrow();
      assertThat(gw.included().frames()).isEqualTo(10);
      var json = Json.MAPPER.valueToTree(RunReport.of(s, o, "test", Environment.capture(true)));
      assertThat(json.get("targets").get(1).get("external_reason").asText())
          .isEqualTo("staging gateway owned by team X");
      assertThat(json.get("targets").get(1).get("address").asText())
          .isEqualTo("127.0.0.1:" + gateway.port());
    } finally {
      other.close().await(10, TimeUnit.SECONDS);
    }
  }
}
