package flushlab.tcpprobe;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.core.HiccupMeter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An upload attempt this host stood still through is measured once more: such a stall alone can
 * carry an attempt over the margin (s267: under stalls of up to 122 ms, 81920 B answered 1.2, 28.6
 * and 60.1 ms from a server that stalls only from 94321 B, and the jump was read at 81920 B). A
 * server answering in 1 ms below 100,000 B and 150 ms from there; the first two runs of an attempt
 * at 65536 B meet a 40 ms stall of this host that the test makes.
 */
class UploadProbeStallTest {
  private static final int STALLS_FROM = 100_000;

  @Test
  void anAttemptTheHostStoodStillThroughIsMeasuredAgainNotReadAsTheServersStall() throws Exception {
    int[] stalledLeft = {2};
    List<String> rows = new ArrayList<>();
    UploadProbe probe =
        new UploadProbe(
            3,
            20,
            0.05,
            bytes -> {
              long ms = bytes >= STALLS_FROM ? 150 : 1;
              if (bytes == 65536 && stalledLeft[0]-- > 0) {
                HiccupMeter meter = HiccupMeter.get();
                long from = System.nanoTime();
                meter.holdHostThread(40_000_000L);
                meter.awaitWatcherPast(from + 45_000_000L, 2_000_000_000L);
                ms = (System.nanoTime() - from) / 1_000_000;
              }
              return new UploadAttempt.Result(bytes, ms * 1_000_000L, 200, 0, 10, 65483, null);
            },
            rows::add);
    UploadProbe.Answer a = probe.run(List.of(16384, 32768, 65536, 131072));
    System.out.println("UploadProbeStallTest: " + a.verdict() + "\n" + String.join("\n", rows));
    assertThat(a.conclusive()).as(a.verdict()).isTrue();
    assertThat((double) a.stallFromBytes()).isBetween(STALLS_FROM * 0.95, STALLS_FROM * 1.05);
    // the first stalled attempt's second run meets the second stall and stands; the others do not
    assertThat(a.verdict()).containsPattern("\\d+ attempt\\(s\\) this host stood still through");
  }
}
