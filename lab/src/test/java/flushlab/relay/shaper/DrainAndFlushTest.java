package flushlab.relay.shaper;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import org.junit.jupiter.api.Test;

class DrainAndFlushTest extends ShaperTestBase {
  @Test
  void deliversTheWholeStreamInAtMostTwoReads() throws Exception {
    BatchResult r = through("frames=41&size=60&interval=10ms", "drain-and-flush");
    assertThat(r.errorCount()).isZero();
    assertThat(r.frames()).isEqualTo(41);
    assertThat(r.readsWithFrames()).isLessThanOrEqualTo(2);
    assertThat(r.framesPerRead()).isGreaterThanOrEqualTo(20.5);
  }

  @Test
  void overItsCapTheClientGetsA502NamingTheCap() throws Exception {
    BatchResult r = through("frames=100&size=1KiB&interval=0ms", "drain-and-flush,cap=16KiB");
    assertThat(r.streamsOk()).isZero();
    assertThat(r.errors().get(0)).containsEntry("kind", "http_status");
    assertThat((String) r.errors().get(0).get("example"))
        .contains("502")
        .contains("cap of 16384 bytes");
  }
}
