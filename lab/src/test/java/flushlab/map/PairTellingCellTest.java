package flushlab.map;

import static org.assertj.core.api.Assertions.assertThat;

import flushlab.map.PairSimulation.Stage;
import org.junit.jupiter.api.Test;

/**
 * The cell named to tell two alike models apart is never one the target showed already, where both
 * reproduced it, nor one where their simulations part less than there.
 */
class PairTellingCellTest {
  private static final String ONE_LATE = "one-late -> timer=256ms";
  private static final String CLOCK = "timer=82.1ms,periodic=true -> timer=256ms";

  /**
   * One-late in front of a 256 ms hold and a clock in front of it part only at frames 400 ms apart
   * or slower, furthest at 500 ms: that cell measured (both reproduced it), a 400 ms cell, where
   * they part less, tells nothing more, and none is named; a 400 ms cell measured leaves the 500 ms
   * one to tell.
   */
  @Test
  void aCellMeasuredAlreadyOrOnePartingLessIsNotNamed() {
    CellPlan widest = PairTellingCell.tellingCell(ONE_LATE, CLOCK);
    assertThat(widest).isNotNull();
    assertThat(widest.intervalNanos() / 1e6).isEqualTo(500);
    assertThat(PairTellingCell.tellingCell(ONE_LATE, CLOCK, widest::equals)).isNull();
    CellPlan at400 = new CellPlan(widest.frameSizeBytes(), 400_000_000L, widest.frames());
    assertThat(PairTellingCell.gap(at400, stages(ONE_LATE), stages(CLOCK))).isPositive();
    assertThat(PairTellingCell.tellingCell(ONE_LATE, CLOCK, at400::equals)).isEqualTo(widest);
  }

  /**
   * A hold and a clock in front of the cork part furthest at a slow cell: that cell measured, the
   * cell named instead (if any) parts them further than it, whatever its interval.
   */
  @Test
  void theCellNamedInsteadPartsFurtherThanTheOneMeasured() {
    String hold = "timer=210.4ms -> cork";
    String clock = "timer=246.1ms,periodic=true -> cork";
    CellPlan usual = PairTellingCell.tellingCell(hold, clock);
    assertThat(usual).isNotNull();
    double measuredGap = PairTellingCell.gap(usual, stages(hold), stages(clock));
    CellPlan instead = PairTellingCell.tellingCell(hold, clock, usual::equals);
    assertThat(instead).isNotEqualTo(usual);
    if (instead != null)
      assertThat(PairTellingCell.gap(instead, stages(hold), stages(clock)))
          .isGreaterThan(measuredGap);
    // nothing measured: the usual cell, as before
    assertThat(PairTellingCell.tellingCell(hold, clock, plan -> false)).isEqualTo(usual);
  }

  private static Stage[] stages(String chain) {
    return ChainStages.of(chain);
  }
}
