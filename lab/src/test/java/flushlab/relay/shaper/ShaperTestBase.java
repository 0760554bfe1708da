package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.LabTest;
import flushlab.RelayFixture;
import flushlab.Timing;
import flushlab.client.BatchResult;
import flushlab.run.Warmup;
import flushlab.stream.StreamSpec;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.opentest4j.TestAbortedException;

/**
 * One emitter per test class; each test measures through a fresh relay, and every stream it reads
 * passes the pacing guard (the emitter's own audit), so a stalled emitter never reads as a shaper's
 * doing (a run the guard excludes is measured once more, as the map does: {@link
 * flushlab.LabFixture#measurePaced}). {@link #timing} is the direct path of this fork's lab,
 * certified before any test of this class or, by an earlier class of this fork, under a minute
 * before ({@link Timing#recent}).
 */
abstract class ShaperTestBase extends LabTest {
  static Timing timing;

  /** The paced token stream of the seed write-up: 41 frames of 60 B every 50 ms. */
  static final String TOKENS_50MS = "frames=41&size=60&interval=50ms";

  /** Why certification skipped this class (this host stalled through every run of it), or null. */
  private static String skipped;

  @BeforeAll
  static void warmUp() throws Exception {
    Warmup.runOnce(lab.vertx, false);
    skipped = null;
    try {
      timing = Timing.recent(lab);
    } catch (TestAbortedException e) {
      skipped = e.getMessage(); // each test says so below: a class skipped in its set-up reports "0
      // tests run" and no reason
    }
  }

  /**
   * A class whose certification this host stalled through is certified again before each test,
   * once: a stall is a moment, and it no longer skips every test after it (a suite run of three
   * classes at once skipped all five tests of one class for one spoiled certification). A test
   * whose own certification is spoiled too skips with both reasons.
   */
  @BeforeEach
  void certifiedBeforeThisTest() throws Exception {
    if (skipped == null) return;
    try {
      timing = Timing.recent(lab);
      skipped = null;
    } catch (TestAbortedException e) {
      Assumptions.abort(e.getMessage() + " (the class's own certification: " + skipped + ")");
    }
  }

  static BatchResult through(String query, String... shapers) throws Exception {
    return lab.measurePaced(
        StreamSpec.fromQuery(query).intervalNanos(),
        () -> RelayFixture.through(lab, query, shapers));
  }

  /**
   * The stream arrived whole, as every buffering mechanism and every delaying fault must deliver
   * it: no error, every frame asked for, none lost, duplicated, reordered or corrupt.
   */
  static BatchResult whole(BatchResult r, int frames) {
    assertThat(r.errorCount()).as("errors: %s", r.oneLine()).isZero();
    assertThat(r.frames()).as("frames received").isEqualTo(frames);
    assertThat(r.lostFrames() + r.duplicateFrames() + r.reorderedFrames() + r.corruptFrames())
        .as("lost, duplicated, reordered or corrupt frames")
        .isZero();
    return r;
  }

  /**
   * The stream is an error of this kind (the client's name for it), never a measurement; returns
   * its first error.
   */
  static Map<String, Object> failedAs(BatchResult r, String kind) {
    assertThat(r.streamsOk()).as("streams counted ok: %s", r.oneLine()).isZero();
    assertThat(r.errors().get(0)).containsEntry("kind", kind);
    return r.errors().get(0);
  }

  static BatchResult direct(String query) throws Exception {
    return lab.measurePaced(
        StreamSpec.fromQuery(query).intervalNanos(), () -> lab.measure(lab.sseUrl(query)));
  }
}
