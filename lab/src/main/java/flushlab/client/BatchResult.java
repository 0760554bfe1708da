package flushlab.client;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import flushlab.core.LongSamples;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * A batch of streams, aggregated. Only streams without an error are measurements; errored streams
 * are counted by kind with one example message each. Distributions live in HdrHistograms (values
 * in nanoseconds, 3 significant digits). Field names are the documented JSON schema
 * (docs/RESULTS.md).
 */
@JsonPropertyOrder({"streams", "streams_ok", "frames_per_read", "frames", "reads", "reads_with_frames", "bytes",
    "ttft_ms", "gap_ms", "emit_to_recv_ms", "first_emit_to_recv_ms", "bytes_per_read", "burst_frames", "burst_bytes", "releases", "release_gap_ms", "release_bytes", "release_frames", "release_wait_ms",
    "lost_frames", "duplicate_frames", "reordered_frames", "corrupt_frames", "unchecked_frames", "errors", "stream_ids"})
public final class BatchResult {
  private static final long HIGHEST_NANOS = 3_600_000_000_000L;

  private final List<StreamResult> streams;
  // Built on first use, from the streams, auto-resizing: a batch whose
  // distributions nobody asks for (the map and staggered runs make one per stream) costs no
  // histogram at all; one that is asked costs arrays spanning the values seen. They spanned an
  // hour at 1 ns up front before: 2.2 MB per batch, most of what a run allocated.
  private Histogram ttft;
  private Histogram gap;
  private Histogram emitToRecv;
  private Histogram firstEmitToRecv;
  private Histogram releaseGap;
  private Histogram releaseWait;
  private Histogram bytesPerRead;
  private Histogram bursts;
  private Histogram burstBytes;
  private Histogram releaseBytes;
  private Histogram releaseFrames;
  private long releases;
  private long frames;
  private long reads;
  private long readsWithFrames;
  private long bytes;
  private long lost;
  private long duplicated;
  private long reordered;
  private long corrupt;
  private long unchecked;
  private int ok;
  private final Map<StreamError, Integer> errorCounts = new EnumMap<>(StreamError.class);
  private final Map<StreamError, String> errorExamples = new EnumMap<>(StreamError.class);

  public BatchResult(List<StreamResult> streams) {
    this.streams = List.copyOf(streams);
    for (StreamResult s : streams) {
      if (!s.ok()) {
        errorCounts.merge(s.error(), 1, Integer::sum);
        errorExamples.putIfAbsent(s.error(), s.errorMessage());
        continue;
      }
      ok++;
      StreamResult.Integrity in = s.integrity();
      frames += in.frames();
      lost += in.lost();
      duplicated += in.duplicated();
      reordered += in.reordered();
      corrupt += in.corrupt();
      unchecked += in.unchecked();
      StreamResult.Reads rd = s.reads();
      reads += rd.count();
      readsWithFrames += rd.withFrames();
      bytes += rd.bytes();
      releases += s.releases().count();
    }
  }

  private synchronized Histogram ttftHist() {
    if (ttft == null) {
      Histogram h = timeHistogram();
      for (StreamResult s : streams) {
        if (s.ok()) if (s.timing().ttftNanos() >= 0) h.recordValue(Math.min(HIGHEST_NANOS, s.timing().ttftNanos()));
      }
      ttft = h;
    }
    return ttft;
  }

  private synchronized Histogram gapHist() {
    if (gap == null) {
      Histogram h = timeHistogram();
      for (StreamResult s : streams) {
        if (s.ok()) recordAll(h, s.timing().gapNanos());
      }
      gap = h;
    }
    return gap;
  }

  private synchronized Histogram emitToRecvHist() {
    if (emitToRecv == null) {
      Histogram h = timeHistogram();
      for (StreamResult s : streams) {
        if (s.ok()) recordAll(h, s.timing().emitToRecvNanos());
      }
      emitToRecv = h;
    }
    return emitToRecv;
  }

  private synchronized Histogram firstEmitToRecvHist() {
    if (firstEmitToRecv == null) {
      Histogram h = timeHistogram();
      for (StreamResult s : streams) {
        if (s.ok()) if (s.timing().emitToRecvNanos().size() > 0) h.recordValue(Math.max(0, Math.min(HIGHEST_NANOS, s.timing().emitToRecvNanos().get(0))));
      }
      firstEmitToRecv = h;
    }
    return firstEmitToRecv;
  }

  private synchronized Histogram releaseGapHist() {
    if (releaseGap == null) {
      Histogram h = timeHistogram();
      for (StreamResult s : streams) {
        if (s.ok()) recordAll(h, s.releases().gapNanos());
      }
      releaseGap = h;
    }
    return releaseGap;
  }

