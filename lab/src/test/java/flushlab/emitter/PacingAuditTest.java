package flushlab.emitter;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.LabFixture;
import flushlab.client.BatchResult;
import flushlab.client.ClientOptions;
import flushlab.client.MeteredClient;
import flushlab.client.RequestPlan;
import io.vertx.core.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PacingAuditTest {

  @Test
  void aStalledEventLoopShowsUpInTheAuditAndNoDriftAccumulates() throws Exception {
    // One event loop for the emitter, so stalling "the" loop stalls the stream's writes.
    try (LabFixture lab = new LabFixture(EmitterOptions.loopback(0), 1)) {
      MeteredClient client = new MeteredClient(lab.vertx, ClientOptions.single());
      Future<BatchResult> running = client.run(RequestPlan.get(lab.sseUrl("frames=30&size=60&interval=10ms")));
      // Stall the loop on purpose, 100 ms into the stream, for 150 ms.
      lab.vertx.setTimer(100, id -> {
        long until = System.nanoTime() + 150_000_000L;
        while (System.nanoTime() < until) {
          Thread.onSpinWait();
        }
      });
      BatchResult r = running.await(30, TimeUnit.SECONDS);
      client.close();
      assertThat(r.errorCount()).isZero();
      PacingAudit.Summary audit = lab.auditOf(r.streamIds().get(0));
      assertThat(audit.complete()).isTrue();
      assertThat(audit.framesWritten()).isEqualTo(30);
      // The stall is reported: some frame was written at least ~100 ms after it was due...
      assertThat(audit.latenessMaxNanos()).isGreaterThan(100_000_000L);
      // ...and the deadlines are absolute, so the frames after the stall are back on time.
      assertThat(audit.latenessP50Nanos()).isLessThan(audit.latenessMaxNanos() / 4);
    }
  }

  @Test
  void anUnstalledStreamIsOnTime() throws Exception {
    try (LabFixture lab = new LabFixture()) {
      BatchResult r = lab.measure(lab.sseUrl("frames=30&size=60&interval=10ms"));
      PacingAudit.Summary audit = lab.auditOf(r.streamIds().get(0));
      assertThat(audit.latenessMaxNanos()).isLessThan(100_000_000L);
      assertThat(audit.paced()).isTrue();
    }
  }
}
