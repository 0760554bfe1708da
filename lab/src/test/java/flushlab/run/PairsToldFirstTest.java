package flushlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.map.CellEvidence;
import flushlab.map.EvidenceLine;
import flushlab.map.HoldingPairFit;
import flushlab.map.TwoStageCandidate;
import flushlab.netpath.NetworkPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A periodic timer of 219 ms then a hold of 202 ms: the map's cells fit eight pairs alike, and
 * replayed one by one they spent a 60 s budget (a chain bench, seed 20261220). The cells are those
 * `flushlab map --shape timer=219ms,periodic=true --shape timer=202ms --verify` measured
 * (2026-12-07), the last two where the pairs' simulations part, as the target showed them.
 */
class PairsToldFirstTest {
  static final List<CellEvidence> CELLS =
      EvidenceLine.parseAll(
          "frame_size=60B interval=2ms frames=600: 100.00 frames/read; 4.0 releases per stream of 110 frames (p10 109, p90 110); the oldest frame waited 218.6 ms (p10 217.8, p90 219.2); 219.2 ms between releases (p10 219.2, p90 219.3); 66 B per frame on the wire, 7263 B per release (p10 7195, p90 7263); the first frame waited 218.2 ms",
          "frame_size=4096B interval=2ms frames=600: 15.39 frames/read; 4.0 releases per stream of 110 frames (p10 110, p90 111); the oldest frame waited 221.4 ms (p10 220.9, p90 223.4); 219.2 ms between releases (p10 218.6, p90 220.6); 4104 B per frame on the wire, 451583 B per release (p10 451583, p90 455679); the first frame waited 223.2 ms",
          "frame_size=60B interval=50ms frames=25: 4.17 frames/read; 4.0 releases per stream of 4 frames (p10 4, p90 5); the oldest frame waited 202.3 ms (p10 202.3, p90 206.2); 204.1 ms between releases (p10 200.0, p90 246.2); 66 B per frame on the wire, 264 B per release (p10 264, p90 330); the first frame waited 218.0 ms",
          "frame_size=60B interval=10ms frames=120: 20.00 frames/read; 4.0 releases per stream of 22 frames (p10 22, p90 22); the oldest frame waited 216.5 ms (p10 215.7, p90 218.2); 219.2 ms between releases (p10 219.2, p90 219.3); 66 B per frame on the wire, 1452 B per release (p10 1452, p90 1452); the first frame waited 219.1 ms",
          "frame_size=1024B interval=20ms frames=60: 10.00 frames/read; 4.0 releases per stream of 11 frames (p10 11, p90 11); the oldest frame waited 216.3 ms (p10 215.5, p90 217.9); 219.2 ms between releases (p10 219.2, p90 219.3); 1031 B per frame on the wire, 11343 B per release (p10 11343, p90 11343); the first frame waited 219.0 ms");

  static final Map<String, CellEvidence> TELLING =
      EvidenceLine.parseAll(
              "frame_size=256B interval=150ms frames=15: 1.50 frames/read; 8.0 releases per stream of 1 frames (p10 1, p90 2); the oldest frame waited 202.4 ms (p10 202.4, p90 207.3); 154.8 ms between releases (p10 150.1, p90 300.2); 263 B per frame on the wire, 263 B per release (p10 263, p90 526); the first frame waited 219.0 ms",
              "frame_size=60B interval=300ms frames=15: 1.00 frames/read; 13.0 releases per stream of 1 frames (p10 1, p90 1); the oldest frame waited 202.4 ms (p10 202.4, p90 203.8); 300.2 ms between releases (p10 297.8, p90 300.4); 66 B per frame on the wire, 66 B per release (p10 66, p90 66); the first frame waited 217.9 ms")
          .stream()
          .collect(Collectors.toMap(CellEvidence::label, Function.identity()));

  @Test
  void manyPairsAlikeAreToldApartBeforeAnyIsReplayed() throws Exception {
    List<TwoStageCandidate> pairs = HoldingPairFit.candidates("t", CELLS, NetworkPath.LOOPBACK);
    assertThat(pairs).hasSizeGreaterThanOrEqualTo(PairsToldFirst.AT_LEAST);
    List<String> asked = new ArrayList<>();
    List<String> said = new ArrayList<>();
    PairsToldFirst.Told told =
        PairsToldFirst.tell(
            "t",
            NetworkPath.LOOPBACK,
            CELLS,
            pairs,
            plan -> true,
            plan -> {
              asked.add(plan.toString());
              return TELLING.get(plan.toString());
            },
            said::add);
    List<String> chains = told.pairs().stream().map(TwoStageCandidate::chain).toList();
    assertThat(asked).as(String.join("\n", said)).isNotEmpty().allMatch(TELLING::containsKey);
    assertThat(told.cells()).hasSize(CELLS.size() + asked.size());
    assertThat(told.pairs()).as("%s from %s", chains, pairs).hasSizeLessThan(pairs.size());
    assertThat(chains)
        .as("the hidden chain stays among them")
        .anyMatch(
            c ->
                c.matches(
                    "timer=2(0[89]|1\\d|2[0-9])(\\.\\d)?ms,periodic=true -> timer=(19[2-9]|20\\d|21[0-2])(\\.\\d)?ms"));
  }

  /** A cell that gives nothing, or no room for it, leaves the pairs as they were. */
  @Test
  void noRoomOrNoDataLeavesThePairs() throws Exception {
    List<TwoStageCandidate> pairs = HoldingPairFit.candidates("t", CELLS, NetworkPath.LOOPBACK);
    PairsToldFirst.Told none =
        PairsToldFirst.tell(
            "t", NetworkPath.LOOPBACK, CELLS, pairs, plan -> false, plan -> null, s -> {});
    assertThat(none.pairs()).isEqualTo(pairs);
    PairsToldFirst.Told nothing =
        PairsToldFirst.tell(
            "t", NetworkPath.LOOPBACK, CELLS, pairs, plan -> true, plan -> null, s -> {});
    assertThat(nothing.pairs()).isEqualTo(pairs);
    assertThat(nothing.cells()).isEqualTo(CELLS);
  }
}
