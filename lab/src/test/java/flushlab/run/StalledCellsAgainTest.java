package flushlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.ReadByRead;
import flushlab.client.BatchResult;
import flushlab.client.Staircase;
import flushlab.client.StreamResult;
import flushlab.core.StallFigures;
import flushlab.map.CellEvidence;
import flushlab.map.CellMatch;
import flushlab.map.Replay;
import flushlab.map.ReplayVerdict;
import flushlab.netpath.NetworkPath;
import flushlab.relay.shaper.ShaperRegistry;
import flushlab.scenario.Cell;
import flushlab.targets.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A hold of 20 ms, its replay refused for one cell where this host stalled 54 ms in the target's
 * run (the first release read 54 ms late, with the two after it): the cell is measured on the
 * target once more and compared with the model's replay as it was. Streams are built read by read
 * ({@link ReadByRead}), no socket.
 */
class StalledCellsAgainTest {
  static final int FRAMES = 100;
  static final int SIZE = 4096;
  static final long INTERVAL = 2_000_000L;
  static final Cell CELL = ReadByRead.cell(FRAMES, SIZE, "2ms");
  static final String MODEL = "timer=20ms";

  /** Ten frames a release, each released 20 ms after the first of them was written. */
  static long held(long i) {
    return 200_000 + (i / 10) * 10 * INTERVAL + 20_000_000L;
  }

  /** The same, this host stopped from 20 to 74 ms: what came due then was read at 74 ms. */
  static long heldThroughAStall(long i) {
    return held(i) < 74_200_000L ? 74_200_000L : held(i);
  }

  static RunRecord run(LongUnaryOperator readAt, StallFigures hostStalls, int index) {
    StreamResult s = ReadByRead.stream(FRAMES, SIZE, INTERVAL, readAt);
    RunStalls stalls =
        new RunStalls(
            hostStalls, StallFigures.NONE, FRAMES, 0, 0, 0, null, null, List.of(), null, 0);
    return new RunRecord(
        "t", 0, index, new BatchResult(List.of(s)), null, 0, 0, 0, 0, 0, 0, stalls, List.of());
  }

  static final StallFigures STALLED_54_MS = new StallFigures(1, 1, 1, 54, 20);

  record Mapped(MapContext map, ModelReplay.Outcome refused, List<String> said) {}

  /** The target's cell, its replay on the model, and {@code fresh} as the target measured again. */
  static Mapped refusedWhereTheHostStalled(StallFigures stalls, LongUnaryOperator fresh) {
    TargetCellResult onTarget =
        TargetCellResult.of(
            "t", CELL, List.of(run(StalledCellsAgainTest::heldThroughAStall, stalls, 0)));
    TargetCellResult onModel =
        TargetCellResult.of(
            "model", CELL, List.of(run(StalledCellsAgainTest::held, StallFigures.NONE, 0)));
    CellEvidence t = onTarget.evidence(0);
    CellEvidence m = onModel.evidence(0);
    ReplayVerdict v = Replay.compare(MODEL, List.of(t), List.of(m));
    Staircase stairs = Staircase.of(onModel.included(), ReplayedCell.MAX_FRAMES);
    ModelReplay.Outcome o =
        new ModelReplay.Outcome(
            v,
            null,
            null,
            0,
            List.of(new ReplayedCell(CELL.label(), v.cells().get(0).difference(), stairs, stairs)),
            List.of(m),
            null,
            0,
            List.of(onTarget));
    List<String> said = new ArrayList<>();
    List<TargetCellResult> results = new ArrayList<>(List.of(onTarget));
    Measure again = (target, cell, index, n) -> run(fresh, StallFigures.NONE, n);
    MapContext map =
        new MapContext(
            new Target.Relay("t", ShaperRegistry.parseChain(MODEL), false, NetworkPath.LOOPBACK),
            results,
            again,
            new Certification(true, 1.0, 0.1, List.of(), "certified"),
            said::add,
            System.nanoTime() + 60_000_000_000L);
    return new Mapped(map, o, said);
  }

  @Test
  void aCellThatDifferedWhereThisHostStalledIsMeasuredAgainAndAgrees() throws Exception {
    Mapped m = refusedWhereTheHostStalled(STALLED_54_MS, StalledCellsAgainTest::held);
    assertThat(m.refused().verdict().verified())
        .as("the stalled cell differs: %s", m.refused().verdict().text())
        .isFalse();
    StalledCellsAgain.Again again =
        StalledCellsAgain.measure(new FakeMapLab(MODEL, null), m.map(), MODEL, false, m.refused());
    assertThat(again).as(String.join("\n", m.said())).isNotNull();
    assertThat(again.verdict().verified()).as(again.verdict().text()).isTrue();
    assertThat(again.measuredAgain()).isEqualTo(1);
    TargetCellResult kept = m.map().results().get(0);
    assertThat(kept.runs()).hasSize(2);
    assertThat(kept.runs().get(0).excludedForHostStall())
        .as("the stalled run stays, excluded for the stall")
        .isTrue();
    assertThat(kept.runs().get(0).exclusionReason()).contains("longest 54.0 ms");
    assertThat(m.said()).anyMatch(l -> l.contains("differed where this host stalled"));
  }

  /** A cell of the pass that accepts no compression is measured again as that client. */
  @Test
  void aCellOfThePassAcceptingNoCompressionIsMeasuredAgainSo() throws Exception {
    Mapped m = refusedWhereTheHostStalled(STALLED_54_MS, StalledCellsAgainTest::held);
    TargetCellResult bare = m.map().results().get(0).withRequestHeaders(List.of());
    m.map().results().set(0, bare);
    ModelReplay.Outcome o = m.refused();
    ModelReplay.Outcome onBare =
        new ModelReplay.Outcome(
            o.verdict(), null, null, 0, o.cells(), o.onModel(), null, 0, List.of(bare));
    FakeMapLab lab = new FakeMapLab(MODEL, null);
    StalledCellsAgain.Again again = StalledCellsAgain.measure(lab, m.map(), MODEL, false, onBare);
    assertThat(again).isNotNull();
    assertThat(lab.identity).containsExactly(true, false);
    assertThat(m.map().results().get(0).requestHeaders()).isEqualTo(List.of());
  }

  /** Measured again, the cell differs as before: the model stays refused, on the new run. */
  @Test
  void aCellThatDiffersAgainRefusesTheModel() throws Exception {
    Mapped m = refusedWhereTheHostStalled(STALLED_54_MS, StalledCellsAgainTest::heldThroughAStall);
    StalledCellsAgain.Again again =
        StalledCellsAgain.measure(new FakeMapLab(MODEL, null), m.map(), MODEL, false, m.refused());
    assertThat(again).isNotNull();
    CellMatch cell = again.verdict().cells().get(0);
    assertThat(cell.difference()).as(again.verdict().text()).isNotNull();
    assertThat(m.said()).anyMatch(l -> l.contains("differs again"));
  }

  /** A cell that differed with no stall of this host in its run is the target's: not measured. */
  @Test
  void aCellThatDifferedWithoutAStallIsNotMeasuredAgain() throws Exception {
    Mapped m =
        refusedWhereTheHostStalled(new StallFigures(1, 0, 0, 6, 20), StalledCellsAgainTest::held);
    assertThat(
            StalledCellsAgain.measure(
                new FakeMapLab(MODEL, null), m.map(), MODEL, false, m.refused()))
        .isNull();
    assertThat(m.map().results().get(0).runs()).hasSize(1);
  }
}
