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
  private final Histogram ttft = new Histogram(HIGHEST_NANOS, 3);
  private final Histogram gap = new Histogram(HIGHEST_NANOS, 3);
  private final Histogram emitToRecv = new Histogram(HIGHEST_NANOS, 3);
  private final Histogram firstEmitToRecv = new Histogram(HIGHEST_NANOS, 3);
  private final Histogram bytesPerRead = new Histogram(1L << 34, 3);
  private final Histogram bursts = new Histogram(1L << 24, 3);
  private final Histogram burstBytes = new Histogram(1L << 34, 3);
  private final Histogram releaseGap = new Histogram(HIGHEST_NANOS, 3);
  private final Histogram releaseBytes = new Histogram(1L << 34, 3);
  private final Histogram releaseFrames = new Histogram(1L << 24, 3);
  private final Histogram releaseWait = new Histogram(HIGHEST_NANOS, 3);
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
      recordAll(bytesPerRead, rd.bytesPerRead());
      recordAll(bursts, rd.framesPerFramedRead());
      recordAll(burstBytes, rd.bytesPerFramedRead());
      StreamResult.Timing tm = s.timing();
      if (tm.ttftNanos() >= 0) ttft.recordValue(Math.min(HIGHEST_NANOS, tm.ttftNanos()));
      recordAll(gap, tm.gapNanos());
      recordAll(emitToRecv, tm.emitToRecvNanos());
      if (tm.emitToRecvNanos().size() > 0) {
        firstEmitToRecv.recordValue(Math.max(0, Math.min(HIGHEST_NANOS, tm.emitToRecvNanos().get(0))));
      }
      StreamResult.Releases rel = s.releases();
      recordAll(releaseGap, rel.gapNanos());
      recordAll(releaseBytes, rel.bytes());
      recordAll(releaseFrames, rel.frames());
      recordAll(releaseWait, rel.waitNanos());
      releases += rel.count();
    }
  }

  private static void recordAll(Histogram h, LongSamples samples) {
    long highest = h.getHighestTrackableValue();
    for (int i = 0; i < samples.size(); i++) {
      // Cross-process clocks can make emit->recv slightly negative; such samples read as 0.
      h.recordValue(Math.max(0, Math.min(highest, samples.get(i))));
    }
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
    return Distribution.ofNanos(ttft);
  }

  @JsonProperty("gap_ms")
  public Distribution gapMs() {
    return Distribution.ofNanos(gap);
  }

  @JsonProperty("emit_to_recv_ms")
  public Distribution emitToRecvMs() {
    return Distribution.ofNanos(emitToRecv);
  }

  @JsonProperty("first_emit_to_recv_ms")
  public Distribution firstEmitToRecvMs() {
    return Distribution.ofNanos(firstEmitToRecv);
  }

  @JsonProperty("bytes_per_read")
  public Distribution bytesPerRead() {
    return Distribution.ofCounts(bytesPerRead);
  }

  @JsonProperty("burst_frames")
  public Distribution burstFrames() {
    return Distribution.ofCounts(bursts);
  }

  /** Bytes of the reads that completed at least one frame: what each release carried. */
  @JsonProperty("burst_bytes")
  public Distribution burstBytes() {
    return Distribution.ofCounts(burstBytes);
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
    return Distribution.ofNanos(releaseGap);
  }

  @JsonProperty("release_bytes")
  public Distribution releaseBytes() {
    return Distribution.ofCounts(releaseBytes);
  }

  @JsonProperty("release_frames")
  public Distribution releaseFrames() {
    return Distribution.ofCounts(releaseFrames);
  }

  /** How long each release's oldest frame waited (emit to receive): a hold timer's value, read directly. */
  @JsonProperty("release_wait_ms")
  public Distribution releaseWaitMs() {
    return Distribution.ofNanos(releaseWait);
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
    return releaseWait;
  }

  /** Per release: time since the one before (ns). */
  @JsonIgnore
  public Histogram releaseGapHistogram() {
    return releaseGap;
  }

  /** Per release: frames it carried. */
  @JsonIgnore
  public Histogram releaseFramesHistogram() {
    return releaseFrames;
  }

  @JsonIgnore
  public Histogram ttftHistogram() {
    return ttft;
  }

  @JsonIgnore
  public Histogram gapHistogram() {
    return gap;
  }

  @JsonIgnore
  public Histogram emitToRecvHistogram() {
    return emitToRecv;
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
