package flushlab.cli;

import static flushlab.Cli.flushlab;
import static org.assertj.core.api.Assertions.assertThat;

import flushlab.Cli.Ran;
import flushlab.LabTest;
import flushlab.client.RequestPlan;
import flushlab.http.Header;
import flushlab.tls.ClientTls;
import flushlab.tls.ServerTls;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The client's TLS and header flags: what they accept, what they refuse, and what they say. */
class GatewayFlagsTest extends LabTest {
  private static int tlsPort;

  @BeforeAll
  static void listenWithTls() throws Exception {
    tlsPort =
        lab.emitter.listenTls("127.0.0.1", 0, ServerTls.selfSigned()).await(10, TimeUnit.SECONDS);
  }

  private static String https(String host) {
    return "https://" + host + ":" + tlsPort + "/sse?frames=5&interval=1ms";
  }

  @Test
  void insecureStreamsAndSaysTheCheckIsOff() {
    Ran r = flushlab("client", "--target", https("127.0.0.1"), "--insecure");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("streams 1/1 ok");
    assertThat(r.err()).contains(ClientTls.INSECURE_WARNING);
  }

  @Test
  void aCaFileChecksTheCertificateAndTheHostName() {
    String ca = ServerTls.selfSigned().certificate().certPem().toString();
    Ran byName = flushlab("client", "--target", https("localhost"), "--ca-file", ca);
    assertThat(byName.code()).as(byName.err()).isZero();
    // the lab's certificate names localhost, not 127.0.0.1: checked by name, the address does not
    // match it
    Ran byAddress = flushlab("client", "--target", https("127.0.0.1"), "--ca-file", ca);
    assertThat(byAddress.code()).isEqualTo(1);
    assertThat(byAddress.err()).contains("over TLS").contains(ca);
  }

  @Test
  void theSystemsCasRefuseASelfSignedCertificate() {
    Ran r = flushlab("client", "--target", https("localhost"));
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("system's CAs");
  }

  @Test
  void contradictoryOrBadFlagsAreRefusedByName() {
    assertThat(
            flushlab(
                    "client",
                    "--target",
                    https("localhost"),
                    "--ca-file",
                    "/etc/hostname",
                    "--insecure")
                .err())
        .contains("--ca-file and --insecure contradict");
    Ran unset =
        flushlab(
            "client",
            "--target",
            lab.sseUrl("frames=3"),
            "--header",
            "Authorization: Bearer ${FLUSHLAB_SURELY_NOT_SET_42}");
    assertThat(unset.code()).isEqualTo(2);
    assertThat(unset.err())
        .contains("--header")
        .contains("FLUSHLAB_SURELY_NOT_SET_42")
        .contains("not set");
    Ran framing =
        flushlab("client", "--target", lab.sseUrl("frames=3"), "--header", "Content-Length: 5");
    assertThat(framing.code()).isEqualTo(2);
    assertThat(framing.err()).contains("Content-Length").contains("written by the lab");
    Ran noColon =
        flushlab("client", "--target", lab.sseUrl("frames=3"), "--header", "Bearer sk-123");
    assertThat(noColon.code()).isEqualTo(2);
    assertThat(noColon.err()).contains("'Name: value'").doesNotContain("sk-123");
  }

  @Test
  void theRequestNamesTheModelAndAUserHeaderReplacesTheLabsOwn() {
    var plan =
        RequestPlan.chat("127.0.0.1", 9, 5, 0, 1, "my-route")
            .withHeaders(
                List.of(new Header("Accept", "*/*"), new Header("Authorization", "Bearer k")));
    String wire = new String(plan.bytes(true), StandardCharsets.ISO_8859_1);
    assertThat(wire)
        .contains("\"model\":\"my-route\"")
        .contains("\"include_usage\":true")
        .contains("\r\nAuthorization: Bearer k\r\n");
    assertThat(wire.split("\r\nAccept: ", -1)).as("one Accept header, the user's").hasSize(2);
    assertThat(wire).contains("\r\nAccept: */*\r\n");
  }
}
