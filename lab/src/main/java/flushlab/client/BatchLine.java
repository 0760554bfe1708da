package flushlab.client;

import flushlab.coding.ContentCoding;

/** A batch in one line for a terminal: its figures, or "no data", then its failures. */
final class BatchLine {
  private BatchLine() {}

  static String of(BatchResult b, BatchErrors errors) {
    StringBuilder sb = new StringBuilder();
    if (b.frames() == 0) {
      // nothing was measured: no ratio or time is printed as if it had been
      sb.append(
          String.format(
              "streams %d/%d ok  no data: no frame was measured", b.streamsOk(), b.streams()));
    } else {
      sb.append(
          String.format(
              "streams %d/%d ok  frames/read %.2f  frames %d  reads %d  head p50 %.3fms  ttft p50 %.3fms  gap p50 %.3fms max %.3fms  "
                  + "emit->recv p50 %.3fms p99 %.3fms  lost %d corrupt %d",
              b.streamsOk(),
              b.streams(),
              b.framesPerRead(),
              b.frames(),
              b.reads(),
              b.timeToHeadMs().p50(),
              b.ttftMs().p50(),
              b.gapMs().p50(),
              b.gapMs().max(),
              b.emitToRecvMs().p50(),
              b.emitToRecvMs().p99(),
              b.lostFrames(),
              b.corruptFrames()));
      // a gateway that dropped the pi_* fields: those tokens are counted, not timed from their
      // emission
      if (b.uncheckedFrames() > 0)
        sb.append(
            String.format(
                "  %d tokens without pi_* fields (counted, not timed)", b.uncheckedFrames()));
      ContentCoding coding = b.dominantCoding();
      if (coding != null)
        sb.append(
            String.format(
                "  %s: %d wire B for %d decoded", coding.text(), b.bytes(), b.decodedBodyBytes()));
    }
    errors.describeIn(sb);
    return sb.toString();
  }
}
