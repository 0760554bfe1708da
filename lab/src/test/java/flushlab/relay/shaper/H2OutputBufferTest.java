package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import org.junit.jupiter.api.Test;

/**
 * mod_http2's output buffering through a real relay: held to its size, or to a pause upstream when
 * idle= is set.
 */
class H2OutputBufferTest extends ShaperTestBase {
  @Test
  void stockBufferingHoldsAPacedStreamUntilItsSizeOrTheEnd() throws Exception {
    // 41 frames of 66 B on the wire: 2.7 kB, under the 4 KiB asked for, so all of it waits for the
    // end
    BatchResult r = whole(through(TOKENS_50MS, "h2-buffer=4KiB"), 41);
    assertThat(r.ttftMs().p50()).as(r.oneLine()).isGreaterThan(0.9 * 40 * 50);
    // 1 KiB frames every 5 ms fill 4 KiB every fourth frame
    BatchResult big = whole(through("frames=40&size=1KiB&interval=5ms", "h2-buffer=4KiB"), 40);
    assertThat(big.burstFrames().p50()).as(big.oneLine()).isBetween(3.0, 5.0);
  }

  @Test
  void anIdleFlushSendsWhatIsHeldOnlyWhenUpstreamPauses() throws Exception {
    // frames 50 ms apart: each leaves 20 ms after it came, alone
    BatchResult slow = whole(through(TOKENS_50MS, "h2-buffer=64KiB,idle=20ms"), 41);
    assertThat(slow.framesPerRead()).as(slow.oneLine()).isLessThanOrEqualTo(1.05);
    assertThat(slow.emitToRecvMs().p50()).as(slow.oneLine()).isBetween(18.0, 18.0 + 20);
    // frames 5 ms apart never leave upstream quiet for 20 ms: only the size (4 KiB) or the end
    // sends them
    BatchResult fast =
        whole(through("frames=40&size=1KiB&interval=5ms", "h2-buffer=4KiB,idle=20ms"), 40);
    assertThat(fast.burstFrames().p50()).as(fast.oneLine()).isBetween(3.0, 5.0);
  }
}
