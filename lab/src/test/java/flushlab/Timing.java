package flushlab;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import flushlab.run.RunStalls;
import flushlab.run.StallJudge;

/**
 * Named tolerances for timing assertions, derived from the direct path measured by the same test
 * class on this host now (as a scenario's certification is), never absolute figures: on two shared
 * cores what "at once" means is what the direct path shows.
 *
 * <p>Example: the direct path delivers frames 0.3 ms after they were written (p50), 0.9 ms at p99;
 * {@link #notHeldMs()} is then 0.3 + max(2, 3 x 0.9) = 3.0 ms: a frame later than that through a
 * relay was held by it, not delayed by the host.
 */
public record Timing(double directEmitToRecvP50Ms, double directEmitToRecvP99Ms) {
  /** The least slack a frame gets on top of the direct path: a scheduler tick and a wake-up. */
  public static final double SLACK_FLOOR_MS = 2.0;

  /**
   * The direct path must read at or under this, as a scenario's certification requires by default.
   */
  public static final double CERTIFY_MAX_FRAMES_PER_READ = 1.10;

  /** Direct runs a class's certification always makes (a fixed number, never more: not a retry). */
  public static final int CERTIFY_RUNS = 2;

  /**
   * The direct path of {@code lab}'s emitter: {@link #CERTIFY_RUNS} streams of 41 frames every 20
   * ms, judged as a scenario's certification judges its runs: a run in which the emitter wrote a
   * frame later than the pacing guard allows, or whose frames read together were all read in a
   * stall of this host (its hiccup meter), is excluded (and said); every kept run must read clean,
   * and at least one must be kept (none kept for host stalls skips the class as a host stall). The
   * slack comes from the first kept run's p50 and p99.
   */
  /**
   * How long a fork's certification stands for the shaper classes that run after it: a class of
   * them takes 2-12 s, so one certification serves the next several classes, yet still describes
   * this host "now" (neighbour classes start and end within a minute). Each class certified its own
   * before (29 classes, 1.6 s each: 49 s of the suite's class time, on a path that does not change
   * between classes of one JVM).
   */
  public static final long SHARED_FOR_NANOS = 60_000_000_000L;

  private static Timing shared;
  private static long sharedAt;

  /**
   * This fork's last certification if it is under {@link #SHARED_FOR_NANOS} old, else a new one of
   * {@code lab} (printed either way). A certification that skipped for a host stall is not kept.
   */
  public static synchronized Timing recent(LabFixture lab) throws Exception {
    long now = System.nanoTime();
    if (shared != null && now - sharedAt < SHARED_FOR_NANOS) {
      System.out.printf(
          "Timing: this fork's certification of %.1f s ago stands (p50 %.3f ms, p99 %.3f ms)%n",
          (now - sharedAt) / 1e9, shared.directEmitToRecvP50Ms, shared.directEmitToRecvP99Ms);
      return shared;
    }
    shared = null;
    Timing t = certify(lab);
    shared = t;
    sharedAt = System.nanoTime();
    return t;
  }

  public static Timing certify(LabFixture lab) throws Exception {
    long tolerance = LabFixture.pacingToleranceNanos(20_000_000L);
    double p50 = 0;
    double p99 = 0;
    int kept = 0;
    StringBuilder excluded = new StringBuilder();
    boolean hostStalled = false;
    for (int run = 0; run < CERTIFY_RUNS; run++) {
      long from = System.nanoTime();
      BatchResult direct = lab.measure(lab.sseUrl("frames=41&size=60&interval=20ms"));
      RunStalls stalls = StallJudge.judge(direct, from, System.nanoTime(), "test", 20_000_000L);
      assertThat(direct.errorCount()).as("the direct path: " + direct.oneLine()).isZero();
      long late = lab.emitterLatenessMaxNanos(direct);
      if (late > tolerance || stalls.excusedByHost()) {
        hostStalled |= stalls.excusedByHost() || stalls.host().maxMs() * 1e6 >= late / 2.0;
        excluded.append(
            String.format(
                " run %d excluded: %s;",
                run + 1,
                late > tolerance
                    ? String.format("the emitter wrote a frame %.3f ms late", late / 1e6)
                    : stalls.hostStall()));
        continue;
      }
      assertThat(direct.framesPerRead())
          .as("the direct path reads clean (certified): " + direct.oneLine())
          .isLessThanOrEqualTo(CERTIFY_MAX_FRAMES_PER_READ);
      if (kept++
          == 0) { // the first kept run sets the slack, as the one run did before runs could be
        // excluded
        p50 = direct.emitToRecvMs().p50();
        p99 = direct.emitToRecvMs().p99();
      }
    }
    if (kept == 0 && hostStalled)
      HostStalls.skip(
          "host stall, not a result: this host stalled every certification run:" + excluded);
    assertThat(kept)
        .as("every certification run was excluded, so no timing can be derived:" + excluded)
        .isPositive();
    Timing t = new Timing(p50, p99);
    System.out.printf(
        "Timing: direct path emit->recv p50 %.3f ms, p99 %.3f ms over %d kept run(s):%s a frame not held arrives "
            + "within %.3f ms%n",
        t.directEmitToRecvP50Ms, t.directEmitToRecvP99Ms, kept, excluded, t.notHeldMs());
    return t;
  }

  /**
   * What the host adds to a frame's delivery now: three times the direct path's p99, at least the
   * floor.
   */
  public double slackMs() {
    return Math.max(SLACK_FLOOR_MS, 3 * directEmitToRecvP99Ms);
  }

  /** The emit-to-receive time of a frame nothing held: the direct path's p50 plus the slack. */
  public double notHeldMs() {
    return directEmitToRecvP50Ms + slackMs();
  }
}
