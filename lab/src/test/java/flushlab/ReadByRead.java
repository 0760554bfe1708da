package flushlab;

import flushlab.client.StreamMeter;
import flushlab.client.StreamResult;
import flushlab.core.FrameCodec;
import flushlab.core.LabClock;
import flushlab.scenario.Cell;
import java.util.Map;
import java.util.function.LongUnaryOperator;
import java.util.zip.CRC32C;

/**
 * A stream built read by read and fed to the meter, no socket: each frame written and read when the
 * test says.
 */
public final class ReadByRead {
  private ReadByRead() {}

  /**
   * The cell a test's streams are built for: {@code frames} of {@code size} B every {@code
   * interval}.
   */
  public static Cell cell(int frames, int size, String interval) {
    return Cell.fromSettings(
        Map.of("frames", Integer.toString(frames), "frame_size", size + "B", "interval", interval));
  }

  /** The receive buffer: the most one read returns; a read that fills it says more was waiting. */
  static final int BUFFER = 65536;

  /**
   * Frame {@code i} of {@code frames} ({@code size} B each) written {@code i * interval} after 0.2
   * ms past t0 and read at {@code readAt(i)} past t0; frames read at the same time share a read, of
   * one {@link #BUFFER} at most. The response head is read at 0.1 ms, and the client is done with
   * each read 20 us after it.
   */
  public static StreamResult stream(int frames, int size, long interval, LongUnaryOperator readAt) {
    return stream(frames, size, i -> 200_000 + i * interval, readAt);
  }

  /**
   * As above, frame {@code i} written at {@code sentAt(i)} past t0 (its emit stamp): an emitter
   * that ran late wrote the frames that came due at once.
   */
  public static StreamResult stream(
      int frames, int size, LongUnaryOperator sentAt, LongUnaryOperator readAt) {
    long t0 = System.nanoTime();
    StreamMeter m = new StreamMeter(frames);
    m.requestWritten(t0);
    byte[] head = ScriptedServer.sseHead();
    m.onRead(t0 + 100_000, head, 0, head.length);
    m.readDone(t0 + 100_000);
    CRC32C crc = new CRC32C();
    int perRead = BUFFER / size;
    int i = 0;
    while (i < frames) {
      long at = readAt.applyAsLong(i);
      int n = 0;
      while (i + n < frames && n < perRead && readAt.applyAsLong(i + n) == at) n++;
      byte[] b = new byte[n * size];
      for (int k = 0; k < n; k++) {
        FrameCodec.encode(
            i + k, LabClock.toEpochNanos(t0 + sentAt.applyAsLong(i + k)), size, b, k * size, crc);
      }
      m.onRead(t0 + at, b, 0, b.length, n == perRead);
      m.readDone(t0 + at + 20_000);
      i += n;
    }
    m.connectionClosed();
    return m.result();
  }
}
