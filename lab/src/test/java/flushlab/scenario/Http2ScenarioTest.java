package flushlab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.HttpVersion;
import flushlab.run.Outcome;
import flushlab.run.TargetCellResult;
import org.junit.jupiter.api.Test;

/**
 * client.http sweeps one target over HTTP/1.1 and h2c into one table, each row read whole and one
 * frame per read.
 */
class Http2ScenarioTest {
  @Test
  void oneTargetOverHttp11AndH2cSideBySide() throws Exception {
    Scenario s =
        ScenarioFixture.parse(
            """
        name: h2-side-by-side
        emitter: {frames: 21, frame_size: 60B, interval: 20ms}
        sweep:
          http: ["1.1", h2c]
        targets:
          - {name: direct, kind: direct}
          - {name: passthrough, kind: relay, shapers: [passthrough]}
        runs: 1
        # this test is about HTTP versions: a busy host's late frame must not leave the run uncertified
        guards: {pacing_tolerance: 10ms, certify: {runs: 3, frames: 11, interval: 20ms}}
        """);
    assertThat(s.cells())
        .extracting(c -> c.client().http())
        .containsExactly(HttpVersion.HTTP_1_1, HttpVersion.H2C);
    Outcome o = ScenarioFixture.run(s);
    assertThat(o.certified()).isTrue();
    TargetCellResult directH2c =
        o.results().stream()
            .filter(r -> r.target().equals("direct") && r.cell().client().http() == HttpVersion.H2C)
            .findFirst()
            .orElseThrow();
    assertThat(directH2c.included().errorCount()).as(directH2c.included().oneLine()).isZero();
    assertThat(directH2c.included().frames()).isEqualTo(21);
    assertThat(directH2c.included().framesPerRead()).isLessThanOrEqualTo(1.1);
    // the relay terminates h2c and relays the stream as an HTTP/1.1 exchange: it passes whole,
    // spoken over h2 to the client
    TargetCellResult relayH2c =
        o.results().stream()
            .filter(
                r ->
                    r.target().equals("passthrough") && r.cell().client().http() == HttpVersion.H2C)
            .findFirst()
            .orElseThrow();
    System.out.println(
        "Http2ScenarioTest: passthrough relay over h2c: " + relayH2c.included().oneLine());
    assertThat(relayH2c.included().errorCount()).isZero();
    assertThat(relayH2c.included().frames()).isEqualTo(21);
    assertThat(relayH2c.included().h2()).as("the relay answered over HTTP/2").isNotNull();
  }

  /**
   * A scenario whose client speaks h2c to every target is still certified on the direct path over
   * HTTP/1.1, the instrument's floor.
   */
  @Test
  void aClientSpeakingH2cEverywhereIsCertifiedOverHttp11() throws Exception {
    Scenario s =
        ScenarioFixture.parse(
            """
        name: h2c-everywhere
        emitter: {frames: 11, frame_size: 60B, interval: 20ms}
        client: {http: h2c}
        targets:
          - {name: direct, kind: direct}
        runs: 1
        guards: {pacing_tolerance: 10ms, certify: {runs: 3, frames: 11, interval: 20ms}}
        """);
    assertThat(s.guards().certifyCell().client().http()).isEqualTo(HttpVersion.HTTP_1_1);
    Outcome o = ScenarioFixture.run(s);
    assertThat(o.certified()).isTrue();
    TargetCellResult direct = o.results().get(0);
    assertThat(direct.included().h2()).as("the target itself read over h2c").isNotNull();
  }
}
