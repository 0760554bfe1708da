package flushlab.client;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.ScriptedServer;
import flushlab.core.FrameCodec;
import flushlab.core.LabClock;
import java.util.function.IntToLongFunction;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * When a read is a part of the release before it: frames the path held back together and delivered
 * in parts a few milliseconds apart are one release; frames a path delivered as they were written,
 * however late each one, are each their own. Streams built read by read: 100 frames of 60 B written
 * 2 ms apart.
 */
class ReleasePartsTest {
  static final int FRAMES = 100;
  static final int SIZE = 60;
  static final long MS = 1_000_000L;
  static final long INTERVAL = 2 * MS;

  /**
   * One stream: frame {@code i} written at {@code i * INTERVAL} (and 0.2 ms) after t0 and read at {@code readAt(i)}
   * after t0 (frames read at the same time share a read); the client is done with each read 20 us after it.
   */
  static StreamResult.Releases releases(IntToLongFunction readAt) {
    return releases(INTERVAL, readAt);
  }

  /** The same, frames written {@code interval} apart. */
  static StreamResult.Releases releases(long interval, IntToLongFunction readAt) {
    long t0 = System.nanoTime();
    StreamMeter m = new StreamMeter(FRAMES);
    m.requestWritten(t0);
    byte[] head = ScriptedServer.sseHead();
    m.onRead(t0 + 100_000, head, 0, head.length);
    m.readDone(t0 + 100_000);
    CRC32C crc = new CRC32C();
    int i = 0;
    while (i < FRAMES) {
      long at = readAt.applyAsLong(i);
      int n = 0;
      while (i + n < FRAMES && readAt.applyAsLong(i + n) == at) n++;
      byte[] b = new byte[n * SIZE];
      for (int k = 0; k < n; k++) {
        FrameCodec.encode(i + k, LabClock.toEpochNanos(t0 + 200_000 + (i + k) * interval), SIZE, b, k * SIZE, crc);
      }
      m.onRead(t0 + at, b, 0, b.length, false);
      m.readDone(t0 + at + 20_000);
      i += n;
    }
    m.connectionClosed();
    return m.result().releases();
  }

  @Test
  void aHoldReleasedInPartsAFewMillisecondsApartIsOneRelease() {
    // held 300 ms, then sent in three parts 2 ms apart (a proxy's writes, TCP's window opening)
    StreamResult.Releases r = releases(i -> i < 40 ? 300 * MS : i < 80 ? 302 * MS : 304 * MS);
    assertThat(r.count()).isEqualTo(1);
    // a hold every 40 ms, each arriving in two parts 2 ms apart: the parts are joined, never the holds
    // (the stats leave the first and the last release out: the three between)
    StreamResult.Releases holds = releases(i -> {
      long release = (i / 20 + 1) * 40L * MS;
      return i % 20 < 10 ? release : release + 2 * MS;
    });
    assertThat(holds.count()).isEqualTo(5);
    assertThat(holds.frames().toArray()).containsExactly(20, 20, 20);
  }

  @Test
  void framesDeliveredAsTheyWereWrittenAreEachTheirOwnReleaseHoweverLate() {
    // every frame 50 ms late, 2 ms apart (a delay, not a hold)
    assertThat(releases(i -> i * INTERVAL + 50 * MS).count()).isEqualTo(FRAMES);
    // two frames a read, 4 ms apart (a socket that sends once the last segment is acknowledged)
    assertThat(releases(i -> (i / 2) * 2 * INTERVAL + 3 * MS).count()).isEqualTo(FRAMES / 2);
    // frames 1 ms apart read every 3 ms, four and then two a read (the reader's jitter): each read
    // carries what was written since the one before, over as long as the gap, and is its own release
    StreamResult.Releases jittered = releases(MS, i -> {
      int group = i / 6;
      return group * 6 * MS + (i % 6 < 4 ? 3_500_000L : 6_500_000L);
    });
    assertThat(jittered.count()).isEqualTo(FRAMES / 6 * 2 + (FRAMES % 6 > 4 ? 2 : FRAMES % 6 > 0 ? 1 : 0));
  }
}
