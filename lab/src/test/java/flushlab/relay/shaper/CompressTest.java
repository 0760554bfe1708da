package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flushlab.RelayFixture;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.ClientProfile;
import flushlab.client.RequestPlan;
import flushlab.relay.Relay;
import flushlab.stream.StreamSpec;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A compressing proxy: for a client that accepts the coding the body leaves re-encoded under its
 * flush policy, whole and in order once decoded; a client that does not accept it, a response
 * marked no-transform, or one already encoded, passes as it came.
 */
class CompressTest extends ShaperTestBase {
  private static final String STREAM = "frames=60&size=60&interval=10ms";

  private static BatchResult as(ClientProfile profile, String query, String... shapers)
      throws Exception {
    Relay relay = RelayFixture.start(lab, shapers);
    try {
      return lab.measurePaced(
          StreamSpec.fromQuery(query).intervalNanos(),
          () ->
              lab.measure(
                  RequestPlan.get("http://127.0.0.1:" + relay.port() + "/sse?" + query)
                      .withProfile(profile),
                  ClientOptions.single()));
    } finally {
      lab.vertx.undeploy(relay.deploymentID()).await(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void flushedPerReadEachCodingStreamsAndDecodesWhole() throws Exception {
    for (String algo : new String[] {"gzip", "deflate", "br", "zstd"}) {
      BatchResult r = whole(as(ClientProfile.BROWSER, STREAM, "compress=" + algo), 60);
      System.out.println("compress=" + algo + " as a browser: " + r.oneLine());
      assertThat(r.contentCodings()).isEqualTo(Map.of(algo, 1));
      assertThat(r.framesPerRead()).as(algo).isLessThan(1.25);
    }
  }

  @Test
  void neverFlushedItHoldsTheStreamForAcceptingClientsOnly() throws Exception {
    BatchResult held = whole(as(ClientProfile.BROWSER, STREAM, "compress=gzip,flush=none"), 60);
    System.out.println("compress flush=none as a browser: " + held.oneLine());
    assertThat(held.framesPerRead()).as("the whole stream at its end").isGreaterThan(30);
    BatchResult curl = whole(as(ClientProfile.CURL, STREAM, "compress=gzip,flush=none"), 60);
    assertThat(curl.contentCodings()).isEqualTo(Map.of("identity", 1));
    assertThat(curl.framesPerRead()).isLessThan(1.25);
    BatchResult noTransform =
        whole(
            as(
                ClientProfile.BROWSER,
                STREAM + "&cache_control=no-transform",
                "compress=gzip,flush=none"),
            60);
    assertThat(noTransform.contentCodings())
        .as("Cache-Control: no-transform is honoured")
        .isEqualTo(Map.of("identity", 1));
    assertThat(noTransform.framesPerRead()).isLessThan(1.25);
    // the origin compressed already (zstd, which this proxy does not re-encode): it passes as it
    // came
    BatchResult origin =
        whole(as(ClientProfile.BROWSER, STREAM + "&encoding=zstd", "compress=gzip,flush=none"), 60);
    assertThat(origin.contentCodings()).isEqualTo(Map.of("zstd", 1));
  }

  /**
   * end: the head at once and the whole body at its end for a client that accepts gzip; another
   * client is streamed.
   */
  @Test
  void anEndPolicyHoldsTheBodyToItsEndForAcceptingClientsOnly() throws Exception {
    BatchResult held = whole(as(ClientProfile.BROWSER, STREAM, "compress=gzip,flush=end"), 60);
    System.out.println(
        "compress flush=end as a browser: "
            + held.oneLine()
            + " time_to_head_ms p50 "
            + held.timeToHeadMs().p50());
    assertThat(held.contentCodings()).isEqualTo(Map.of("gzip", 1));
    assertThat(held.framesPerRead()).as("the whole stream in one read").isGreaterThan(30);
    assertThat(held.timeToHeadMs().p50()).as("the head before the body's 600 ms").isLessThan(300.0);
    BatchResult curl = whole(as(ClientProfile.CURL, STREAM, "compress=gzip,flush=end"), 60);
    assertThat(curl.contentCodings()).isEqualTo(Map.of("identity", 1));
    assertThat(curl.framesPerRead()).isLessThan(1.25);
  }

  /**
   * others=decoded (Varnish's do_gzip): a client that does not accept gzip gets plain bytes, whole,
   * when the encoder lets them go: held to the end under flush=none, streamed under flush=each.
   */
  @Test
  void decodedOnDeliveryAClientThatDoesNotAcceptGetsPlainBytesWhenTheEncoderLetsThemGo()
      throws Exception {
    BatchResult held =
        whole(as(ClientProfile.CURL, STREAM, "compress=gzip,flush=none,others=decoded"), 60);
    System.out.println("compress flush=none,others=decoded as curl: " + held.oneLine());
    assertThat(held.contentCodings()).isEqualTo(Map.of("identity", 1));
    assertThat(held.framesPerRead()).as("held as the encoder held it").isGreaterThan(30);
    BatchResult streamed =
        whole(as(ClientProfile.CURL, STREAM, "compress=gzip,flush=each,others=decoded"), 60);
    assertThat(streamed.contentCodings()).isEqualTo(Map.of("identity", 1));
    assertThat(streamed.framesPerRead()).as("decoded read by read").isLessThan(1.25);
    BatchResult browser =
        whole(as(ClientProfile.BROWSER, STREAM, "compress=gzip,flush=each,others=decoded"), 60);
    assertThat(browser.contentCodings())
        .as("an accepting client still gets gzip")
        .isEqualTo(Map.of("gzip", 1));
  }

  @Test
  void bytesAndTimerPoliciesReleaseByCompressedSizeAndByTime() throws Exception {
    BatchResult bytes =
        whole(
            as(
                ClientProfile.BROWSER,
                "frames=150&size=60&interval=4ms",
                "compress=gzip,flush=bytes,bytes=500B"),
            150);
    System.out.println(
        "compress flush=bytes,bytes=500: "
            + bytes.oneLine()
            + " release_bytes p50 "
            + bytes.releaseBytes().p50());
    assertThat(bytes.releaseBytes().p50())
        .as("each release: 500 compressed bytes and one read's more, plus chunk framing")
        .isBetween(500.0, 500.0 + 60 + 12);
    BatchResult timer =
        whole(as(ClientProfile.BROWSER, STREAM, "compress=gzip,flush=timer,after=100ms"), 60);
    System.out.println("compress flush=timer,after=100ms: " + timer.oneLine());
    assertThat(timer.releaseFrames().p50())
        .as("~10 frames of 10 ms per 100 ms flush")
        .isBetween(7.0, 12.0);
  }

  /**
   * input=N counts what came in, not what goes out: 60 B events, flushed every 600 B of them, leave
   * ten at a time however small they compress; next holds each event until the next one is read, so
   * each release's one frame waited about one interval.
   */
  @Test
  void inputAndNextPoliciesReleaseByUncompressedSizeAndOneReadLate() throws Exception {
    BatchResult input =
        whole(
            as(
                ClientProfile.BROWSER,
                "frames=120&size=60&interval=4ms",
                "compress=gzip,flush=input,bytes=600B"),
            120);
    System.out.println(
        "compress flush=input,bytes=600B: "
            + input.oneLine()
            + " release_frames p50 "
            + input.releaseFrames().p50());
    assertThat(input.contentCodings()).isEqualTo(Map.of("gzip", 1));
    assertThat(input.releaseFrames().p50()).as("600 B of 60 B events per flush").isEqualTo(10.0);
    BatchResult next = whole(as(ClientProfile.BROWSER, STREAM, "compress=gzip,flush=next"), 60);
    System.out.println(
        "compress flush=next: "
            + next.oneLine()
            + " release_wait_ms p50 "
            + next.releaseWaitMs().p50());
    assertThat(next.framesPerRead()).as("one frame a release").isLessThan(1.25);
    assertThat(next.releaseWaitMs().p50())
        .as("each frame held for the next, 10 ms later")
        .isBetween(8.0, 15.0);
  }

  @Test
  void aShortResponseUnderMinLengthPassesAsItCameAndALongerOneIsHeldUntilIt() throws Exception {
    BatchResult shortOne =
        whole(
            as(
                ClientProfile.BROWSER,
                "frames=5&size=60&interval=10ms",
                "compress=gzip,min-length=1KiB"),
            5);
    assertThat(shortOne.contentCodings()).isEqualTo(Map.of("identity", 1));
    BatchResult longer =
        whole(as(ClientProfile.BROWSER, STREAM, "compress=gzip,min-length=1KiB"), 60);
    System.out.println("compress min-length=1KiB: " + longer.oneLine());
    assertThat(longer.contentCodings()).isEqualTo(Map.of("gzip", 1));
    // 1 KiB of 60 B events is 18 events: the first frame waits for them (~170 ms), the rest stream
    assertThat(longer.ttftMs().p50()).isGreaterThan(120);
    assertThat(longer.framesPerRead()).isLessThan(2);
  }

  @Test
  void policyParametersGoTogether() {
    assertThatThrownBy(() -> ShaperRegistry.parse("compress,flush=bytes"))
        .hasMessageContaining("flush=bytes needs bytes=");
    assertThatThrownBy(() -> ShaperRegistry.parse("compress,flush=timer"))
        .hasMessageContaining("flush=timer needs after=");
    assertThatThrownBy(() -> ShaperRegistry.parse("compress,bytes=1KiB"))
        .hasMessageContaining("bytes= goes with flush=bytes or flush=input");
    assertThatThrownBy(() -> ShaperRegistry.parse("compress,flush=input"))
        .hasMessageContaining("flush=input needs bytes=");
    assertThat(ShaperRegistry.parseChain("compress=br,flush=input,bytes=2KiB")).hasSize(1);
    assertThat(ShaperRegistry.parseChain("compress,flush=next")).hasSize(1);
    assertThatThrownBy(() -> ShaperRegistry.parse("compress=lz4"))
        .hasMessageContaining("gzip, deflate, br, zstd");
  }
}
