package flushlab.client;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import flushlab.client.BatchDistributions.Dist;
import flushlab.coding.ContentCoding;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * A batch of streams, aggregated. Only streams without an error are measurements; errored streams
 * are counted by kind with one example message each. Distributions live in HdrHistograms (values in
 * nanoseconds, 3 significant digits). Field names are the documented JSON schema (docs/RESULTS.md).
 */
@JsonPropertyOrder({
  "streams",
  "streams_ok",
  "frames_per_read",
  "frames",
  "reads",
  "reads_with_frames",
  "bytes",
  "body_bytes",
  "decoded_body_bytes",
  "time_to_head_ms",
  "first_body_byte_ms",
  "ttft_ms",
  "gap_ms",
  "emit_to_recv_ms",
  "first_emit_to_recv_ms",
  "bytes_per_read",
  "decoded_bytes_per_read",
  "burst_frames",
  "burst_bytes",
  "releases",
  "release_gap_ms",
  "release_bytes",
  "release_decoded_bytes",
  "release_frames",
  "release_wait_ms",
  "lost_frames",
  "duplicate_frames",
  "reordered_frames",
  "corrupt_frames",
  "unchecked_frames",
  "errors",
  "content_codings",
  "h2",
  "stream_ids"
})
public final class BatchResult {
  private final List<StreamResult> streams;
  private final BatchDistributions distributions;
  private long releases;
  private long frames;
  private long reads;
  private long readsWithFrames;
  private long bytes;
  private long decodedBodyBytes;
  private long bodyBytes;
  private long lost;
  private long duplicated;
  private long reordered;
  private long corrupt;
  private long unchecked;
  private int ok;
  private final BatchErrors errors = new BatchErrors();

