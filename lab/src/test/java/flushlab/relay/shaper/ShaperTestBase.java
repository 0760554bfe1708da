package flushlab.relay.shaper;

import flushlab.LabTest;
import flushlab.RelayFixture;
import flushlab.client.BatchResult;
import flushlab.run.Warmup;
import org.junit.jupiter.api.BeforeAll;

/** One emitter per test class; each test measures through a fresh relay. */
abstract class ShaperTestBase extends LabTest {

  /** The paced token stream of the seed write-up: 41 frames of 60 B every 50 ms. */
  static final String TOKENS_50MS = "frames=41&size=60&interval=50ms";

  @BeforeAll
  static void warmUp() throws Exception {
    Warmup.run(lab.vertx);
  }

  static BatchResult through(String query, String... shapers) throws Exception {
    return RelayFixture.through(lab, query, shapers);
  }

  static BatchResult direct(String query) throws Exception {
    return lab.measure(lab.sseUrl(query));
  }
}
