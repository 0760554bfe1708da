package flushlab.client;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import flushlab.coding.ContentCoding;
import flushlab.core.LongSamples;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
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
  private static final long HIGHEST_NANOS = 3_600_000_000_000L;

  private final List<StreamResult> streams;
  // Built on first use, from the streams, auto-resizing: a batch whose
  // distributions nobody asks for (the map and staggered runs make one per stream) costs no
  // histogram at all; one that is asked costs arrays spanning the values seen. They spanned an
  // hour at 1 ns up front before: 2.2 MB per batch, most of what a run allocated.
  private final EnumMap<Dist, Histogram> built = new EnumMap<>(Dist.class);
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
      decodedBodyBytes += rd.decodedBodyBytes();
      bodyBytes += rd.bodyBytes();
      releases += s.releases().count();
    }
  }

  /** The distributions a batch can be asked for, each with what it records from one stream. */
  private enum Dist {
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

  /** A distribution over the complete streams, built the first time it is asked for. */
  private synchronized Histogram hist(Dist d) {
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

  /** Percentile curves as [percentile, ms] pairs, for drawing on a log scale of 1/(1-p). */
  public record PercentileCurves(
      List<double[]> ttftMs, List<double[]> gapMs, List<double[]> emitToRecvMs) {}

  /**
   * TTFT, gaps and emit-to-receive as percentile curves, the points HdrHistogram's own plotter
   * iterates (two per halving of the distance to 100 %), in milliseconds.
   */
  @JsonProperty("percentile_curves")
  public PercentileCurves percentileCurves() {
    return new PercentileCurves(
        curve(hist(Dist.TTFT)), curve(hist(Dist.GAP)), curve(hist(Dist.EMIT_TO_RECV)));
  }

  private static List<double[]> curve(Histogram h) {
    List<double[]> points = new ArrayList<>();
    if (h.getTotalCount() == 0) return points;
    for (org.HdrHistogram.HistogramIterationValue v : h.percentiles(2)) {
      double p = v.getPercentileLevelIteratedTo();
      points.add(
          new double[] {
            Math.round(p * 10000) / 10000.0, Math.round(v.getValueIteratedTo() / 1e3) / 1e3
          });
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
   * The body as the SSE parser saw it, after any content coding was undone (with none: the body
   * bytes as sent).
   */
  /**
   * Body bytes as they came over the complete streams: chunk framing removed, still compressed when
   * they were.
   */
  @JsonProperty("body_bytes")
  public long bodyBytes() {
    return bodyBytes;
  }

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
    Map<String, Integer> out = new TreeMap<>();
    for (StreamResult s : streams)
      if (s.ok()) out.merge(s.coding() == null ? "identity" : s.coding().text(), 1, Integer::sum);
    return out;
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

  /**
   * HTTP/2, over the complete streams: the server's SETTINGS (of the first), WINDOW_UPDATEs each
   * way and DATA bytes summed; null over HTTP/1.x.
   */
  public record H2Summary(
      int streams,
      Map<String, Long> serverSettings,
      long windowUpdatesSent,
      long windowUpdatesReceived,
      long dataBytes,
      int clientInitialWindow,
      int clientConnectionWindow) {}

  @JsonProperty("h2")
  public H2Summary h2() {
    H2Summary sum = null;
    for (StreamResult s : streams) {
      if (!s.ok() || s.h2() == null) continue;
      H2Stats h = s.h2();
      sum =
          sum == null
              ? new H2Summary(
                  1,
                  h.serverSettings(),
                  h.windowUpdatesSent(),
                  h.windowUpdatesReceived(),
                  h.dataBytes(),
                  h.clientInitialWindow(),
                  h.clientConnectionWindow())
              : new H2Summary(
                  sum.streams() + 1,
                  sum.serverSettings(),
                  sum.windowUpdatesSent() + h.windowUpdatesSent(),
                  sum.windowUpdatesReceived() + h.windowUpdatesReceived(),
                  sum.dataBytes() + h.dataBytes(),
                  sum.clientInitialWindow(),
                  sum.clientConnectionWindow());
    }
    return sum;
  }

  /**
   * The coding most complete streams arrived in, or null when none was compressed (or none was
   * complete).
   */
  @JsonIgnore
  public ContentCoding dominantCoding() {
    Map<ContentCoding, Integer> n = new EnumMap<>(ContentCoding.class);
    int identity = 0;
    for (StreamResult s : streams) {
      if (!s.ok()) continue;
      if (s.coding() == null) identity++;
      else n.merge(s.coding(), 1, Integer::sum);
    }
    ContentCoding best = null;
    int most = identity;
    for (Map.Entry<ContentCoding, Integer> e : n.entrySet()) {
      if (e.getValue() > most) {
        best = e.getKey();
        most = e.getValue();
      }
    }
    return best;
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
    List<Map<String, Object>> out = new ArrayList<>();
    errorCounts.forEach(
        (kind, count) -> {
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("kind", kind.name().toLowerCase());
          m.put("meaning", kind.meaning());
          m.put("count", count);
          m.put("example", errorExamples.get(kind));
          out.add(m);
        });
    return out;
  }

  /**
   * The first error kind in words with an example ("meaning (example)"), or null when none failed.
   */
  @JsonIgnore
  public String firstError() {
    for (var e : errorCounts.keySet()) return e.meaning() + " (" + errorExamples.get(e) + ")";
    return null;
  }

  /** Whether any stream failed for {@code kind}. */
  @JsonIgnore
  public boolean failedWith(StreamError kind) {
    return errorCounts.containsKey(kind);
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
    return hist(Dist.RELEASE_WAIT);
  }

  /** Per release: time since the one before (ns). */
  @JsonIgnore
  public Histogram releaseGapHistogram() {
    return hist(Dist.RELEASE_GAP);
  }

  /** Per release: wire bytes it carried. */
  @JsonIgnore
  public Histogram releaseBytesHistogram() {
    return hist(Dist.RELEASE_BYTES);
  }

  /** Per release: frames it carried. */
  @JsonIgnore
  public Histogram releaseFramesHistogram() {
    return hist(Dist.RELEASE_FRAMES);
  }

  @JsonIgnore
  public Histogram ttftHistogram() {
    return hist(Dist.TTFT);
  }

  @JsonIgnore
  public Histogram gapHistogram() {
    return hist(Dist.GAP);
  }

  @JsonIgnore
  public Histogram emitToRecvHistogram() {
    return hist(Dist.EMIT_TO_RECV);
  }

  /** One line for a terminal. */
  public String oneLine() {
    StringBuilder sb = new StringBuilder();
    if (frames == 0) {
      // nothing was measured: no ratio or time is printed as if it had been
      sb.append(
          String.format("streams %d/%d ok  no data: no frame was measured", ok, streams.size()));
    } else {
      sb.append(
          String.format(
              "streams %d/%d ok  frames/read %.2f  frames %d  reads %d  head p50 %.3fms  ttft p50 %.3fms  gap p50 %.3fms max %.3fms  "
                  + "emit->recv p50 %.3fms p99 %.3fms  lost %d corrupt %d",
              ok,
              streams.size(),
              framesPerRead(),
              frames,
              reads,
              timeToHeadMs().p50(),
              ttftMs().p50(),
              gapMs().p50(),
              gapMs().max(),
              emitToRecvMs().p50(),
              emitToRecvMs().p99(),
              lost,
              corrupt));
      // a gateway that dropped the pi_* fields: those tokens are counted, not timed from their
      // emission
      if (unchecked > 0)
        sb.append(String.format("  %d tokens without pi_* fields (counted, not timed)", unchecked));
      ContentCoding coding = dominantCoding();
      if (coding != null)
        sb.append(
            String.format(
                "  %s: %d wire B for %d decoded", coding.text(), bytes, decodedBodyBytes));
    }
    errorCounts.forEach(
        (k, v) ->
            sb.append("  ")
                .append(k.name().toLowerCase())
                .append(" x")
                .append(v)
                .append(": ")
                .append(errorExamples.get(k)));
    return sb.toString();
  }
}
