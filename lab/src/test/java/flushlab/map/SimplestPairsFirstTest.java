package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.netpath.NetworkPath;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The pairs fitted are replayed one-late's (a value each) before those of two values: the map gives
 * the simplest that replays, and its budget can run out on the way. The cells are those `flushlab
 * map --shape one-late --shape timer=243ms,periodic=true` measured (2026-12-07, 16:22 UTC), when
 * 127 pairs of a hold and a clock fitted them, a hold of 116.8 ms then the clock was replayed and
 * verified, and the budget ran out before one-late's turn.
 */
class SimplestPairsFirstTest {
  static final List<CellEvidence> ONE_LATE_THEN_CLOCK_243 =
      EvidenceLine.parseAll(
          "frame_size=60B interval=2ms frames=600: 120.00 frames/read; 3.0 releases per stream of 122 frames (p10 121, p90 122); the oldest frame waited 244.1 ms (p10 243.5, p90 244.9); 243.3 ms between releases (p10 243.1, p90 243.4); 66 B per frame on the wire, 8055 B per release (p10 7987, p90 8055); the first frame waited 241.6 ms",
          "frame_size=4096B interval=2ms frames=600: 15.00 frames/read; 3.0 releases per stream of 122 frames (p10 122, p90 123); the oldest frame waited 247.0 ms (p10 245.4, p90 247.0); 243.1 ms between releases (p10 242.5, p90 246.2); 4104 B per frame on the wire, 500735 B per release (p10 500735, p90 504831); the first frame waited 243.9 ms",
          "frame_size=60B interval=50ms frames=25: 5.00 frames/read; 3.0 releases per stream of 5 frames (p10 5, p90 5); the oldest frame waited 275.8 ms (p10 269.3, p90 282.7); 243.4 ms between releases (p10 243.4, p90 243.4); 66 B per frame on the wire, 330 B per release (p10 330, p90 330); the first frame waited 239.1 ms",
          "frame_size=60B interval=10ms frames=120: 24.00 frames/read; 3.0 releases per stream of 24 frames (p10 24, p90 25); the oldest frame waited 248.2 ms (p10 244.9, p90 251.5); 243.4 ms between releases (p10 243.4, p90 243.4); 66 B per frame on the wire, 1584 B per release (p10 1584, p90 1650); the first frame waited 241.6 ms",
          "frame_size=1024B interval=20ms frames=60: 12.00 frames/read; 3.0 releases per stream of 12 frames (p10 12, p90 12); the oldest frame waited 248.6 ms (p10 245.3, p90 251.9); 243.4 ms between releases (p10 243.4, p90 243.5); 1031 B per frame on the wire, 12375 B per release (p10 12375, p90 12375); the first frame waited 241.6 ms",
          "frame_size=256B interval=300ms frames=15: 1.07 frames/read; 12.0 releases per stream of 1 frames (p10 1, p90 1); the oldest frame waited 405.6 ms (p10 332.5, p90 519.1); 243.4 ms between releases (p10 243.3, p90 486.8); 263 B per frame on the wire, 263 B per release (p10 263, p90 263); the first frame waited 486.3 ms",
          "frame_size=256B interval=200ms frames=15: 1.25 frames/read; 10.0 releases per stream of 1 frames (p10 1, p90 2); the oldest frame waited 329.3 ms (p10 259.2, p90 415.8); 243.4 ms between releases (p10 243.3, p90 243.5); 263 B per frame on the wire, 263 B per release (p10 263, p90 526); the first frame waited 242.4 ms",
          "frame_size=60B interval=300ms frames=15: 1.07 frames/read; 12.0 releases per stream of 1 frames (p10 1, p90 1); the oldest frame waited 404.8 ms (p10 331.7, p90 518.1); 243.4 ms between releases (p10 243.3, p90 486.5); 66 B per frame on the wire, 66 B per release (p10 66, p90 66); the first frame waited 485.3 ms");

