package flushlab.emitter;

/** Produces the bytes of each SSE event of one stream; the pacing is not its business. */
interface FrameSource {
  int frames();

  /** Upper bound of the bytes of any one event, so the writer can size its scratch buffer once. */
  int maxEventBytes();

  /** Writes event {@code index}, stamped with {@code emitEpochNanos}, into out; returns its length. */
  int write(int index, long emitEpochNanos, byte[] out, int off);

  /** Bytes sent after the last event in the same write (e.g. the OpenAI finish chunk and [DONE]). */
  byte[] trailer();
}
