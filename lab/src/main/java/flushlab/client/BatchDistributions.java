package flushlab.client;

import flushlab.core.LongSamples;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.function.Function;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * A batch's distributions over its complete streams, each an HdrHistogram (nanoseconds or counts,
 * three significant digits) built the first time it is asked for and auto-resizing: a batch whose
 * distributions nobody asks for (the map and staggered runs make one per stream) costs no histogram
 * at all; one that is asked costs arrays spanning the values seen. They spanned an hour at 1 ns up
 * front before: 2.2 MB per batch, most of what a run allocated.
 */
public final class BatchDistributions {
  private static final long HIGHEST_NANOS = 3_600_000_000_000L;

  /** The distributions a batch can be asked for, each with what it records from one stream. */
  enum Dist {
    TTFT(s -> s.timing().ttftNanos() >= 0 ? LongSamples.of(s.timing().ttftNanos()) : null),
    TIME_TO_HEAD(s -> s.timing().headNanos() >= 0 ? LongSamples.of(s.timing().headNanos()) : null),
    FIRST_BODY(
        s -> s.timing().firstBodyNanos() >= 0 ? LongSamples.of(s.timing().firstBodyNanos()) : null),
    GAP(s -> s.timing().gapNanos()),
    EMIT_TO_RECV(s -> s.timing().emitToRecvNanos()),
    FIRST_EMIT_TO_RECV(
        s ->
            s.timing().emitToRecvNanos().size() > 0
                ? LongSamples.of(s.timing().emitToRecvNanos().get(0))
                : null),
    RELEASE_GAP(s -> s.releases().gapNanos()),
    RELEASE_WAIT(s -> s.releases().waitNanos()),
    BYTES_PER_READ(s -> s.reads().bytesPerRead()),
    DECODED_PER_READ(s -> s.reads().decodedPerRead()),
    RELEASE_DECODED(s -> s.releases().decodedBytes()),
    BURSTS(s -> s.reads().framesPerFramedRead()),
    BURST_BYTES(s -> s.reads().bytesPerFramedRead()),
    RELEASE_BYTES(s -> s.releases().bytes()),
    RELEASE_FRAMES(s -> s.releases().frames());

    private final Function<StreamResult, LongSamples> samples;

    Dist(Function<StreamResult, LongSamples> samples) {
      this.samples = samples;
    }
  }

  private final List<StreamResult> streams;
  private final EnumMap<Dist, Histogram> built = new EnumMap<>(Dist.class);

  BatchDistributions(List<StreamResult> streams) {
    this.streams = streams;
  }

  /** A distribution over the complete streams, built the first time it is asked for. */
  synchronized Histogram histogram(Dist d) {
    return built.computeIfAbsent(
        d,
        k -> {
          Histogram h =
              new Histogram(3); // three significant digits (a zero gap stays zero), auto-resizing
          for (StreamResult s : streams) {
            LongSamples v = s.ok() ? k.samples.apply(s) : null;
            if (v != null) recordAll(h, v);
          }
          return h;
        });
  }

  private static void recordAll(Histogram h, LongSamples samples) {
    for (int i = 0; i < samples.size(); i++) {
      // Cross-process clocks can make emit->recv slightly negative; such samples read as 0.
      h.recordValue(Math.max(0, Math.min(HIGHEST_NANOS, samples.get(i))));
    }
  }

  /** Per release: how long its oldest frame waited (ns); the map reads percentiles of it. */
  public Histogram releaseWait() {
    return histogram(Dist.RELEASE_WAIT);
  }

  /** Per release: time since the one before (ns). */
  public Histogram releaseGap() {
    return histogram(Dist.RELEASE_GAP);
  }

  /** Per release: wire bytes it carried. */
  public Histogram releaseBytes() {
    return histogram(Dist.RELEASE_BYTES);
  }

  /** Per release: frames it carried. */
  public Histogram releaseFrames() {
    return histogram(Dist.RELEASE_FRAMES);
  }

  /** Per stream: its time to the first token (ns). */
  public Histogram ttft() {
    return histogram(Dist.TTFT);
  }

  /** Per frame after the first of its stream: time since the one before (ns). */
  public Histogram gap() {
    return histogram(Dist.GAP);
  }

  /** Per frame: emit to receive (ns). */
  public Histogram emitToRecv() {
    return histogram(Dist.EMIT_TO_RECV);
  }

  /** TTFT, gaps and emit-to-receive as percentile curves, in milliseconds. */
  BatchResult.PercentileCurves curves() {
    return new BatchResult.PercentileCurves(
        curve(histogram(Dist.TTFT)),
        curve(histogram(Dist.GAP)),
        curve(histogram(Dist.EMIT_TO_RECV)));
  }

  /**
   * A distribution as a percentile curve, [percentile, ms] pairs at the points HdrHistogram's own
   * plotter iterates (two per halving of the distance to 100 %).
   */
  private static List<double[]> curve(Histogram h) {
    List<double[]> points = new ArrayList<>();
    if (h.getTotalCount() == 0) return points;
    for (HistogramIterationValue v : h.percentiles(2)) {
      double p = v.getPercentileLevelIteratedTo();
      points.add(
          new double[] {
            Math.round(p * 10000) / 10000.0, Math.round(v.getValueIteratedTo() / 1e3) / 1e3
          });
      if (p >= 100.0) break;
    }
    return points;
  }
}
