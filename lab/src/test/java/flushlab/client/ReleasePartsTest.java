package flushlab.client;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.ReadByRead;
import java.util.function.LongUnaryOperator;
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

  static StreamResult.Releases releases(LongUnaryOperator readAt) {
    return releases(INTERVAL, readAt);
  }

  /**
   * The releases of one stream whose frames were written {@code interval} apart and read at {@code
   * readAt(i)} ({@link ReadByRead}).
   */
  static StreamResult.Releases releases(long interval, LongUnaryOperator readAt) {
    return ReadByRead.stream(FRAMES, SIZE, interval, readAt).releases();
  }

  @Test
  void aHoldReleasedInPartsAFewMillisecondsApartIsOneRelease() {
    // held 300 ms, then sent in three parts 2 ms apart (a proxy's writes, TCP's window opening)
    StreamResult.Releases r = releases(i -> i < 40 ? 300 * MS : i < 80 ? 302 * MS : 304 * MS);
    assertThat(r.count()).isEqualTo(1);
    // a hold every 40 ms, each arriving in two parts 2 ms apart: the parts are joined, never the
    // holds
    // (the stats leave the first and the last release out: the three between)
    StreamResult.Releases holds =
        releases(
            i -> {
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
    // carries what was written since the one before, over as long as the gap, and is its own
    // release
    StreamResult.Releases jittered =
        releases(
            MS,
            i -> {
              long group = i / 6;
              return group * 6 * MS + (i % 6 < 4 ? 3_500_000L : 6_500_000L);
            });
    assertThat(jittered.count())
        .isEqualTo(FRAMES / 6 * 2 + (FRAMES % 6 > 4 ? 2 : FRAMES % 6 > 0 ? 1 : 0));
  }
}
