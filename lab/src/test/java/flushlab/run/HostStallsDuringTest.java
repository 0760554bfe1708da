package flushlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.client.BatchResult;
import flushlab.core.StallFigures;
import flushlab.map.CellMatch;
import flushlab.map.CellPlan;
import flushlab.map.CompressionFinding;
import flushlab.map.FlushTrigger;
import flushlab.map.ReplayVerdict;
import flushlab.map.TriggerKind;
import flushlab.scenario.Cell;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A map that no one mechanism explains, measured while this host stalled 10 ms or more in a kept
 * run, names the stall: under a CPU hog a hold then one-late, verified on a quiet host, was
 * answered inconclusive from cells whose waits the stalls had spread, with nothing saying so.
 */
class HostStallsDuringTest {
  static RunRecord run(double longestMs, Exclusion why) {
    StallFigures host =
        new StallFigures(longestMs > 5 ? 1 : 0, longestMs > 20 ? 1 : 0, 0, longestMs, 400);
    RunStalls stalls =
        new RunStalls(
            host,
            StallFigures.NONE,
            600,
            0,
            0,
            0,
            null,
            null,
            List.of(),
            StallJudge.PathWait.NONE,
            0);
    return new RunRecord(
        "t",
        0,
        0,
        new BatchResult(List.of(DrainedCellTest.stream(StreamedOutsideStallsTest::alone))),
        why,
        0,
        0,
        0,
        0,
        0,
        0,
        stalls,
        List.of());
  }

  static TargetCellResult cell(RunRecord... runs) {
    return TargetCellResult.of("t", DrainedCellTest.CELL, List.of(runs));
  }

  @Test
  void theLongestStallOfAKeptRunIsNamedFromTenMilliseconds() {
    String where =
        PassStalls.hostStallsDuring(
            List.of(cell(run(4.0, null)), cell(run(11.5, null)), cell(run(10.2, null))));
    assertThat(where)
        .isEqualTo(
            DrainedCellTest.CELL.label()
                + ": 1 over 5 ms, 0 over 20 ms, 0 over 50 ms, longest 11.5 ms at 0.40 s");
    FlushTrigger named =
        FlushTrigger.inconclusive("t", "neither ...", List.of(), List.of()).withHostStalls(where);
    assertThat(named.kind()).isEqualTo(TriggerKind.INCONCLUSIVE);
    assertThat(named.verdict())
        .contains("this host stalled while the cells were measured (" + where + ")");
    assertThat(named.next()).contains("map again on a quieter host");
  }

