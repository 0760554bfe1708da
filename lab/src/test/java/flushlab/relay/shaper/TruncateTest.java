package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TruncateTest extends ShaperTestBase {
  @Test
  void aCleanCloseMidResponseIsReportedAsATruncation() throws Exception {
    Map<String, Object> error =
        failedAs(through("frames=20&size=60&interval=10ms", "truncate=600B"), "truncated");
    assertThat((String) error.get("example")).contains("600 bytes");
  }
}