  /**
   * The cells `flushlab map --shape timer=102ms,periodic=true --shape timer=212ms,periodic=true`
   * measured, three telling cells among them (2026-12-08, 01:50 UTC), which four pairs fitted: a
   * 210.4 ms clock then a 75.9 ms hold was replayed first, verified, and the budget ran out before
   * the two clocks' turn.
   */
  static final List<CellEvidence> TWO_CLOCKS_102_212 =
      EvidenceLine.parseAll(
          "frame_size=60B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 102 frames (p10 101, p90 103); the oldest frame waited 226.3 ms (p10 220.0, p90 242.5); 212.2 ms between releases (p10 212.2, p90 212.5); 66 B per frame on the wire, 6735 B per release (p10 6667, p90 6799); the first frame waited 211.9 ms",
          "frame_size=4096B interval=2ms frames=600: 14.63 frames/read; 4.0 releases per stream of 102 frames (p10 102, p90 103); the oldest frame waited 226.6 ms (p10 220.2, p90 243.0); 212.2 ms between releases (p10 212.2, p90 212.5); 4104 B per frame on the wire, 418815 B per release (p10 418815, p90 422911); the first frame waited 212.1 ms",
          "frame_size=60B interval=50ms frames=25: 4.17 frames/read; 4.0 releases per stream of 4 frames (p10 4, p90 4); the oldest frame waited 185.8 ms (p10 173.8, p90 210.1); 212.2 ms between releases (p10 212.2, p90 212.2); 66 B per frame on the wire, 264 B per release (p10 264, p90 264); the first frame waited 211.8 ms",
          "frame_size=60B interval=10ms frames=120: 20.00 frames/read; 4.0 releases per stream of 20 frames (p10 20, p90 21); the oldest frame waited 225.9 ms (p10 213.9, p90 240.1); 212.2 ms between releases (p10 212.1, p90 212.2); 66 B per frame on the wire, 1320 B per release (p10 1320, p90 1386); the first frame waited 211.8 ms",
          "frame_size=1024B interval=20ms frames=60: 10.00 frames/read; 4.0 releases per stream of 10 frames (p10 10, p90 11); the oldest frame waited 215.9 ms (p10 203.8, p90 240.1); 212.2 ms between releases (p10 212.2, p90 212.2); 1031 B per frame on the wire, 10311 B per release (p10 10311, p90 11343); the first frame waited 211.7 ms",
          "frame_size=60B interval=300ms frames=15: 1.00 frames/read; 13.0 releases per stream of 1 frames (p10 1, p90 1); the oldest frame waited 130.6 ms (p10 57.7, p90 218.5); 212.2 ms between releases (p10 212.2, p90 424.4); 66 B per frame on the wire, 66 B per release (p10 66, p90 66); the first frame waited 211.8 ms",
          "frame_size=60B interval=200ms frames=15: 1.07 frames/read; 12.0 releases per stream of 1 frames (p10 1, p90 1); the oldest frame waited 84.8 ms (p10 36.0, p90 145.9); 212.2 ms between releases (p10 212.2, p90 212.3); 66 B per frame on the wire, 66 B per release (p10 66, p90 66); the first frame waited 211.8 ms",
          "frame_size=60B interval=100ms frames=25: 2.08 frames/read; 10.0 releases per stream of 2 frames (p10 2, p90 2); the oldest frame waited 172.7 ms (p10 123.8, p90 221.5); 212.2 ms between releases (p10 212.2, p90 212.3); 66 B per frame on the wire, 132 B per release (p10 132, p90 132); the first frame waited 211.7 ms");

  @Test
  void ofPairsOfTwoValuesTheClosestToTheCellsIsOfferedFirst() {
    List<String> chains = inReplayOrder(TWO_CLOCKS_102_212);
    int twoClocks =
        indexOf(chains, "timer=[0-9.]+ms,periodic=true -> timer=[0-9.]+ms,periodic=true");
    int clockThenHold = indexOf(chains, "timer=[0-9.]+ms,periodic=true -> timer=[0-9.]+ms");
    assertThat(twoClocks).as("%s", chains).isNotNegative();
    assertThat(clockThenHold).as("%s", chains).isNotNegative().isGreaterThan(twoClocks);
    // of one value still before them all
    assertThat(chains.get(0)).startsWith("one-late");
  }

  @Test
  void oneLatesPairIsOfferedBeforeTheHoldAndTheClock() {
    List<String> chains = inReplayOrder(ONE_LATE_THEN_CLOCK_243);
    int oneLate = indexOf(chains, "one-late -> timer=[0-9.]+ms,periodic=true");
    int holdThenClock = indexOf(chains, "timer=[0-9.]+ms -> timer=[0-9.]+ms,periodic=true");
    assertThat(oneLate).as("%s", chains).isNotNegative();
    assertThat(holdThenClock).as("%s", chains).isNotNegative().isGreaterThan(oneLate);
  }

  /** The chains of the pairs fitted on {@code cells}, in the order the map replays them. */
  private static List<String> inReplayOrder(List<CellEvidence> cells) {
    List<String> chains =
        TwoStageCandidate.simplestFirst(
                HoldingPairFit.candidates("x", cells, NetworkPath.LOOPBACK), cells)
            .stream()
            .map(TwoStageCandidate::chain)
            .toList();
    System.out.println("SimplestPairsFirstTest: " + chains);
    return chains;
  }

  private static int indexOf(List<String> chains, String pattern) {
    for (int i = 0; i < chains.size(); i++) if (chains.get(i).matches(pattern)) return i;
    return -1;
  }
}
