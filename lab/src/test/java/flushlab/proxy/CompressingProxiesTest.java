package flushlab.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.LabTest;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.ClientProfile;
import flushlab.client.RequestPlan;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A real nginx with gzip on for event streams: curl (no Accept-Encoding) gets each event at once,
 * a browser (accepting gzip) gets the whole stream at its end while proxy_buffering is on, and each
 * event at once with it off. Both read every frame: the client decodes what it asked
 * for as it arrives.
 */
class CompressingProxiesTest extends LabTest {
  private static final int FRAMES = 60;

  @ParameterizedTest
  @CsvSource({"nginx-gzip.conf, true", "nginx-gzip-buffering-off.conf, false"})
  void aClientThatAcceptsGzipSeesWhatTheGzipFilterHolds(String template, boolean heldForGzip) throws Exception {
    boolean installed = ProxyProcess.locate("nginx") != null;
    if (!installed) System.out.println("SKIPPED (CompressingProxiesTest): nginx is not installed");
    Assumptions.assumeTrue(installed, "nginx is not installed");
    try (ProxyProcess p = ProxyProcess.start(ProxyKind.NGINX, Path.of("scenarios/proxies", template), "127.0.0.1", lab.emitter.port())) {
      RequestPlan plan = RequestPlan.get("http://127.0.0.1:" + p.port() + "/sse?frames=" + FRAMES + "&size=60&interval=10ms");
      BatchResult plain = whole(lab.measure(plan.withProfile(ClientProfile.CURL), ClientOptions.single()));
      BatchResult gzip = whole(lab.measure(plan.withProfile(ClientProfile.BROWSER), ClientOptions.single()));
      BatchResult sdk = whole(lab.measure(plan.withHeaders(List.<String[]>of(new String[] {"Accept-Encoding", "gzip"})),
          ClientOptions.single()));
      System.out.printf("CompressingProxiesTest: %s frames per read %.2f as curl, %.2f as a browser (%d wire bytes for %d decoded), "
          + "%.2f with --header 'Accept-Encoding: gzip'%n", template, plain.framesPerRead(), gzip.framesPerRead(), gzip.bytes(),
          gzip.decodedBodyBytes(), sdk.framesPerRead());
      assertThat(sdk.framesPerRead()).as("a user's Accept-Encoding is honoured as a profile's is").isEqualTo(gzip.framesPerRead(),
          org.assertj.core.api.Assertions.within(heldForGzip ? FRAMES / 2.0 : 0.1));
      assertThat(plain.framesPerRead()).as("no Accept-Encoding: nginx passes each chunk on").isLessThanOrEqualTo(1.1);
      assertThat(gzip.decodedBodyBytes()).as("the decoded body").isEqualTo(FRAMES * 60L);
      if (heldForGzip) {
        assertThat(gzip.readsWithFrames()).as("gzip with buffering on: the stream arrives at its end").isLessThanOrEqualTo(2);
        assertThat(gzip.bytes()).as("and compressed").isLessThan(gzip.decodedBodyBytes());
      } else {
        assertThat(gzip.framesPerRead()).as("gzip with buffering off: each event at once").isLessThanOrEqualTo(1.1);
      }
    }
  }

  private static BatchResult whole(BatchResult r) {
    assertThat(r.errorCount()).as(r.oneLine()).isZero();
    assertThat(r.frames()).isEqualTo(FRAMES);
    assertThat(r.lostFrames() + r.corruptFrames() + r.duplicateFrames() + r.reorderedFrames()).isZero();
    return r;
  }
}
