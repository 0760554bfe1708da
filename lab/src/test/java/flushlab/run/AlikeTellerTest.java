package flushlab.run;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.map.CellEvidence;
import flushlab.map.CellMatch;
import flushlab.map.CellPlan;
import flushlab.map.EvidenceLine;
import flushlab.map.FlushTrigger;
import flushlab.map.Replay;
import flushlab.map.ReplayVerdict;
import flushlab.map.TriggerKind;
import flushlab.map.TwoStageCandidate;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Two models that reproduced every measured cell alike, and the cell measured to tell them apart:
 * the replays on it decide. The chains and the difference are the ones a map of
 * `timer=120ms,periodic=true -> byte-threshold=2500B` printed (2026-12-05): the hold in front of
 * the threshold read 1.92 frames per read on 4 KiB frames every 100 ms where the target read 1.25.
 */
class AlikeTellerTest {
  private static final String HOLD = "timer=131.4ms -> byte-threshold=2276B";
  private static final String CLOCK = "timer=116.8ms,periodic=true -> byte-threshold=2367B";
  private static final String TELLING = "frame_size=4096B interval=100ms frames=25";

  private static AlikeTeller.Reproduced reproduced(String chain, int cells) {
    List<CellMatch> matches =
        IntStream.range(0, cells).mapToObj(i -> new CellMatch("cell " + i, null)).toList();
    FlushTrigger answer =
        new FlushTrigger("x", TriggerKind.TIMER, null, null, 100.0, null, "", List.of(), List.of());
    return new AlikeTeller.Reproduced(
        new TwoStageCandidate(chain, answer),
        chain,
        new ReplayVerdict(chain, matches),
        List.of(new ReplayedCell("cell 0", null, null, null)));
  }

  private static ReplayVerdict onTheTellingCell(String chain, String difference) {
    return new ReplayVerdict(chain, List.of(new CellMatch(TELLING, difference)));
  }

  @Test
  void theOneModelThatReproducesTheTellingCellIsGivenWithItsReplayOfEveryCell() {
    List<AlikeTeller.Reproduced> alike = List.of(reproduced(HOLD, 6), reproduced(CLOCK, 6));
    AlikeTeller.Told told =
        AlikeTeller.decide(
            alike,
            List.of(
                onTheTellingCell(HOLD, "frames per read 1.25 on the target, 1.92 on the model"),
                onTheTellingCell(CLOCK, null)),
            List.of(
                List.of(new ReplayedCell(TELLING, "differs", null, null)),
                List.of(new ReplayedCell(TELLING, null, null, null))),
            TELLING,
            null);
    assertThat(told).isInstanceOf(AlikeTeller.Told.One.class);
    AlikeTeller.Reproduced given = ((AlikeTeller.Told.One) told).model();
    assertThat(given.chain()).isEqualTo(CLOCK);
    assertThat(given.verdict().verified()).isTrue();
    assertThat(given.verdict().text())
        .isEqualTo("verified: the model " + CLOCK + " reproduces 7 of 7 cells");
    assertThat(given.cells()).extracting(ReplayedCell::label).containsExactly("cell 0", TELLING);
  }

  @Test
  void neitherReproducingItGivesNoModelAndSaysHowEachDiffered() {
    List<AlikeTeller.Reproduced> alike = List.of(reproduced(HOLD, 6), reproduced(CLOCK, 6));
    AlikeTeller.Told told =
        AlikeTeller.decide(
            alike,
            List.of(onTheTellingCell(HOLD, "waits 120 and 300 ms"), onTheTellingCell(CLOCK, "x")),
            List.of(List.of(), List.of()),
            TELLING,
            null);
    assertThat(told).isInstanceOf(AlikeTeller.Told.Neither.class);
    AlikeTeller.Told.Neither neither = (AlikeTeller.Told.Neither) told;
    assertThat(neither.tried()).hasSize(2).allMatch(t -> t.contains("reproduces 0 of 1 cells"));
    assertThat(neither.cells())
        .containsExactly(
            "replay of " + TELLING + " on " + HOLD + ": waits 120 and 300 ms",
            "replay of " + TELLING + " on " + CLOCK + ": x");
  }

  @Test
  void bothReproducingItLeavesThemAlikeAndNamesTheCellMeasured() {
    List<AlikeTeller.Reproduced> alike = List.of(reproduced(HOLD, 5), reproduced(CLOCK, 5));
    AlikeTeller.Told told =
        AlikeTeller.decide(
            alike,
            List.of(onTheTellingCell(HOLD, null), onTheTellingCell(CLOCK, null)),
            List.of(List.of(), List.of()),
            TELLING,
            null);
    assertThat(told).isInstanceOf(AlikeTeller.Told.Both.class);
    AlikeTeller.Told.Both both = (AlikeTeller.Told.Both) told;
    assertThat(both.label()).isEqualTo(TELLING);
    assertThat(both.still()).extracting(AlikeTeller.Reproduced::chain).containsExactly(HOLD, CLOCK);
  }

