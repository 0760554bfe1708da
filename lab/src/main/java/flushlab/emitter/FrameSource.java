package flushlab.emitter;

/**
 * Produces the bytes of each SSE event of one stream; the pacing is not its business. An event that
 * fits one write buffer is written whole; a larger one is written as a head, then a tail produced
 * piece by piece, so a stream's memory does not grow with its frame size.
 */
interface FrameSource {
  int frames();

  /** Upper bound of the bytes {@link #write} puts in the buffer for any one event. */
  int maxEventBytes();

  /**
   * Writes event {@code index}, stamped with {@code emitEpochNanos}, into out (or only its head
   * when {@link #tailBytes} is positive); returns the bytes written.
   */
  int write(int index, long emitEpochNanos, byte[] out, int off);

  /**
   * Bytes of event {@code index} that follow what {@link #write} produced; 0 for an event written
   * whole.
   */
  default long tailBytes(int index) {
    return 0;
  }

  /** Writes bytes [from, from + len) of event {@code index}'s tail into out. */
  default void writeTail(int index, long from, int len, byte[] out, int off) {
    throw new UnsupportedOperationException("this source writes every event whole");
  }

  /**
   * Events sent with the response head, before the first paced one (the Responses API's
   * response.created and the like).
   */
  default byte[] preamble() {
    return new byte[0];
  }

  /**
   * Bytes sent after the last event in the same write (e.g. the OpenAI finish chunk and [DONE]).
   */
  byte[] trailer();
}
