package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import flushlab.client.BatchResult;
import org.junit.jupiter.api.Test;

/**
 * The window shaper through a real relay: a stream faster than the window lets through is held back
 * to window / (rtt + update delay), in bursts of one window when the receiver batches its updates,
 * and loses nothing; a stream slower than that never meets it.
 */
class FlowWindowTest extends ShaperTestBase {
  /** 100 frames of 4000 B every 2 ms: ~2 MB/s, six times what 16 KiB per 50 ms lets through. */
  static final String FAST = "frames=100&size=4000&interval=2ms";

  @Test
  void updatesSentAtOnceLetOneWindowThroughPerRoundTrip() throws Exception {
    BatchResult r = whole(through(FAST, "window=16KiB,rtt=50ms"), 100);
    // each byte's credit comes back one round trip after it left (the sender is clocked by the
    // updates, as TCP by its acks): ~16 KiB per 50 ms, so the last frame leaves about
    // (all bytes / that rate) after the first, and waits that less the 198 ms it took to emit
    double bytes = r.wireBytesPerFrame() * 100;
    double expectedLastWaitMs = bytes / (16384 / 50.0) - 198;
    assertThat(r.emitToRecvMs().max())
        .as(r.oneLine() + " expected ~%.0f ms", expectedLastWaitMs)
        .isBetween(0.8 * expectedLastWaitMs, 1.4 * expectedLastWaitMs);
  }

  @Test
  void aTimerUpdateGrantsWhatWasConsumedSinceItsFirstByte() throws Exception {
    BatchResult r = whole(through(FAST, "window=8KiB,update=timer,after=40ms"), 100);
    assertThat(r.releaseBytes().p50()).as(r.oneLine()).isBetween(8192 * 0.97, 8192 * 1.03);
    assertThat(r.releaseGapMs().p50()).as(r.oneLine()).isBetween(36.0, 65.0);
  }

  @Test
  void aStreamSlowerThanTheWindowNeverMeetsIt() throws Exception {
    BatchResult r = whole(through(TOKENS_50MS, "window=16KiB,rtt=50ms"), 41);
    assertThat(r.framesPerRead()).as(r.oneLine()).isLessThanOrEqualTo(1.05);
    assertThat(r.emitToRecvMs().p50()).as(r.oneLine()).isLessThan(timing.notHeldMs());
  }

  @Test
  void anUpdateThatWouldNeverBeSentIsRefusedByName() {
    assertThatThrownBy(() -> ShaperRegistry.parse("window=8KiB,update=bytes,bytes=16KiB"))
        .hasMessageContaining("bytes=16384B is larger than window=8192B")
        .hasMessageContaining("never be sent");
    assertThatThrownBy(() -> ShaperRegistry.parse("window=8KiB,bytes=4KiB"))
        .hasMessageContaining("bytes= applies to update=bytes only");
    assertThatThrownBy(() -> ShaperRegistry.parse("window=0B"))
        .hasMessageContaining("out of range");
    assertThat(ShaperRegistry.parse("window=8KiB,update=bytes").text())
        .isEqualTo("window=8KiB,update=bytes");
  }
}
