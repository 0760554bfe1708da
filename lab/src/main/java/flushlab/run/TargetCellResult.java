package flushlab.run;

import flushlab.client.BatchResult;
import flushlab.client.SentTogether;
import flushlab.client.StreamResult;
import flushlab.coding.ContentCoding;
import flushlab.http.Header;
import flushlab.map.CellEvidence;
import flushlab.scenario.Cell;
import flushlab.scenario.Setting;
import java.util.ArrayList;
import java.util.List;

/**
 * All runs of one target in one cell, and the aggregate of the runs the guards kept.
 *
 * @param requestHeaders the user's request headers these runs sent, when not the scenario's (the
 *     map's pass as a client that accepts no compression); null for the scenario's own
 */
public record TargetCellResult(
    String target,
    Cell cell,
    List<RunRecord> runs,
    BatchResult included,
    List<Header> requestHeaders) {

  public static TargetCellResult of(String target, Cell cell, List<RunRecord> runs) {
    List<StreamResult> kept = new ArrayList<>();
    for (RunRecord r : runs) if (!r.excluded()) kept.addAll(r.result().streamResults());
    return new TargetCellResult(target, cell, List.copyOf(runs), new BatchResult(kept), null);
  }

  /**
   * Every stream this cell's runs read, excluded runs included: for what does not depend on the
   * pacing a guard judged, such as the Content-Encoding the target answered with. A run excluded
   * because the emitter was late still read the target's response head.
   */
  public BatchResult everyStream() {
    List<StreamResult> all = new ArrayList<>();
    for (RunRecord r : runs) all.addAll(r.result().streamResults());
    return new BatchResult(all);
  }

  public TargetCellResult withRequestHeaders(List<Header> headers) {
    return new TargetCellResult(target, cell, runs, included, headers);
  }

  public int excludedRuns() {
    return (int) runs.stream().filter(RunRecord::excluded).count();
  }

  /**
   * What this cell showed about the target's releases, for the flush-trigger map. Waits are counted
   * beyond {@code baselineMs}, the direct path's own delay.
   */
  public CellEvidence evidence(double baselineMs) {
    BatchResult b = included;
    int ok = b.streamsOk();
    double f = upstreamBytesPerFrame();
    double body =
        cell.stream().endpoint().isOpenAi() ? Math.max(1, f - 6) : cell.stream().frameBytes();
    ContentCoding coding = b.dominantCoding();
    if (coding != null && b.frames() > 0) {
      // a compressing target counts what its encoder put out: the compressed body bytes per frame
      // as received
      body = (double) b.decodedBodyBytes() / b.frames();
      // per frame as the releases carried it (steady state); the whole body's average when nothing
      // was released before the end
      double steady = b.releaseBodyBytesPerFrame();
      f = steady > 0 ? steady : (double) b.bodyBytes() / b.frames();
    }
    boolean anyRelease = b.histograms().releaseFrames().getTotalCount() > 0;
    int frames = cell.frames();
    double intervalMs = cell.stream().intervalNanos() / 1e6;
    double streamMs = cell.stream().thinkNanos() / 1e6 + (frames - 1) * intervalMs;
    // Nothing left before the end: one release per stream, the first frame only when the stream
    // had ended; or the first frame read only after the last was sent (it waited the whole emit
    // span), however many pieces the end came in. A 2.4 MB end release is ~40 reads that a stall
    // of the sending loop of 1 ms or more splits in two (a CI run on 2026-12-02 did). The slack is
    // the emitter's own lateness, at most half an interval: a release one frame before the end is
    // a release (s110: a compressor flushed every 1429 input bytes let 24 of 25 frames of 60 B out
    // 50 ms before the last, and the cell read as drained, against the other cells' threshold).
    double emitSpanMs = (frames - 1) * intervalMs;
    boolean endOnly =
        ok > 0
            && b.firstEmitToRecvMs().p50()
                >= emitSpanMs
                    - Math.min(Math.max(CellEvidence.HELD_MS, intervalMs / 2), 0.1 * emitSpanMs);
    boolean drained =
        ok > 0
            && frames >= 3
            && (b.releases() == ok && b.ttftMs().p50() >= 0.9 * streamMs || endOnly);
    String label =
        cell.swept().isEmpty()
            ? "frame_size="
                + Setting.FRAME_SIZE.text(cell)
                + " interval="
                + Setting.INTERVAL.text(cell)
            : cell.label();
    if (cell.swept().isEmpty() && cell.stream().thinkNanos() > 0) {
      label +=
          " think="
              + Setting.THINK.text(cell)
              + " sse_keepalive="
              + Setting.SSE_KEEPALIVE.text(cell);
    }
    return new CellEvidence(
        label,
        f,
        body,
        intervalMs,
        frames,
        ok,
        b.framesPerRead(),
        ok == 0 ? 0 : Math.max(0, (double) (b.releases() - 2L * ok) / ok),
        anyRelease ? b.histograms().releaseFrames().getValueAtPercentile(50) : 0,
        waitMs(b.histograms().releaseWait(), 10, baselineMs),
        waitMs(b.histograms().releaseWait(), 50, baselineMs),
        waitMs(b.histograms().releaseWait(), 90, baselineMs),
        ms(b.histograms().releaseGap(), 10),
        ms(b.histograms().releaseGap(), 50),
        ms(b.histograms().releaseGap(), 90),
        ok == 0 ? 0 : Math.max(0, b.firstEmitToRecvMs().p50() - baselineMs),
        drained,
        coding == null ? null : coding.text(),
        value(b.histograms().releaseBytes(), 10),
        value(b.histograms().releaseBytes(), 50),
        value(b.histograms().releaseBytes(), 90),
        cell.stream().thinkNanos() / 1e6,
        cell.stream().keepAliveNanos() / 1e6,
        ok == 0 ? Double.NaN : b.firstBodyByteMs().p50(),
        ok == 0 ? Double.NaN : b.ttftMs().p50(),
        anyRelease ? b.histograms().releaseFrames().getValueAtPercentile(10) : 0,
        anyRelease ? b.histograms().releaseFrames().getValueAtPercentile(90) : 0,
        SentTogether.framesPerRead(b, cell.stream().intervalNanos()));
  }

  private static double value(org.HdrHistogram.Histogram h, double percentile) {
    return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile);
  }

  private static double ms(org.HdrHistogram.Histogram h, double percentile) {
    return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / 1e6;
  }

  private static double waitMs(org.HdrHistogram.Histogram h, double percentile, double baselineMs) {
    return h.getTotalCount() == 0 ? 0 : Math.max(0, ms(h, percentile) - baselineMs);
  }

  /**
   * What one frame weighed on the wire from the emitter (chunk framing included) over the kept
   * runs: the unit a proxy's byte threshold counts in. Falls back to what the client received when
   * the emitter audited no stream.
   */
  public double upstreamBytesPerFrame() {
    long bytes = 0;
    long frames = 0;
    for (RunRecord r : runs) {
      if (r.excluded()) continue;
      bytes += r.upstreamFrameBytes();
      frames += r.upstreamFrames();
    }
    return frames > 0 ? (double) bytes / frames : included.wireBytesPerFrame();
  }
}