  private synchronized Histogram releaseWaitHist() {
    if (releaseWait == null) {
      Histogram h = timeHistogram();
      for (StreamResult s : streams) {
        if (s.ok()) recordAll(h, s.releases().waitNanos());
      }
      releaseWait = h;
    }
    return releaseWait;
  }

  private synchronized Histogram bytesPerReadHist() {
    if (bytesPerRead == null) {
      Histogram h = countHistogram();
      for (StreamResult s : streams) {
        if (s.ok()) recordAll(h, s.reads().bytesPerRead());
      }
      bytesPerRead = h;
    }
    return bytesPerRead;
  }

  private synchronized Histogram burstsHist() {
    if (bursts == null) {
      Histogram h = countHistogram();
      for (StreamResult s : streams) {
        if (s.ok()) recordAll(h, s.reads().framesPerFramedRead());
      }
      bursts = h;
    }
    return bursts;
  }

  private synchronized Histogram burstBytesHist() {
    if (burstBytes == null) {
      Histogram h = countHistogram();
      for (StreamResult s : streams) {
        if (s.ok()) recordAll(h, s.reads().bytesPerFramedRead());
      }
      burstBytes = h;
    }
    return burstBytes;
  }

  private synchronized Histogram releaseBytesHist() {
    if (releaseBytes == null) {
      Histogram h = countHistogram();
      for (StreamResult s : streams) {
        if (s.ok()) recordAll(h, s.releases().bytes());
      }
      releaseBytes = h;
    }
    return releaseBytes;
  }

  private synchronized Histogram releaseFramesHist() {
    if (releaseFrames == null) {
      Histogram h = countHistogram();
      for (StreamResult s : streams) {
        if (s.ok()) recordAll(h, s.releases().frames());
      }
      releaseFrames = h;
    }
    return releaseFrames;
  }

  /** Nanoseconds, three significant digits (a zero gap stays zero), auto-resizing. */
  private static Histogram timeHistogram() {
    return new Histogram(3);
  }

  /** Bytes and frames: exact up to 2048, three significant digits above. */
  private static Histogram countHistogram() {
    return new Histogram(3);
  }

  private static void recordAll(Histogram h, LongSamples samples) {
    for (int i = 0; i < samples.size(); i++) {
      // Cross-process clocks can make emit->recv slightly negative; such samples read as 0.
      h.recordValue(Math.max(0, Math.min(HIGHEST_NANOS, samples.get(i))));
    }
  }

  /** Percentile curves as [percentile, ms] pairs, for drawing on a log scale of 1/(1-p). */
  public record PercentileCurves(List<double[]> ttftMs, List<double[]> gapMs, List<double[]> emitToRecvMs) {}

  /**
   * TTFT, gaps and emit-to-receive as percentile curves, the points HdrHistogram's own plotter
   * iterates (two per halving of the distance to 100 %), in milliseconds.
   */
  @JsonProperty("percentile_curves")
  public PercentileCurves percentileCurves() {
    return new PercentileCurves(curve(ttftHist()), curve(gapHist()), curve(emitToRecvHist()));
  }

  private static List<double[]> curve(Histogram h) {
    List<double[]> points = new java.util.ArrayList<>();
    if (h.getTotalCount() == 0) return points;
    for (org.HdrHistogram.HistogramIterationValue v : h.percentiles(2)) {
      double p = v.getPercentileLevelIteratedTo();
      points.add(new double[] {Math.round(p * 10000) / 10000.0, Math.round(v.getValueIteratedTo() / 1e3) / 1e3});
      if (p >= 100.0) break;
    }
    return points;
  }

  @JsonIgnore
  public List<StreamResult> streamResults() {
    return streams;
  }

  @JsonProperty("streams")
  public int streams() {
    return streams.size();
  }

  @JsonProperty("streams_ok")
  public int streamsOk() {
    return ok;
  }

  /** All frames over all reads that completed at least one, across the measured streams. */
  @JsonProperty("frames_per_read")
  public double framesPerRead() {
    return readsWithFrames == 0 ? 0 : Math.round((double) frames / readsWithFrames * 1000) / 1000.0;
  }

  /** Wire bytes per frame (body framing included), from what the client received; 0 without frames. */
  @JsonIgnore
  public double wireBytesPerFrame() {
    return frames == 0 ? 0 : (double) bytes / frames;
  }

  @JsonProperty("frames")
  public long frames() {
    return frames;
  }

  @JsonProperty("reads")
  public long reads() {
    return reads;
  }

  @JsonProperty("reads_with_frames")
  public long readsWithFrames() {
    return readsWithFrames;
  }

  @JsonProperty("bytes")
  public long bytes() {
    return bytes;
  }

  @JsonProperty("ttft_ms")
  public Distribution ttftMs() {
    return Distribution.ofNanos(ttftHist());
  }

  @JsonProperty("gap_ms")
  public Distribution gapMs() {
    return Distribution.ofNanos(gapHist());
  }

