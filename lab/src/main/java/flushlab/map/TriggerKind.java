package flushlab.map;

import flushlab.core.Named;

/**
 * What {@link FlushTrigger} names as a target's flush trigger; JSON and tables show its text
 * (byte-threshold, ...).
 */
public enum TriggerKind implements Named {
  /** Every frame leaves at once. */
  NONE,
  /** The whole response leaves at its end. */
  DRAIN,
  /** A buffer released when it holds N bytes. */
  BYTE_THRESHOLD,
  /**
   * A buffer written N bytes at a time, whatever the frames: the frame that fills it is split
   * across two writes (nginx's proxy buffers). Its releases all weigh N, and the split frame's tail
   * waits for the next write.
   */
  SPLIT_BUFFER,
  /** Held for T from the first held byte. */
  TIMER,
  /** Released every P, whatever arrives. */
  PERIODIC_TIMER,
  /** Released every K events. */
  EVENT_COUNT,
  /** N bytes or T after the first held byte, whichever first. */
  THRESHOLD_OR_TIMER,
  /** The kernel's cork (or MSG_MORE): a segment's worth or about 200 ms. */
  CORK,
  /**
   * A compressor never flushed between writes: its output leaves only as its own buffers fill
   * (zlib's block of symbols, brotli's or zstd's window) and at the end, so how many events a
   * release holds depends on how well they compress, not on a size or time set anywhere.
   */
  ENCODER,
  /**
   * A compressor flushed once N bytes of events went into it since its last flush (a framework
   * flushing its encoder by input size): every release decodes to about N bytes, however small they
   * compress, so no threshold of the compressed bytes fits and one of the decoded bytes does.
   */
  DECODED_THRESHOLD,
  /**
   * A flow-control window (HTTP/2's): a stream faster than the window per update falls behind and
   * leaves in bursts of what each update grants; a slower one is not held at all.
   */
  WINDOW,
  /**
   * Each event held until the next one arrives: every frame one interval late, the last with the
   * end.
   */
  ONE_LATE,
  /**
   * Frames stream, but nothing before the first of them (announcements, keep-alive comments)
   * arrives before it.
   */
  FIRST_CONTENT,
  /**
   * Nagle's algorithm on the client socket (no TCP_NODELAY): a write smaller than a segment waits
   * while an earlier one is unacknowledged, so writes faster than the peer's delayed ACK leave a
   * segment at a time. Named alone, or as the stage after a holding one ({@link
   * FlushTrigger#then}).
   */
  NAGLE,
  /** The cells measured cannot tell. */
  INCONCLUSIVE;
}
