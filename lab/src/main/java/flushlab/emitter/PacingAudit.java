package flushlab.emitter;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Arrays;

/**
 * The emitter's own record of how well it kept time for one stream: when each frame was due and
 * when its write completed (the kernel had taken every byte). Lateness is the difference. Only
 * the stream's event loop writes here; readers get an immutable {@link Summary}.
 */
public final class PacingAudit {
  private final long streamId;
  private final boolean paced;
  private final long[] dueNanos;
  private final long[] writtenNanos;
  private int written;
  private int backpressureWaits;
  private volatile Summary finished;

  public PacingAudit(long streamId, int frames, boolean paced) {
    this.streamId = streamId;
    this.paced = paced;
    this.dueNanos = new long[frames];
    this.writtenNanos = new long[frames];
  }

  public long streamId() {
    return streamId;
  }

  void recordWritten(int index, long due, long writtenAt) {
    dueNanos[index] = due;
    writtenNanos[index] = writtenAt;
    written = Math.max(written, index + 1);
  }

  void recordBackpressureWait() {
    backpressureWaits++;
  }

  /** Freezes the audit; called by the stream's event loop when the stream ends or is cut. */
  Summary finish(boolean complete) {
    long[] lateness = new long[written];
    for (int i = 0; i < written; i++) {
      lateness[i] = Math.max(0, writtenNanos[i] - dueNanos[i]);
    }
    Arrays.sort(lateness);
    Summary s = new Summary(streamId, paced, complete, dueNanos.length, written, backpressureWaits,
        percentile(lateness, 50), percentile(lateness, 99), written == 0 ? 0 : lateness[written - 1]);
    finished = s;
    return s;
  }

  /** Adds every written frame's lateness (ns) to h; for benches that pool many streams. */
  public void recordLatenessInto(org.HdrHistogram.Histogram h) {
    if (!paced || finished == null) return;
    for (int i = 0; i < written; i++) {
      h.recordValue(Math.min(h.getHighestTrackableValue(), Math.max(0, writtenNanos[i] - dueNanos[i])));
    }
  }

  /** The frozen summary, or null while the stream is still running. */
  public Summary summary() {
    return finished;
  }

  static long percentile(long[] sorted, double p) {
    if (sorted.length == 0) return 0;
    int rank = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank))];
  }

  /** Lateness of a finished stream, in nanoseconds; JSON in milliseconds. */
  public record Summary(
      @JsonProperty("stream_id") long streamId,
      @JsonProperty("paced") boolean paced,
      @JsonProperty("complete") boolean complete,
      @JsonProperty("frames_planned") int framesPlanned,
      @JsonProperty("frames_written") int framesWritten,
      @JsonProperty("backpressure_waits") int backpressureWaits,
      long latenessP50Nanos,
      long latenessP99Nanos,
      long latenessMaxNanos) {

    @JsonProperty("lateness_ms")
    public java.util.Map<String, Double> latenessMs() {
      java.util.Map<String, Double> m = new java.util.LinkedHashMap<>();
      m.put("p50", flushlab.core.Units.nanosToMillis(latenessP50Nanos));
      m.put("p99", flushlab.core.Units.nanosToMillis(latenessP99Nanos));
      m.put("max", flushlab.core.Units.nanosToMillis(latenessMaxNanos));
      return m;
    }

    @com.fasterxml.jackson.annotation.JsonIgnore
    public long latenessP50Nanos() {
      return latenessP50Nanos;
    }

    @com.fasterxml.jackson.annotation.JsonIgnore
    public long latenessP99Nanos() {
      return latenessP99Nanos;
    }

    @com.fasterxml.jackson.annotation.JsonIgnore
    public long latenessMaxNanos() {
      return latenessMaxNanos;
    }
  }
}