  /**
   * A replay that refused a model names a host stall of the target's runs of the cells it found
   * different only where every one of them stalled: a stall elsewhere, or in one of two differing
   * cells, explains no difference the replay found.
   */
  @Test
  void aRefusedReplaysDifferingCellNamesItsOwnStallAndNoOther() {
    // two of a map's cells, labelled by what they sweep as the map labels them
    Cell fast = MapPass.cellOf(DrainedCellTest.CELL, new CellPlan(60, 2_000_000L, 600), 0);
    Cell other = MapPass.cellOf(DrainedCellTest.CELL, new CellPlan(60, 50_000_000L, 25), 1);
    TargetCellResult stalled = TargetCellResult.of("t", fast, List.of(run(14.0, null)));
    TargetCellResult elsewhere = TargetCellResult.of("t", other, List.of(run(30.0, null)));
    ReplayVerdict refused =
        new ReplayVerdict(
            "m",
            List.of(
                new CellMatch(stalled.cell().label(), "first frame's wait 99.7 and 80.7 ms"),
                new CellMatch(other.label(), null)));
    List<TargetCellResult> results = List.of(stalled, elsewhere);
    List<TargetCellResult> differed = PassStalls.measuredAs(results, PassStalls.differing(refused));
    assertThat(differed).containsExactly(stalled);
    String where = PassStalls.stalledInEvery(results, PassStalls.differing(refused));
    assertThat(where).startsWith(stalled.cell().label() + ": ").contains("longest 14.0 ms");
    FlushTrigger named =
        FlushTrigger.inconclusive("t", "not verified: ...", List.of(), List.of())
            .withHostStallsWhereTheReplayDiffered(where);
    assertThat(named.verdict()).contains("this host stalled").contains(where);
    assertThat(named.next()).contains("map again on a quieter host");
    // the differing cell's run was quiet: nothing is named, whatever stalled elsewhere
    List<TargetCellResult> quiet =
        List.of(TargetCellResult.of("t", fast, List.of(run(3.0, null))), elsewhere);
    assertThat(PassStalls.stalledInEvery(quiet, PassStalls.differing(refused))).isNull();
    // two cells differed and only one of them stalled: the stall explains nothing of the other
    ReplayVerdict both =
        new ReplayVerdict(
            "m",
            List.of(
                new CellMatch(fast.label(), "first frame's wait 99.7 and 80.7 ms"),
                new CellMatch(
                    other.label(), "the model held every stream to its end, the target did not")));
    List<TargetCellResult> oneQuiet =
        List.of(stalled, TargetCellResult.of("t", other, List.of(run(2.0, null))));
    assertThat(PassStalls.stalledInEvery(oneQuiet, PassStalls.differing(both))).isNull();
    assertThat(PassStalls.stalledInEvery(results, PassStalls.differing(both)))
        .startsWith(other.label() + ": ")
        .contains("longest 30.0 ms");
  }

  @Test
  void shortStallsAndStallsOfExcludedRunsAreNotNamed() {
    assertThat(PassStalls.hostStallsDuring(List.of(cell(run(9.9, null))))).isNull();
    // an excluded run is not evidence: its stall spread nothing the fits read
    assertThat(
            PassStalls.hostStallsDuring(
                List.of(cell(run(40.0, Exclusion.hostStall("stalled")), run(3.0, null)))))
        .isNull();
  }

  /**
   * Certification refused for this host's stalls says what they were: the client's host's where its
   * meter saw any, and always the last excluded run's reason (the emitter's host held, with no
   * stall on the client's, once read "0 time(s) over 20 ms, the longest 0.0 ms").
   */
  @Test
  void aCertificationRefusedForStallsSaysWhoseTheyWere() {
    Exclusion held =
        new Exclusion(Exclusion.Cause.EMITTER_HELD_BY_HOST, "emitter late by 26.960 ms");
    assertThat(Certification.hostStalls(List.of(run(0, held), run(0, held))))
        .isEqualTo("the last run excluded: emitter late by 26.960 ms");
    assertThat(Certification.hostStalls(List.of(run(31.0, Exclusion.hostStall("reads merged")))))
        .isEqualTo(
            "the client's host stalled 1 time(s) over 20 ms, the longest 31.0 ms; the last run"
                + " excluded: reads merged");
  }

  /**
   * One model of two stages reproduced every cell and the other's replay was stopped by this host's
   * stalls: the answer is not that model alone but inconclusive, naming both and the stall, beside
   * the compressor as the accepting client's part where the target compressed.
   */
  @Test
  void aModelGivenAloneWhileItsTwinsReplayStalledIsInconclusiveNamingTheStall() {
    FlushTrigger hold =
        new FlushTrigger(
            "t", TriggerKind.TIMER, null, null, 47.2, null, "timer", List.of(), List.of());
    FlushTrigger unexplained =
        FlushTrigger.inconclusive("t", "no one mechanism", List.of("a cell"), List.of());
    FlushTrigger answer =
        unexplained.withCompression(
            CompressionFinding.of("gzip", "browser", unexplained, "bare", hold, null));
    String stalled =
        "timer=47.2ms -> compress=gzip,flush=timer,after=94.4ms: not verified: this host stalled"
            + " in both runs of the replay of frame_size=60B interval=2ms frames=600 (...)";
    FlushTrigger given =
        UndecidedAnswers.unsettledByStalls(
            answer, "compress=gzip,flush=timer,after=94.4ms -> timer=47.2ms", List.of(stalled));
    assertThat(given.kind()).isEqualTo(TriggerKind.INCONCLUSIVE);
    assertThat(given.verdict())
        .contains("compress=gzip,flush=timer,after=94.4ms -> timer=47.2ms reproduces every cell")
        .contains(stalled)
        .contains("this host stalled");
    assertThat(given.compression().accepting().kind()).isEqualTo(TriggerKind.INCONCLUSIVE);
    assertThat(given.compression().others()).isSameAs(hold);
    assertThat(given.next()).contains("map again on a quieter host");
  }

