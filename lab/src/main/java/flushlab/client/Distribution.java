package flushlab.client;

import flushlab.core.Units;
import org.HdrHistogram.Histogram;

/** p50, mean, p99 and max of a distribution recorded in nanoseconds, reported in milliseconds. */
public record Distribution(long count, double p50, double mean, double p99, double max) {

  public static final Distribution EMPTY = new Distribution(0, 0, 0, 0, 0);

  public static Distribution ofNanos(Histogram h) {
    if (h.getTotalCount() == 0) return EMPTY;
    return new Distribution(
        h.getTotalCount(),
        Units.nanosToMillis(h.getValueAtPercentile(50)),
        Units.nanosToMillis(Math.round(h.getMean())),
        Units.nanosToMillis(h.getValueAtPercentile(99)),
        Units.nanosToMillis(h.getMaxValue()));
  }

  /** For counts (bytes, frames): values as recorded, means to two decimals. */
  public static Distribution ofCounts(Histogram h) {
    if (h.getTotalCount() == 0) return EMPTY;
    return new Distribution(
        h.getTotalCount(),
        h.getValueAtPercentile(50),
        Math.round(h.getMean() * 100) / 100.0,
        h.getValueAtPercentile(99),
        h.getMaxValue());
  }
}
