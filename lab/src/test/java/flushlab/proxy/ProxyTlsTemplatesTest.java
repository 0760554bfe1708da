package flushlab.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.LabTest;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.RequestPlan;
import flushlab.tls.ClientTls;
import flushlab.tls.ServerTls;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each shipped TLS template: the proxy starts with the certificate the lab wrote into its work
 * folder, terminates TLS in front of the plain emitter, and a stream comes through whole to a
 * client that pins the lab's certificate (and is refused by one that checks the system's CAs).
 */
class ProxyTlsTemplatesTest extends LabTest {
  @ParameterizedTest
  @CsvSource({
    "nginx, nginx-tls.conf",
    "haproxy, haproxy-tls.cfg",
    "haproxy, haproxy-tls-http-no-delay.cfg",
    "caddy, caddy-tls.Caddyfile"
  })
  void theTlsTemplateStartsAndStreams(String proxy, String template) throws Exception {
    boolean installed = ProxyProcess.locate(proxy) != null;
    if (!installed)
      System.out.println("SKIPPED (ProxyTlsTemplatesTest): " + proxy + " is not installed");
    Assumptions.assumeTrue(installed, proxy + " is not installed");
    try (ProxyProcess p =
        ProxyProcess.start(
            ProxyKind.of(proxy),
            Path.of("scenarios/proxies", template),
            "127.0.0.1",
            lab.emitter.port())) {
      assertThat(p.tls()).isTrue();
      assertThat(p.configText()).doesNotContain("{{tls_").contains(p.workdir().toString());
      Path key = p.workdir().resolve("key.pem");
      assertThat(Files.getPosixFilePermissions(key))
          .containsExactlyInAnyOrder(
              PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
      String url =
          "https://127.0.0.1:"
              + p.port()
              + "/sse?frames=41&size=60&interval=10ms&transfer=chunked-always";
      BatchResult r =
          lab.measure(
              RequestPlan.get(url).withTls(ServerTls.selfSigned().pinnedByClients()),
              ClientOptions.single());
      assertThat(r.firstError()).isNull();
      assertThat(r.frames()).isEqualTo(41);
      assertThat(r.lostFrames() + r.corruptFrames() + r.duplicateFrames()).isZero();
      System.out.printf(
          "ProxyTlsTemplatesTest: %s frames per read %.2f%n", template, r.framesPerRead());

      BatchResult checked =
          lab.measure(RequestPlan.get(url).withTls(ClientTls.system()), ClientOptions.single());
      assertThat(checked.streamsOk())
          .as("a self-signed certificate fails the system's CAs")
          .isZero();
    }
  }
}