  /**
   * Models named alike while this host's stalls stopped the replay of other candidates (a
   * fresh-clone suite, 2026-12-05: `timer=129ms -> one-late`, both its fits stalled out, named a
   * clock then one-late and a hold then a clock alike): the stalled ones are named as not known, so
   * the answer says the host stalled and is not read as the target's.
   */
  @Test
  void modelsNamedAlikeWhileOthersReplaysStalledSayTheHostStalled() {
    FlushTrigger answer = FlushTrigger.inconclusive("t", "neither ...", List.of(), List.of());
    List<String> alike =
        List.of(
            "timer=136.7ms,periodic=true -> one-late",
            "timer=147.8ms -> timer=147.8ms,periodic=true");
    String stalled =
        "timer=129.1ms -> one-late: not verified: this host stalled in both runs of the replay of"
            + " frame_size=4096B interval=2ms frames=600 (...)";
    FlushTrigger named =
        UndecidedAnswers.namedAlike(answer, alike, null, List.of(stalled), List.of());
    assertThat(named.kind()).isEqualTo(TriggerKind.INCONCLUSIVE);
    assertThat(named.verdict())
        .contains("two models of two mechanisms each reproduce every cell alike: " + alike.get(0))
        .contains("whether others do too is not known: " + stalled)
        .contains("this host stalled");
    assertThat(named.next()).contains("map again on a quieter host");
    FlushTrigger settled = UndecidedAnswers.namedAlike(answer, alike, null, List.of(), List.of());
    assertThat(settled.verdict()).doesNotContain("not known").doesNotContain("stalled");
    assertThat(settled.next()).isEmpty();
    FlushTrigger cut =
        UndecidedAnswers.namedAlike(
            answer, alike, null, List.of(), List.of("timer=129.1ms -> one-late"));
    assertThat(cut.verdict())
        .contains("the budget ran out before timer=129.1ms -> one-late could be replayed");
  }

  /**
   * An answer no one mechanism explained may name the first pass's stalls though pairs were tried
   * and refused after it (nginx with gzip, its plain pass inconclusive under stalls that merged the
   * 4 KiB cell's frames 16 at a time, said nothing of them: s252, s264); one that names models
   * alike, or a stall already, may not.
   */
  @Test
  void anUnexplainedPassNamesItsStallsThoughPairsWereRefusedAfterIt() {
    FlushTrigger refusedPairs =
        new FlushTrigger(
                "t",
                TriggerKind.INCONCLUSIVE,
                null,
                null,
                null,
                null,
                "neither one byte threshold ... explains every cell",
                List.of(),
                List.of())
            .withReplay(
                new ReplayVerdict(
                    "compress=gzip,flush=none,others=decoded",
                    List.of(new CellMatch("frame_size=1024B interval=20ms frames=60", "differs"))));
    assertThat(refusedPairs.replay()).isNotNull();
    assertThat(PassStalls.mayNameFirstPassStalls(refusedPairs, true, false)).isTrue();
    assertThat(PassStalls.mayNameFirstPassStalls(refusedPairs, false, false))
        .as("a refused model of a pass that one mechanism explained: its own rule")
        .isFalse();
    assertThat(PassStalls.mayNameFirstPassStalls(refusedPairs, true, true))
        .as("models named alike")
        .isFalse();
  }
}