  /**
   * One-late then a 204 ms hold, and the cell measured to tell it from a clock then a hold, each
   * 202.3 ms (a fresh-clone suite's map, s194, 2026-12-06): frames every 300 ms waited 300.2 ms on
   * the target; the clock's model let them go after 202.7 ms (the map's line since: `oldest frame's
   * wait 300.2 and 202.7 ms`), within the clock's period a replay allows a model of clocks and
   * holds, so both reproduced the cell and were named alike. Held to its own values, only
   * one-late's does; a replay within the floors of the target's decides nothing apart.
   */
  @Test
  void modelsThatBothReproduceTheTellingCellArePartedHeldToTheirOwnValues() {
    String clock = "timer=202.3ms,periodic=true -> timer=202.3ms";
    String oneLate = "one-late -> timer=202.3ms";
    CellEvidence seen =
        EvidenceLine.parse(
            "frame_size=60B interval=300ms frames=15: 1.07 frames/read; 12.0 releases per stream of 1 frames (p10 1, p90 1); the oldest frame waited 300.2 ms (p10 300.2, p90 300.2); 300.2 ms between releases (p10 300.2, p90 300.2); 66 B per frame on the wire, 66 B per release (p10 66, p90 66); the first frame waited 300.2 ms");
    CellEvidence onTheClock = seen.withWaitP50(202.7).withWaitP10(202.5).withWaitP90(203.0);
    List<AlikeTeller.Reproduced> alike = List.of(reproduced(clock, 7), reproduced(oneLate, 7));
    AlikeTeller.Told.Both both = new AlikeTeller.Told.Both(seen.label(), alike);

    AlikeTeller.Told told =
        AlikeTeller.heldToTheirValues(both, alike, List.of(onTheClock, seen), seen);
    assertThat(told).isInstanceOf(AlikeTeller.Told.One.class);
    assertThat(((AlikeTeller.Told.One) told).model().chain()).isEqualTo(oneLate);
    assertThat(Replay.heldToItsValues(clock, seen, onTheClock)).contains("oldest frame's wait");
    // the replay's own comparison lets the clock's model agree: the slack this parts
    assertThat(Replay.compare(clock, List.of(seen), List.of(onTheClock)).verified()).isTrue();

    // both within the floors of the target's: still alike
    AlikeTeller.Told still =
        AlikeTeller.heldToTheirValues(both, alike, List.of(seen.withWaitP50(298.0), seen), seen);
    assertThat(still).isSameAs(both);
    // a model whose replay came back with nothing is not given for it
    assertThat(AlikeTeller.heldToTheirValues(both, alike, Arrays.asList(null, onTheClock), seen))
        .isSameAs(both);
  }

  /**
   * A cell among the map's own, which every replay compared and both models reproduced, is not the
   * one named to tell them apart, nor is one where their simulations part less (one-late then a 243
   * ms clock was named alike with "a cell of 60 B every 300 ms would tell them apart", a cell
   * measured before the replays: a chain bench, 2026-12-07).
   */
  @Test
  void aCellTheMapMeasuredAlreadyIsNotTheTellingOne() {
    List<String> two =
        List.of("one-late -> timer=256ms", "timer=82.1ms,periodic=true -> timer=256ms");
    CellPlan widest = AlikeTeller.tellingCell(two, List.of());
    assertThat(widest).isNotNull();
    CellEvidence shown =
        EvidenceLine.parse(
            widest
                + ": 1.07 frames/read; 14.0 releases per stream of 1 frames (p10 1, p90 1); the"
                + " oldest frame waited 500.4 ms (p10 500.3, p90 500.9); 500.2 ms between releases"
                + " (p10 499.9, p90 500.4); 66 B per frame on the wire, 66 B per release (p10 66,"
                + " p90 66); the first frame waited 500.4 ms");
    assertThat(shown.label()).isEqualTo(widest.toString());
    assertThat(AlikeTeller.tellingCell(two, List.of(), List.of(shown))).isNull();
  }

  /**
   * Four models alike (a map of `timer=81ms -> byte-threshold=3944B` as a browser, 2026-12-05, with
   * a budget of 150 s): the first pair's telling cell is the one measured; the two that reproduce
   * it stay, each with that cell's replay, for the next cell to part.
   */
  @Test
  void ofManyAlikeTheOnesThatReproduceTheTellingCellStayForTheNext() {
    List<String> four =
        List.of(
            "timer=82.1ms -> byte-threshold=3789B",
            "byte-threshold=4794B -> timer=82.1ms",
            "timer=85.4ms,periodic=true -> byte-threshold=3643B",
            "byte-threshold=4098B -> timer=78.9ms,periodic=true");
    CellPlan first = UndecidedAnswers.tellingCell(four.get(0), four.get(1));
    assertThat(AlikeTeller.tellingCell(four, List.of())).isEqualTo(first).isNotNull();
    // a cell measured already is not measured again: the next pair's, that differs
    assertThat(AlikeTeller.tellingCell(four, List.of(first))).isNotNull().isNotEqualTo(first);
    assertThat(AlikeTeller.tellingCell(List.of(four.get(0), four.get(0)), List.of())).isNull();
    List<AlikeTeller.Reproduced> alike = four.stream().map(c -> reproduced(c, 7)).toList();
    AlikeTeller.Told told =
        AlikeTeller.decide(
            alike,
            List.of(
                onTheTellingCell(four.get(0), null),
                onTheTellingCell(four.get(1), "waits 300 and 82 ms"),
                onTheTellingCell(four.get(2), null),
                onTheTellingCell(four.get(3), "frames per read 1.00 and 2.00")),
            List.of(List.of(), List.of(), List.of(), List.of()),
            TELLING,
            null);
    assertThat(told).isInstanceOf(AlikeTeller.Told.Both.class);
    List<AlikeTeller.Reproduced> still = ((AlikeTeller.Told.Both) told).still();
    assertThat(still)
        .extracting(AlikeTeller.Reproduced::chain)
        .containsExactly(four.get(0), four.get(2));
    assertThat(still)
        .allMatch(m -> m.verdict().text().endsWith("reproduces 8 of 8 cells"), "8 of 8 cells");
  }
}
