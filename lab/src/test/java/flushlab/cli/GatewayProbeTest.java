package flushlab.cli;

import static flushlab.Cli.flushlab;

import flushlab.Cli.Ran;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.core.LabVertx;
import flushlab.relay.Relay;
import flushlab.relay.RelayLog;
import flushlab.relay.RelayOptions;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** `flushlab probe --gateway`: interleaved rounds, and an overhead reported only out of the noise. */
class GatewayProbeTest {


  private static double overheadP50(String out, String label) {
    Matcher m = Pattern.compile(Pattern.quote(label) + " +mean +[-+0-9.]+ms +p50 +([-+0-9.]+)ms.*spread +([0-9.]+)ms +(resolved|within noise)")
        .matcher(out.substring(out.indexOf("=== gateway overhead")));
    assertThat(m.find()).as("an overhead line for %s in:%n%s", label, out).isTrue();
    return Double.parseDouble(m.group(1));
  }

  @Test
  void aHopThatAddsTwentyMillisecondsIsResolvedAtTwentyMilliseconds() throws Exception {
    int emitterPort;
    emitterPort = flushlab.FreePort.forALaterServer();
    Vertx vertx = LabVertx.create(1);
    try {
      Relay relay = new Relay(RelayOptions.loopback(emitterPort, List.of("latency=20ms")), RelayLog.SILENT);
      vertx.deployVerticle(relay).await(10, TimeUnit.SECONDS);
      Ran r = flushlab("probe", "--gateway", "127.0.0.1:" + relay.port(), "--listen", "127.0.0.1:" + emitterPort,
          "-r", "6", "-c", "2", "-n", "20", "--delay", "5ms");
      assertThat(r.code()).as(r.err()).isZero();
      // three rounds planned (6 requests, 2 at once), each measuring both sides
      assertThat(r.out()).contains("round 1:", "round 2:", "round 3:");
      assertThat(r.out()).containsPattern("round 2 gateway|round 2:");
      double ttft = overheadP50(r.out(), "TTFT (client)");
      double first = overheadP50(r.out(), "emit->recv (1st token)");
      assertThat(ttft).as("added time to first token").isBetween(18.0, 30.0);
      assertThat(first).as("added delay of the first token").isBetween(18.0, 30.0);
      assertThat(r.out()).containsPattern("TTFT \\(client\\).*resolved").doesNotContain("inconclusive");
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void maxRoundsOutOfRangeNamesTheFlag() {
    Ran r = flushlab("probe", "--gateway", "127.0.0.1:9", "--max-rounds", "-1");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--max-rounds", "0..100");
  }
}
