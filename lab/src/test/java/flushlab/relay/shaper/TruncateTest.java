package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import org.junit.jupiter.api.Test;

class TruncateTest extends ShaperTestBase {
  @Test
  void aCleanCloseMidResponseIsReportedAsATruncation() throws Exception {
    BatchResult r = through("frames=20&size=60&interval=10ms", "truncate=600B");
    assertThat(r.streamsOk()).isZero();
    assertThat(r.errors().get(0)).containsEntry("kind", "truncated");
    assertThat((String) r.errors().get(0).get("example")).contains("600 bytes");
  }
}