  public BatchResult(List<StreamResult> streams) {
    this.streams = List.copyOf(streams);
    this.distributions = new BatchDistributions(this.streams);
    for (StreamResult s : streams) {
      if (!s.ok()) {
        errors.add(s);
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
      decodedBodyBytes += rd.decodedBodyBytes();
      bodyBytes += rd.bodyBytes();
      releases += s.releases().count();
    }
  }

  /** Percentile curves as [percentile, ms] pairs, for drawing on a log scale of 1/(1-p). */
  public record PercentileCurves(
      List<double[]> ttftMs, List<double[]> gapMs, List<double[]> emitToRecvMs) {}

  /**
   * TTFT, gaps and emit-to-receive as percentile curves, the points HdrHistogram's own plotter
   * iterates (two per halving of the distance to 100 %), in milliseconds.
   */
  @JsonProperty("percentile_curves")
  public PercentileCurves percentileCurves() {
    return distributions.curves();
  }

  private Histogram hist(Dist d) {
    return distributions.histogram(d);
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

  /**
   * Wire bytes per frame (body framing included), from what the client received; 0 without frames.
   */
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

  /**
   * Body bytes as they came over the complete streams: chunk framing removed, still compressed when
   * they were.
   */
  @JsonProperty("body_bytes")
  public long bodyBytes() {
    return bodyBytes;
  }

  /**
   * The body as the SSE parser saw it, after any content coding was undone (with none: the body
   * bytes as sent).
   */
  @JsonProperty("decoded_body_bytes")
  public long decodedBodyBytes() {
    return decodedBodyBytes;
  }

  /**
   * From the request written to the response head: a server's answer, or (behind a proxy that
   * withholds it) its first token's.
   */
  @JsonProperty("time_to_head_ms")
  public Distribution timeToHeadMs() {
    return Distribution.ofNanos(hist(Dist.TIME_TO_HEAD));
  }

  /**
   * From the request written to the first body byte of any kind (a comment, an announcing event, a
   * frame).
   */
  @JsonProperty("first_body_byte_ms")
  public Distribution firstBodyByteMs() {
    return Distribution.ofNanos(hist(Dist.FIRST_BODY));
  }

  @JsonProperty("ttft_ms")
  public Distribution ttftMs() {
    return Distribution.ofNanos(hist(Dist.TTFT));
  }

  @JsonProperty("gap_ms")
  public Distribution gapMs() {
    return Distribution.ofNanos(hist(Dist.GAP));
  }

  @JsonProperty("emit_to_recv_ms")
  public Distribution emitToRecvMs() {
    return Distribution.ofNanos(hist(Dist.EMIT_TO_RECV));
  }

  @JsonProperty("first_emit_to_recv_ms")
  public Distribution firstEmitToRecvMs() {
    return Distribution.ofNanos(hist(Dist.FIRST_EMIT_TO_RECV));
  }

  @JsonProperty("bytes_per_read")
  public Distribution bytesPerRead() {
    return Distribution.ofCounts(hist(Dist.BYTES_PER_READ));
  }

  /**
   * What each read's wire bytes let the decoder release (the body bytes of the read when it has no
   * coding).
   */
  @JsonProperty("decoded_bytes_per_read")
  public Distribution decodedBytesPerRead() {
    return Distribution.ofCounts(hist(Dist.DECODED_PER_READ));
  }

  /**
   * Content codings the complete streams' bodies arrived in, with how many streams each ("identity"
   * for none).
   */
  @JsonProperty("content_codings")
  public Map<String, Integer> contentCodings() {
    return StreamCodings.counted(streams);
  }

  /**
   * Body bytes per frame over the releases the distributions keep (neither a stream's first nor its
   * last): a compressing target's steady output per event, without its header, warm-up or trailer.
   * 0 when no release was kept.
   */
  @JsonIgnore
  public double releaseBodyBytesPerFrame() {
    long body = 0;
    long n = 0;
    for (StreamResult s : streams) {
      if (!s.ok()) continue;
      StreamResult.Releases r = s.releases();
      for (int i = 0; i < r.frames().size(); i++) {
        body += r.bodyBytes().get(i);
        n += r.frames().get(i);
      }
    }
    return n == 0 ? 0 : (double) body / n;
  }

  @JsonProperty("h2")
  public H2Summary h2() {
    return H2Summary.of(streams);
  }

  /**
   * The coding most complete streams arrived in, or null when none was compressed (or none was
   * complete).
   */
  @JsonIgnore
  public ContentCoding dominantCoding() {
    return StreamCodings.dominant(streams);
  }

  @JsonProperty("burst_frames")
  public Distribution burstFrames() {
    return Distribution.ofCounts(hist(Dist.BURSTS));
  }

  /** Bytes of the reads that completed at least one frame: what each release carried. */
  @JsonProperty("burst_bytes")
  public Distribution burstBytes() {
    return Distribution.ofCounts(hist(Dist.BURST_BYTES));
  }

  /**
   * Releases: bursts from the sender, however many reads the client needed (see StreamMeter),
   * counted in full here. Each stream's first release (it carries the response head) and last (the
   * end-of-stream flush) are left out of the release distributions below.
   */
  @JsonProperty("releases")
  public long releases() {
    return releases;
  }

  /** Time between the starts of consecutive releases. */
  @JsonProperty("release_gap_ms")
  public Distribution releaseGapMs() {
    return Distribution.ofNanos(hist(Dist.RELEASE_GAP));
  }

  @JsonProperty("release_bytes")
  public Distribution releaseBytes() {
    return Distribution.ofCounts(hist(Dist.RELEASE_BYTES));
  }

  /**
   * The body bytes each release carried once decoded (equal to release_bytes less the framing when
   * the body has no coding).
   */
  @JsonProperty("release_decoded_bytes")
  public Distribution releaseDecodedBytes() {
    return Distribution.ofCounts(hist(Dist.RELEASE_DECODED));
  }

  @JsonProperty("release_frames")
  public Distribution releaseFrames() {
    return Distribution.ofCounts(hist(Dist.RELEASE_FRAMES));
  }

  /**
   * How long each release's oldest frame waited (emit to receive): a hold timer's value, read
   * directly.
   */
  @JsonProperty("release_wait_ms")
  public Distribution releaseWaitMs() {
    return Distribution.ofNanos(hist(Dist.RELEASE_WAIT));
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
    return errors.asJson();
  }

  /**
   * The first error kind in words with an example ("meaning (example)"), or null when none failed.
   */
  @JsonIgnore
  public String firstError() {
    return errors.first();
  }

  /** Whether any stream failed for {@code kind}. */
  @JsonIgnore
  public boolean failedWith(StreamError kind) {
    return errors.has(kind);
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

  /** The distributions as HdrHistograms (nanoseconds or counts), for reading percentiles. */
  @JsonIgnore
  public BatchDistributions histograms() {
    return distributions;
  }

  /** One line for a terminal. */
  public String oneLine() {
    return BatchLine.of(this, errors);
  }
}
