package flushlab.cluster;

import java.util.List;

/**
 * How far another agent's clock is from this one's, estimated as NTP does from round trips over the
 * event bus: for a request sent at t0 and answered at t3 by a clock that read t on the way, the
 * offset is t - (t0 + t3) / 2, and it is wrong by at most half the round trip (the answer's clock
 * reading happened somewhere inside it). The narrowest round trips bound it tightest, so the
 * estimate comes from the samples whose round trip is within 10 % of the narrowest.
 *
 * <p>Two agents on one host (one kernel boot, network namespaces included) need no estimate: they
 * share the monotonic clock their lab clocks count from, so the difference of their anchors is the
 * offset, exactly ({@link Basis#SHARED_MONOTONIC}, bound 0). It is used only when the round trips
 * agree with it within their bound; otherwise the round trips' estimate stands.
 *
 * @param offsetNanos the other clock minus this one
 * @param boundNanos the estimate's uncertainty: plus or minus this much
 * @param samples round trips measured
 * @param usedSamples the narrow ones the estimate came from
 * @param basis what the offset was taken from
 */
public record ClockOffset(
    long offsetNanos, long boundNanos, int samples, int usedSamples, Basis basis) {
  /** Where an offset comes from. */
  public enum Basis {
    /** NTP's way, from the narrowest event-bus round trips; plus or minus half of them. */
    ROUND_TRIPS,
    /** Both agents on one kernel: their anchors on its monotonic clock give the offset exactly. */
    SHARED_MONOTONIC
  }

  /**
   * This estimate replaced by the exact offset of two lab clocks on one kernel, when the round
   * trips agree with it (a difference within their bound); else this estimate unchanged.
   */
  public ClockOffset onOneKernel(long anchorOffsetNanos) {
    if (Math.abs(anchorOffsetNanos - offsetNanos) > boundNanos) return this;
    return new ClockOffset(anchorOffsetNanos, 0, samples, usedSamples, Basis.SHARED_MONOTONIC);
  }

  /** One round trip: sent at t0, the other clock read t, answered at t3 (this clock, epoch ns). */
  public record Sample(long t0, long t, long t3) {
    long rtt() {
      return t3 - t0;
    }

    long offset() {
      return t - t0 - (t3 - t0) / 2;
    }
  }

  public static ClockOffset estimate(List<Sample> samples) {
    if (samples.isEmpty())
      throw new IllegalArgumentException("no round trips to estimate a clock offset from");
    long narrowest = samples.stream().mapToLong(Sample::rtt).min().orElseThrow();
    long cutoff = narrowest + narrowest / 10;
    List<Sample> narrow = samples.stream().filter(s -> s.rtt() <= cutoff).toList();
    long[] offsets = narrow.stream().mapToLong(Sample::offset).sorted().toArray();
    long median = offsets[offsets.length / 2];
    long widest = narrow.stream().mapToLong(Sample::rtt).max().orElseThrow();
    return new ClockOffset(
        median, (widest + 1) / 2, samples.size(), narrow.size(), Basis.ROUND_TRIPS);
  }

  /**
   * Whether a one-way figure of {@code nanos} across these clocks means anything: its error bound
   * is smaller than it.
   */
  public boolean resolves(long nanos) {
    return boundNanos == 0 || boundNanos < Math.abs(nanos);
  }
}
