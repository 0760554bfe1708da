package flushlab.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The stall log keeps the newest stalls and finds those overlapping a run; the figures count them
 * by length.
 */
class StallLogTest {
  @Test
  void findsTheStallsOverlappingASpanAndCountsThemByLength() {
    StallLog log = new StallLog();
    log.add(1_000_000_000L, 1_006_000_000L); // 6 ms
    log.add(2_000_000_000L, 2_030_000_000L); // 30 ms
    log.add(3_000_000_000L, 3_060_000_000L); // 60 ms
    List<StallLog.Stall> run = log.between(1_990_000_000L, 3_010_000_000L);
    assertThat(run).extracting(StallLog.Stall::nanos).containsExactly(30_000_000L, 60_000_000L);
    StallFigures f = StallFigures.of(run, 1_990_000_000L);
    assertThat(f.over5Ms()).isEqualTo(2);
    assertThat(f.over20Ms()).isEqualTo(2);
    assertThat(f.over50Ms()).isEqualTo(1);
    assertThat(f.maxMs()).isEqualTo(60.0);
    assertThat(f.maxAtMs()).isEqualTo(1010.0);
    assertThat(StallFigures.of(log.between(0, 10), 0)).isEqualTo(StallFigures.NONE);
  }

  @Test
  void keepsTheNewest4096() {
    StallLog log = new StallLog();
    for (long i = 0; i < 5000; i++) log.add(i * 10, i * 10 + 5);
    assertThat(log.count()).isEqualTo(5000);
    assertThat(log.between(0, 5000 * 10))
        .hasSize(4096)
        .first()
        .extracting(StallLog.Stall::fromNanos)
        .isEqualTo((5000 - 4096) * 10L);
  }
}