  @JsonProperty("emit_to_recv_ms")
  public Distribution emitToRecvMs() {
    return Distribution.ofNanos(emitToRecvHist());
  }

  @JsonProperty("first_emit_to_recv_ms")
  public Distribution firstEmitToRecvMs() {
    return Distribution.ofNanos(firstEmitToRecvHist());
  }

  @JsonProperty("bytes_per_read")
  public Distribution bytesPerRead() {
    return Distribution.ofCounts(bytesPerReadHist());
  }

  @JsonProperty("burst_frames")
  public Distribution burstFrames() {
    return Distribution.ofCounts(burstsHist());
  }

  /** Bytes of the reads that completed at least one frame: what each release carried. */
  @JsonProperty("burst_bytes")
  public Distribution burstBytes() {
    return Distribution.ofCounts(burstBytesHist());
  }

  /**
   * Releases: bursts from the sender, however many reads the client needed (see StreamMeter),
   * counted in full here. Each stream's first release (it carries the response head) and last
   * (the end-of-stream flush) are left out of the release distributions below.
   */
  @JsonProperty("releases")
  public long releases() {
    return releases;
  }

  /** Time between the starts of consecutive releases. */
  @JsonProperty("release_gap_ms")
  public Distribution releaseGapMs() {
    return Distribution.ofNanos(releaseGapHist());
  }

  @JsonProperty("release_bytes")
  public Distribution releaseBytes() {
    return Distribution.ofCounts(releaseBytesHist());
  }

  @JsonProperty("release_frames")
  public Distribution releaseFrames() {
    return Distribution.ofCounts(releaseFramesHist());
  }

  /** How long each release's oldest frame waited (emit to receive): a hold timer's value, read directly. */
  @JsonProperty("release_wait_ms")
  public Distribution releaseWaitMs() {
    return Distribution.ofNanos(releaseWaitHist());
  }

  @JsonProperty("lost_frames")
  public long lostFrames() {
    return lost;
  }

  @JsonProperty("duplicate_frames")
  public long duplicateFrames() {
    return duplicated;
  }

  @JsonProperty("reordered_frames")
  public long reorderedFrames() {
    return reordered;
  }

  @JsonProperty("corrupt_frames")
  public long corruptFrames() {
    return corrupt;
  }

  @JsonProperty("unchecked_frames")
  public long uncheckedFrames() {
    return unchecked;
  }

  @JsonProperty("errors")
  public List<Map<String, Object>> errors() {
    List<Map<String, Object>> out = new ArrayList<>();
    errorCounts.forEach((kind, count) -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("kind", kind.name().toLowerCase());
      m.put("meaning", kind.meaning());
      m.put("count", count);
      m.put("example", errorExamples.get(kind));
      out.add(m);
    });
    return out;
  }

  /** The first error kind in words with an example ("meaning (example)"), or null when none failed. */
  @JsonIgnore
  public String firstError() {
    for (var e : errorCounts.keySet()) return e.meaning() + " (" + errorExamples.get(e) + ")";
    return null;
  }

  @JsonIgnore
  public int errorCount() {
    return streams.size() - ok;
  }

  @JsonProperty("stream_ids")
  public List<Long> streamIds() {
    List<Long> ids = new ArrayList<>();
    for (StreamResult s : streams) ids.add(s.streamId());
    return ids;
  }

  /** Per release: how long its oldest frame waited (ns); the map reads percentiles of it. */
  @JsonIgnore
  public Histogram releaseWaitHistogram() {
    return releaseWaitHist();
  }

  /** Per release: time since the one before (ns). */
  @JsonIgnore
  public Histogram releaseGapHistogram() {
    return releaseGapHist();
  }

  /** Per release: frames it carried. */
  @JsonIgnore
  public Histogram releaseFramesHistogram() {
    return releaseFramesHist();
  }

  @JsonIgnore
  public Histogram ttftHistogram() {
    return ttftHist();
  }

  @JsonIgnore
  public Histogram gapHistogram() {
    return gapHist();
  }

  @JsonIgnore
  public Histogram emitToRecvHistogram() {
    return emitToRecvHist();
  }

  /** One line for a terminal. */
  public String oneLine() {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format("streams %d/%d ok  frames/read %.2f  frames %d  reads %d  ttft p50 %.3fms  gap p50 %.3fms max %.3fms  emit->recv p50 %.3fms p99 %.3fms  lost %d corrupt %d",
        ok, streams.size(), framesPerRead(), frames, reads, ttftMs().p50(), gapMs().p50(), gapMs().max(),
        emitToRecvMs().p50(), emitToRecvMs().p99(), lost, corrupt));
    if (!errorCounts.isEmpty()) {
      errorCounts.forEach((k, v) -> sb.append("  ").append(k.name().toLowerCase()).append(" x").append(v)
          .append(": ").append(errorExamples.get(k)));
    }
    return sb.toString();
  }
}
