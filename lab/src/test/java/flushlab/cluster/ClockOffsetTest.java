package flushlab.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * The offset estimate finds a hidden offset within its own bound, whatever the round trips'
 * asymmetry.
 */
class ClockOffsetTest {
  @Test
  void aHiddenOffsetIsFoundWithinTheBoundTheNarrowestRoundTripsGive() {
    long seed = Seeds.seed("ClockOffsetTest");
    Random r = new Random(seed);
    for (int round = 0; round < 200; round++) {
      long hidden = (long) ((r.nextDouble() - 0.5) * 2e9); // within +-1 s
      List<ClockOffset.Sample> samples = new ArrayList<>();
      long t = 1_700_000_000_000_000_000L;
      for (int i = 0; i < 20; i++) {
        long out =
            50_000 + (long) (r.nextDouble() * 5_000_000); // one way: 0.05-5 ms, each way apart
        long back = 50_000 + (long) (r.nextDouble() * 5_000_000);
        samples.add(new ClockOffset.Sample(t, t + out + hidden, t + out + back));
        t += 10_000_000;
      }
      ClockOffset o = ClockOffset.estimate(samples);
      assertThat(Math.abs(o.offsetNanos() - hidden))
          .as("seed %d round %d", seed, round)
          .isLessThanOrEqualTo(o.boundNanos());
      long narrowest = samples.stream().mapToLong(s -> s.t3() - s.t0()).min().orElseThrow();
      assertThat(o.boundNanos())
          .as("the bound comes from the narrow round trips")
          .isLessThanOrEqualTo((narrowest + narrowest / 10 + 1) / 2);
      assertThat(o.usedSamples()).isBetween(1, 20);
    }
  }

  @Test
  void aFigureSmallerThanTheBoundIsNotResolved() {
    ClockOffset o = new ClockOffset(0, 300_000, 10, 3, ClockOffset.Basis.ROUND_TRIPS);
    assertThat(o.resolves(200_000)).isFalse();
    assertThat(o.resolves(-2_000_000)).isTrue();
  }

  /**
   * On one kernel the anchors' difference is the offset, exactly; used only when the round trips
   * agree with it.
   */
  @Test
  void anOffsetFromOneKernelsClockReplacesTheEstimateOnlyWhenTheRoundTripsAgree() {
    ClockOffset estimate = new ClockOffset(40_000, 300_000, 20, 5, ClockOffset.Basis.ROUND_TRIPS);
    ClockOffset exact = estimate.onOneKernel(1_234);
    Assertions.assertThat(exact.basis()).isEqualTo(ClockOffset.Basis.SHARED_MONOTONIC);
    Assertions.assertThat(exact.offsetNanos()).isEqualTo(1_234);
    Assertions.assertThat(exact.boundNanos()).isZero();
    // a kernel that claims to be ours but disagrees by more than the bound (a time namespace, a
    // forged answer): the round trips stand
    Assertions.assertThat(estimate.onOneKernel(400_000)).isEqualTo(estimate);
  }
}
