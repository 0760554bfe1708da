package flushlab.emitter;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.LabTest;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.ClientProfile;
import flushlab.client.RequestPlan;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The emitter compresses as an origin's compression middleware: only for a request that accepts the
 * coding; flushed per event it still streams, never flushed it holds the stream to its end, flushed
 * by size it releases in steps of compressed bytes; and no-transform is answered.
 */
class EmitterCompressionTest extends LabTest {
  private static final String STREAM = "frames=40&size=60&interval=10ms";

  private BatchResult read(String query, ClientProfile profile) throws Exception {
    // every stream here is 10 ms apart or unpaced (the guard skips streams without a deadline)
    return lab.measurePaced(
        10_000_000L,
        RequestPlan.get(lab.sseUrl(query)).withProfile(profile),
        ClientOptions.single());
  }

  @Test
  void eachCodingFlushedPerEventStreamsOneFramePerRead() throws Exception {
    for (String coding : new String[] {"gzip", "deflate", "br", "zstd"}) {
      BatchResult r = read(STREAM + "&encoding=" + coding + "&flush=each", ClientProfile.BROWSER);
      System.out.println(coding + " flush=each as a browser: " + r.oneLine());
      assertThat(r.errorCount()).as(coding).isZero();
      assertThat(r.contentCodings()).as(coding).isEqualTo(Map.of(coding, 1));
      assertThat(r.frames()).isEqualTo(40);
      assertThat(r.lostFrames()).isZero();
      assertThat(r.framesPerRead()).as(coding).isLessThan(1.25);
      // compressed on the wire: fewer wire bytes than decoded ones
      assertThat(r.bytes()).as(coding).isLessThan(r.decodedBodyBytes());
    }
  }

  @Test
  void neverFlushedTheWholeStreamArrivesAtItsEndAndOnlyForAClientThatAccepts() throws Exception {
    BatchResult held = read(STREAM + "&encoding=gzip&flush=none", ClientProfile.BROWSER);
    System.out.println("gzip flush=none as a browser: " + held.oneLine());
    assertThat(held.errorCount()).isZero();
    assertThat(held.frames()).isEqualTo(40);
    assertThat(held.framesPerRead()).as("one read at the end").isGreaterThan(20);
    assertThat(held.ttftMs().p50())
        .as("the first frame waited for the end (390 ms of stream)")
        .isGreaterThan(300);
    BatchResult bare = read(STREAM + "&encoding=gzip&flush=none", ClientProfile.BARE);
    assertThat(bare.contentCodings())
        .as("no Accept-Encoding: sent as it is")
        .isEqualTo(Map.of("identity", 1));
    assertThat(bare.framesPerRead()).isLessThan(1.25);
    BatchResult pythonSdk = read(STREAM + "&encoding=br&flush=none", ClientProfile.OPENAI_PYTHON);
    assertThat(pythonSdk.contentCodings())
        .as("the Python SDK does not accept br")
        .isEqualTo(Map.of("identity", 1));
  }

  @Test
  void flushedBySizeReleasesInStepsOfCompressedBytes() throws Exception {
    BatchResult r =
        read(
            "frames=120&size=60&interval=5ms&encoding=gzip&flush=bytes:400", ClientProfile.BROWSER);
    System.out.println(
        "gzip flush=bytes:400: "
            + r.oneLine()
            + "; release_decoded_bytes p50 "
            + r.releaseDecodedBytes().p50());
    assertThat(r.errorCount()).isZero();
    assertThat(r.lostFrames()).isZero();
    assertThat(r.releaseFrames().p50()).as("several events per release").isGreaterThan(4);
    // each release: at least 400 compressed bytes plus chunk framing, less than one more event's
    // worth
    assertThat(r.releaseBytes().p50()).isBetween(400.0, 400.0 + 60 + 12);
    assertThat(r.releaseDecodedBytes().p50())
        .as("decoded, each release is several whole events")
        .isGreaterThan(4 * 60.0);
  }

  @Test
  void theHeadSaysWhatWasDoneAndNoTransformIsAnswered() throws Exception {
    HttpClient http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .build(); // the JDK client would ask for h2c by Upgrade
    HttpResponse<byte[]> gz =
        http.send(
            HttpRequest.newBuilder(
                    URI.create(
                        lab.sseUrl(
                            "frames=3&interval=0ms&encoding=gzip" + "&cache_control=no-transform")))
                .header("Accept-Encoding", "gzip")
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(gz.headers().firstValue("Content-Encoding")).hasValue("gzip");
    assertThat(gz.headers().firstValue("Vary")).hasValue("Accept-Encoding");
    assertThat(gz.headers().firstValue("Cache-Control")).hasValue("no-cache, no-transform");
    HttpResponse<byte[]> refused =
        http.send(
            HttpRequest.newBuilder(URI.create(lab.sseUrl("frames=3&encoding=lz4"))).build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(new String(refused.body()))
        .contains("encoding")
        .contains("identity, gzip, deflate, br, zstd");
    HttpResponse<byte[]> badFlush =
        http.send(
            HttpRequest.newBuilder(URI.create(lab.sseUrl("frames=3&flush=sometimes"))).build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(badFlush.statusCode()).isEqualTo(400);
    assertThat(new String(badFlush.body())).contains("'flush'").contains("bytes:N");
  }
}
