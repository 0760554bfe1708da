package flushlab.report;

import flushlab.client.BatchResult;

/**
 * results.csv: one row per cell and target, the headline columns; empty, not zero, where no stream
 * was kept.
 */
final class ResultsCsv {
  private ResultsCsv() {}

  static final String HEADER =
      "cell,cell_label,target,runs,runs_excluded,streams_ok,errors,frames,frames_per_read,time_to_head_p50_ms,ttft_p50_ms,"
          + "ttft_p99_ms,gap_p50_ms,gap_p99_ms,gap_max_ms,emit_to_recv_p50_ms,emit_to_recv_p99_ms,release_bytes_p50,"
          + "release_gap_p50_ms,lost_frames,corrupt_frames\n";

  static String render(RunReport r) {
    StringBuilder sb = new StringBuilder(HEADER);
    for (RunReport.CellReport c : r.cells()) {
      BatchResult b = c.metrics();
      sb.append(c.cell())
          .append(",\"")
          .append(c.cellLabel().replace("\"", "'"))
          .append("\",")
          .append(c.target())
          .append(',')
          .append(c.runsTotal())
          .append(',')
          .append(c.runsExcluded())
          .append(',')
          .append(b.streamsOk())
          .append(',')
          .append(b.errorCount())
          .append(',')
          .append(b.frames())
          .append(',');
      if (c.noMeasurement() != null) {
        sb.append(",,,,,,,,,,,,\n"); // no kept stream: empty, not zero (a zero would read as a
        // measurement)
        continue;
      }
      sb.append(b.framesPerRead())
          .append(',')
          .append(b.timeToHeadMs().p50())
          .append(',')
          .append(b.ttftMs().p50())
          .append(',')
          .append(b.ttftMs().p99())
          .append(',')
          .append(b.gapMs().p50())
          .append(',')
          .append(b.gapMs().p99())
          .append(',')
          .append(b.gapMs().max())
          .append(',')
          .append(b.emitToRecvMs().p50())
          .append(',')
          .append(b.emitToRecvMs().p99())
          .append(',')
          .append(b.releaseBytes().p50())
          .append(',')
          .append(b.releaseGapMs().p50())
          .append(',')
          .append(b.lostFrames())
          .append(',')
          .append(b.corruptFrames())
          .append('\n');
    }
    return sb.toString();
  }
}
