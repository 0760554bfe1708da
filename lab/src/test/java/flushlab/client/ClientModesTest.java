package flushlab.client;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.LabTest;
import org.junit.jupiter.api.Test;

class ClientModesTest extends LabTest {

  @Test
  void aSlowReaderLetsTheKernelBufferFillSoEachReadCarriesMore() throws Exception {
    RequestPlan bulk = RequestPlan.get(lab.sseUrl("total=328KiB&size=4KiB&interval=0ms"));
    BatchResult prompt = lab.measure(bulk, ClientOptions.single().withRequests(2, 1));
    BatchResult slow =
        lab.measure(
            bulk, ClientOptions.single().withRequests(2, 1).withSlowReaderPauseNanos(50_000_000L));
    assertThat(prompt.errorCount()).isZero();
    assertThat(slow.errorCount()).isZero();
    assertThat(slow.lostFrames()).isZero();
    assertThat(slow.frames()).isEqualTo(prompt.frames()).isEqualTo(2 * 82);
    // One read per pause, each carrying what the kernel gathered meanwhile (up to the 64 KiB recv
    // buffer): 328 KiB arrives in a handful of big reads. Vert.x's own pause() would read ahead
    // in many reads instead.
    long perStreamBytes = slow.bytes() / 2;
    long fullReads = (perStreamBytes + 65535) / 65536;
    assertThat(slow.reads()).isBetween(2 * fullReads, 2 * (fullReads + 3));
    assertThat(slow.bytesPerRead().p50()).isGreaterThanOrEqualTo(32_768);
    // the emitter wrote exactly the planned frames, waiting on its socket rather than queueing
    var audit = lab.auditOf(slow.streamIds().get(0));
    assertThat(audit.framesWritten()).isEqualTo(82);
    assertThat(audit.complete()).isTrue();
  }

  @Test
  void keepAliveReusesConnectionsAndFreshConnectionsWorkToo() throws Exception {
    RequestPlan plan = RequestPlan.get(lab.sseUrl("frames=5&size=60&interval=1ms"));
    BatchResult kept =
        lab.measure(plan, ClientOptions.single().withRequests(6, 2).withKeepAlive(true));
    BatchResult fresh = lab.measure(plan, ClientOptions.single().withRequests(6, 2));
    assertThat(kept.streamsOk()).isEqualTo(6);
    assertThat(fresh.streamsOk()).isEqualTo(6);
    assertThat(kept.frames()).isEqualTo(30);
    assertThat(kept.lostFrames()).isZero();
  }

  @Test
  void aTimeoutIsAnErrorWithTheLimitInIt() throws Exception {
    RequestPlan plan = RequestPlan.get(lab.sseUrl("frames=100&size=60&interval=10ms"));
    BatchResult r = lab.measure(plan, ClientOptions.single().withTimeoutNanos(200_000_000L));
    assertThat(r.errors().get(0)).containsEntry("kind", "timeout");
    assertThat((String) r.errors().get(0).get("example")).contains("200 ms");
  }

  @Test
  void chatStreamsCarryPiTsInEveryChunkAndEndWithDone() throws Exception {
    BatchResult r =
        lab.measure(
            RequestPlan.chat("127.0.0.1", lab.emitter.port(), 30, 0, 1),
            ClientOptions.single().withRequests(2, 2));
    assertThat(r.errorCount()).isZero();
    assertThat(r.frames()).isEqualTo(60);
    assertThat(r.uncheckedFrames()).as("every chunk had pi_seq and pi_ts").isZero();
    assertThat(r.emitToRecvMs().count()).isEqualTo(60);
    assertThat(r.streamResults()).allMatch(StreamResult::sawDone);
  }
}
