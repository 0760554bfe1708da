package flushlab.client;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * A gateway's cost against the loopback path, from interleaved rounds: each round measures the
 * loopback and the gateway with the same requests, one right after the other, so drift on the
 * machine (another process, the JIT, a frequency change) lands on both sides of a round. A metric's
 * overhead is the median over rounds of the two sides' difference; its noise is the spread of those
 * per-round differences, their interquartile range (so one round that met a pause does not hide a
 * steady difference; with three rounds it is half their range). An overhead no larger than the
 * spread is not reported as a finding: it is "within noise", and more rounds or requests are what
 * to measure next. One calibration batch before the gateway batch, as before, once gave a negative
 * overhead and ranged 0.99-5.7 ms for a sub-millisecond hop.
 */
public final class GatewayOverhead {

  /** What is compared, with the label the probe prints. */
  public enum Metric {
    TTFT("TTFT (client)", BatchResult::ttftMs),
    FIRST_EMIT_TO_RECV("emit->recv (1st token)", BatchResult::firstEmitToRecvMs),
    EMIT_TO_RECV("emit->recv (tokens)", BatchResult::emitToRecvMs),
    GAP("inter-token (client)", BatchResult::gapMs);

    public final String label;
    private final Function<BatchResult, Distribution> of;

    Metric(String label, Function<BatchResult, Distribution> of) {
      this.label = label;
      this.of = of;
    }

    public Distribution of(BatchResult r) {
      return of.apply(r);
    }
  }

  /** The metrics whose resolution decides whether more rounds are needed. */
  public static final List<Metric> DECIDING = List.of(Metric.TTFT, Metric.EMIT_TO_RECV);

  /**
   * One metric's answer: median per-round p50 difference, its spread, and pooled mean and p99
   * differences.
   */
  public record Difference(
      Metric metric, double p50Ms, double spreadMs, double meanMs, double p99Ms, int rounds) {
    /** The difference stands out of the rounds' noise: it is larger than their spread. */
    public boolean resolved() {
      return rounds >= 2 && Math.abs(p50Ms) > spreadMs;
    }
  }

  private final List<BatchResult> loopback = new ArrayList<>();
  private final List<BatchResult> gateway = new ArrayList<>();

  /** One round: the loopback batch and the gateway batch, measured back to back. */
  public void addRound(BatchResult loopbackBatch, BatchResult gatewayBatch) {
    loopback.add(loopbackBatch);
    gateway.add(gatewayBatch);
  }

  public int rounds() {
    return loopback.size();
  }

  /** Every round's loopback streams as one batch. */
  public BatchResult pooledLoopback() {
    return pool(loopback);
  }

  /** Every round's gateway streams as one batch. */
  public BatchResult pooledGateway() {
    return pool(gateway);
  }

  public Difference difference(Metric m) {
    int n = rounds();
    double[] d = new double[n];
    for (int i = 0; i < n; i++) d[i] = m.of(gateway.get(i)).p50() - m.of(loopback.get(i)).p50();
    Arrays.sort(d);
    double median = n == 0 ? 0 : (n % 2 == 1 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2);
    double spread = n == 0 ? 0 : quantile(d, 0.75) - quantile(d, 0.25);
    Distribution g = m.of(pooledGateway());
    Distribution l = m.of(pooledLoopback());
    return new Difference(m, median, spread, g.mean() - l.mean(), g.p99() - l.p99(), n);
  }

  /** The q-quantile of sorted values, interpolated between neighbours. */
  static double quantile(double[] sorted, double q) {
    double at = q * (sorted.length - 1);
    int lo = (int) Math.floor(at);
    int hi = Math.min(sorted.length - 1, lo + 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
  }

  /** The deciding metrics all stand out of their noise. */
  public boolean resolved() {
    return DECIDING.stream().allMatch(m -> difference(m).resolved());
  }

  private static BatchResult pool(List<BatchResult> batches) {
    List<StreamResult> all = new ArrayList<>();
    for (BatchResult b : batches) all.addAll(b.streamResults());
    return new BatchResult(all);
  }
}
