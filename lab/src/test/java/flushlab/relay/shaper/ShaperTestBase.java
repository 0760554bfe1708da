package flushlab.relay.shaper;

import flushlab.LabTest;
import flushlab.RelayFixture;
import flushlab.Timing;
import flushlab.client.BatchResult;
import flushlab.run.Warmup;
import flushlab.stream.StreamSpec;
import org.junit.jupiter.api.BeforeAll;

/**
 * One emitter per test class; each test measures through a fresh relay, and every stream it reads
 * passes the pacing guard (the emitter's own audit), so a stalled emitter never reads as a shaper's
 * doing. {@link #timing} is the direct path of this class's emitter, certified before any test.
 */
abstract class ShaperTestBase extends LabTest {
  static Timing timing;

  /** The paced token stream of the seed write-up: 41 frames of 60 B every 50 ms. */
  static final String TOKENS_50MS = "frames=41&size=60&interval=50ms";

  @BeforeAll
  static void warmUp() throws Exception {
    Warmup.run(lab.vertx);
    timing = Timing.certify(lab);
  }

  static BatchResult through(String query, String... shapers) throws Exception {
    BatchResult r = RelayFixture.through(lab, query, shapers);
    lab.assertEmitterOnTime(r, StreamSpec.fromQuery(query).intervalNanos());
    return r;
  }

  static BatchResult direct(String query) throws Exception {
    BatchResult r = lab.measure(lab.sseUrl(query));
    lab.assertEmitterOnTime(r, StreamSpec.fromQuery(query).intervalNanos());
    return r;
  }
}
