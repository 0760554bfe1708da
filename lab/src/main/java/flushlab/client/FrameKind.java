package flushlab.client;

/** What one SSE event was, as far as the meter is concerned. */
enum FrameKind {
  /** A frame with a sequence number and emit time that checked out. */
  FRAME,
  /** A content frame from a server that is not flushlab's emitter: counted, not checked. */
  UNCHECKED_FRAME,
  /** A flushlab frame whose checksum or layout is wrong. */
  CORRUPT,
  /** An event that carries no token (role-only or finish chunk): not a frame. */
  CONTROL,
  /** The OpenAI end marker {@code [DONE]}. */
  DONE
}
