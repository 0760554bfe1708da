package flushlab.emitter;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import flushlab.core.LoopStallLedger;
import flushlab.core.Units;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntCountsHistogram;

/**
 * The emitter's own record of how well it kept time for one stream: when each frame was due and
 * when its write completed (the kernel had taken every byte). Lateness is the difference. Its
 * memory does not grow with the stream: lateness goes into a small histogram (1 us resolution, 2
 * significant digits, as wide as the lateness seen: a few KB) and the exact maximum, and once the
 * stream ends only the {@link Summary} is kept. Only the stream's event loop writes here; readers
 * get the Summary.
 */
public final class PacingAudit {
  private static final long HIGHEST_NANOS = 3_600_000_000_000L;

  private final long streamId;
  private final boolean paced;
  private final int framesPlanned;

  /** The event loop writing the stream (its ticks say what held a late frame). */
  private final Object loop;

  private final AuditRegistry registry;
  private final IntCountsHistogram lateness = latenessHistogram();
  private long maxLatenessNanos;
  private long latestDueNanos;
  private long firstDueNanos;
  private boolean latestAfterFullSocket;
  private int written;
  private int backpressureWaits;
  private long frameBytes;
  private boolean finished;

  /**
   * 1 us resolution, two significant digits, auto-resizing from a few hundred bytes: a stream that
   * keeps time never needs the range up to an hour, and a thousand streams set up at once each
   * allocated the whole range (14 KB) before their first frame.
   */
  private static IntCountsHistogram latenessHistogram() {
    IntCountsHistogram h = new IntCountsHistogram(1_000, 2_000, 2);
    h.setAutoResize(true);
    return h;
  }

  PacingAudit(
      long streamId, int framesPlanned, boolean paced, Object loop, AuditRegistry registry) {
    this.streamId = streamId;
    this.loop = loop;
    this.paced = paced;
    this.framesPlanned = framesPlanned;
    this.registry = registry;
  }

  public long streamId() {
    return streamId;
  }

  /**
   * Frame {@code index}, due at {@code due}, was all in the kernel at {@code writtenAt}; {@code
   * afterFullSocket} when its send was partial and it left only as the reader drained the socket.
   */
  void recordWritten(int index, long due, long writtenAt, boolean afterFullSocket) {
    if (index == 0) firstDueNanos = due;
    long late = Math.max(0, writtenAt - due);
    lateness.recordValue(Math.min(HIGHEST_NANOS, late));
    if (late > maxLatenessNanos) {
      maxLatenessNanos = late;
      latestDueNanos = due;
      latestAfterFullSocket = afterFullSocket;
    }
    written = Math.max(written, index + 1);
  }

  /**
   * One frame's bytes as they left on the wire (chunk framing included, the end-of-body trailer
   * not).
   */
  void recordFrameBytes(long n) {
    frameBytes += n;
  }

  /** A keep-alive comment went out (not a frame: nothing of the pacing changes). */
  void recordKeepAlive() {
    keepAlives++;
  }

  private int keepAlives;

  void recordBackpressureWait() {
    backpressureWaits++;
  }

  /**
   * Freezes the audit into its summary and hands it to the registry; called once by the stream's
   * event loop.
   */
  void finish(boolean complete) {
    if (finished) return;
    finished = true;
    boolean any = lateness.getTotalCount() > 0;
    Summary s =
        new Summary(
            streamId,
            paced,
            complete,
            framesPlanned,
            written,
            frameBytes,
            backpressureWaits,
            any ? lateness.getValueAtPercentile(50) : 0,
            any ? lateness.getValueAtPercentile(99) : 0,
            maxLatenessNanos,
            keepAlives,
            new Latest(firstDueNanos, latestDueNanos, latestAfterFullSocket, loop),
            null);
    registry.finished(this, s);
  }

  /** Adds this stream's lateness to a pooled histogram (benches pool many streams). */
  void addLatenessTo(Histogram pool) {
    if (paced) pool.add(lateness);
  }

  /**
   * Lateness of a finished stream, in nanoseconds; JSON in milliseconds. {@code frameBytes} is what
   * its frames weighed on the wire from the emitter (chunk framing included): the bytes a proxy's
   * buffer counts. {@code latest} is the latest frame's due time and how it left, in this process
   * only (null from another process: its clock is not this one's); {@code held} what held that
   * frame, as the emitter's process judged it ({@link #judged}), null until judged.
   */
  public record Summary(
      long streamId,
      boolean paced,
      boolean complete,
      int framesPlanned,
      int framesWritten,
      long frameBytes,
      int backpressureWaits,
      @JsonIgnore long latenessP50Nanos,
      @JsonIgnore long latenessP99Nanos,
      @JsonIgnore long latenessMaxNanos,
      int keepAlives,
      @JsonIgnore Latest latest,
      @JsonProperty("latest_held") LateFrame.Held held) {

    @JsonProperty("lateness_ms")
    public Map<String, Double> latenessMs() {
      Map<String, Double> m = new LinkedHashMap<>();
      m.put("p50", Units.nanosToMillis(latenessP50Nanos));
      m.put("p99", Units.nanosToMillis(latenessP99Nanos));
      m.put("max", Units.nanosToMillis(latenessMaxNanos));
      return m;
    }

    /**
     * This summary with what held its latest frame, judged against this process's loop stalls (kept
     * when judged already).
     */
    public Summary judged(LoopStallLedger ledger) {
      if (held != null) return this;
      return new Summary(
          streamId,
          paced,
          complete,
          framesPlanned,
          framesWritten,
          frameBytes,
          backpressureWaits,
          latenessP50Nanos,
          latenessP99Nanos,
          latenessMaxNanos,
          keepAlives,
          latest,
          LateFrame.of(latest, latenessMaxNanos, ledger));
    }
  }

  /**
   * The frame written latest against its due time: when it was due (System.nanoTime of the
   * emitter's process) and whether it left only as the reader drained a full socket (the path
   * behind it, not the emitter's loop, held it), the loop that wrote it, and when the stream's
   * first frame was due.
   */
  public record Latest(long streamDueNanos, long dueNanos, boolean afterFullSocket, Object loop) {}
}
