package flushlab;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;

/**
 * Named tolerances for timing assertions, derived from the direct path measured by the same test
 * class on this host now (as a scenario's certification is), never absolute figures: on two
 * shared cores what "at once" means is what the direct path shows.
 *
 * <p>Example: the direct path delivers frames 0.3 ms after they were written (p50), 0.9 ms at
 * p99; {@link #notHeldMs()} is then 0.3 + max(2, 3 x 0.9) = 3.0 ms: a frame later than that
 * through a relay was held by it, not delayed by the host.
 */
public record Timing(double directEmitToRecvP50Ms, double directEmitToRecvP99Ms) {
  /** The least slack a frame gets on top of the direct path: a scheduler tick and a wake-up. */
  public static final double SLACK_FLOOR_MS = 2.0;
  /** The direct path must read at or under this, as a scenario's certification requires by default. */
  public static final double CERTIFY_MAX_FRAMES_PER_READ = 1.10;

  /** The direct path of {@code lab}'s emitter: 41 frames every 20 ms, which must be clean (certified). */
  public static Timing certify(LabFixture lab) throws Exception {
    BatchResult direct = lab.measure(lab.sseUrl("frames=41&size=60&interval=20ms"));
    assertThat(direct.errorCount()).as("the direct path: " + direct.oneLine()).isZero();
    assertThat(direct.framesPerRead()).as("the direct path reads clean (certified): " + direct.oneLine())
        .isLessThanOrEqualTo(CERTIFY_MAX_FRAMES_PER_READ);
    lab.assertEmitterOnTime(direct, 20_000_000L);
    Timing t = new Timing(direct.emitToRecvMs().p50(), direct.emitToRecvMs().p99());
    System.out.printf("Timing: direct path emit->recv p50 %.3f ms, p99 %.3f ms: a frame not held arrives within %.3f ms%n",
        t.directEmitToRecvP50Ms, t.directEmitToRecvP99Ms, t.notHeldMs());
    return t;
  }

  /** What the host adds to a frame's delivery now: three times the direct path's p99, at least the floor. */
  public double slackMs() {
    return Math.max(SLACK_FLOOR_MS, 3 * directEmitToRecvP99Ms);
  }

  /** The emit-to-receive time of a frame nothing held: the direct path's p50 plus the slack. */
  public double notHeldMs() {
    return directEmitToRecvP50Ms + slackMs();
  }
}
