package flushlab.map;

import flushlab.core.Units;

/**
 * A cell to measure: frames of one size (0: the chat endpoint's own events) at one interval, and
 * how many per stream; optionally after a think, with SSE comment keep-alives through it.
 */
public record CellPlan(
    long frameSizeBytes, long intervalNanos, int frames, long thinkNanos, long keepAliveNanos) {

  public CellPlan(long frameSizeBytes, long intervalNanos, int frames) {
    this(frameSizeBytes, intervalNanos, frames, 0, 0);
  }

  public double streamMs() {
    return (thinkNanos + (frames - 1) * intervalNanos) / 1e6;
  }

  /** As a scenario would write it: "frame_size=60B interval=2ms frames=600". */
  @Override
  public String toString() {
    return (frameSizeBytes > 0 ? "frame_size=" + frameSizeBytes + "B " : "")
        + "interval="
        + Units.formatDurationReadable(intervalNanos)
        + " frames="
        + frames
        + (thinkNanos > 0 ? " think=" + Units.formatDurationReadable(thinkNanos) : "")
        + (keepAliveNanos > 0
            ? " sse_keepalive=" + Units.formatDurationReadable(keepAliveNanos)
            : "");
  }
}
